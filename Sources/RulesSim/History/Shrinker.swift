/// Greedy shrinking: from a value that shows something, keep taking the first smaller candidate
/// that still shows it, until none does. Candidates must be strictly smaller in a well-founded
/// order (as `HistoryGenerator.shrink` guarantees), so shrinking ends.
///
/// The candidates are a sequence, read one at a time: a lazy one (`HistoryGenerator.shrink`,
/// `Array.shrinkCandidates`) builds only the candidates that are tried.
///
/// Shrinking may stop earlier, after `maxAttempts` candidates or at a deadline: the value is then
/// the smallest found so far that shows it, and `Shrunk.stopped` says which limit stopped it.
package struct Shrinker<Value> {
    package let candidates: (Value) -> AnySequence<Value>
    /// The most candidates tried in all, a bound on the time shrinking may take.
    package let maxAttempts: Int

    package init<Candidates: Sequence>(maxAttempts: Int = 20_000, candidates: @escaping (Value) -> Candidates)
    where Candidates.Element == Value {
        self.candidates = { AnySequence(candidates($0)) }
        self.maxAttempts = maxAttempts
    }

    /// The smallest value reached, the candidates tried, and what stopped shrinking early (nil:
    /// no candidate of the value shows it any more, the value is minimal).
    package struct Shrunk {
        package let value: Value
        package let attempts: Int
        package let stopped: ShrinkStop?
    }

    /// The smallest value reached from `value` whose every step kept `shows` true; with `deadline`,
    /// no candidate is tried once it has passed.
    package func shrink(_ value: Value, until deadline: ContinuousClock.Instant? = nil, while shows: (Value) -> Bool) -> Shrunk {
        var current = value
        var attempts = 0
        search: while true {
            for candidate in candidates(current) {
                if attempts >= maxAttempts { return Shrunk(value: current, attempts: attempts, stopped: .attempts) }
                if let deadline, ContinuousClock.now >= deadline { return Shrunk(value: current, attempts: attempts, stopped: .deadline) }
                attempts += 1
                if shows(candidate) {
                    current = candidate
                    continue search
                }
            }
            return Shrunk(value: current, attempts: attempts, stopped: nil)
        }
    }
}

/// Why shrinking stopped while candidates were left to try.
package enum ShrinkStop: Sendable, Equatable {
    /// The most candidates a shrinker tries were tried.
    case attempts
    /// The deadline passed.
    case deadline

    /// `shrinking stopped after 2000 attempts: the most it tries (2000)`, or, at the deadline,
    /// `…: its time limit (2 s, --test-timeout) was reached` (`deadline` says what the limit was):
    /// what `rulesrun test` and `compare` say of a case or history that is the smallest found, not
    /// a minimal one.
    package func text(attempts: Int, limit: Int, deadline: String = "its deadline") -> String {
        "shrinking stopped after \(attempts) attempts: " + (self == .attempts ? "the most it tries (\(limit))" : "\(deadline) was reached")
    }

    /// `a minimal history` (`the minimal history`: `definite`), or `the smallest history found`
    /// when shrinking stopped early.
    package static func historyName(minimal: Bool, definite: Bool = false) -> String {
        minimal ? (definite ? "the minimal history" : "a minimal history") : "the smallest history found"
    }
}
