/// Greedy shrinking: from a value that shows something, keep taking the first smaller candidate
/// that still shows it, until none does. Candidates must be strictly smaller in a well-founded
/// order (as `HistoryGenerator.shrink` guarantees), so shrinking ends.
///
/// The candidates are a sequence, read one at a time: a lazy one (`HistoryGenerator.shrink`,
/// `Array.shrinkCandidates`) builds only the candidates that are tried.
public struct Shrinker<Value> {
    public let candidates: (Value) -> AnySequence<Value>
    /// The most candidates tried in all, a bound on the time shrinking may take.
    public let maxAttempts: Int

    public init<Candidates: Sequence>(maxAttempts: Int = 20_000, candidates: @escaping (Value) -> Candidates)
    where Candidates.Element == Value {
        self.candidates = { AnySequence(candidates($0)) }
        self.maxAttempts = maxAttempts
    }

    /// The smallest value reached from `value` whose every step kept `shows` true, and the number
    /// of candidates tried.
    public func shrink(_ value: Value, while shows: (Value) -> Bool) -> (value: Value, attempts: Int) {
        var current = value
        var attempts = 0
        search: while attempts < maxAttempts {
            for candidate in candidates(current) {
                attempts += 1
                if shows(candidate) {
                    current = candidate
                    continue search
                }
                if attempts >= maxAttempts { break search }
            }
            break
        }
        return (current, attempts)
    }
}
