import RulesModel

/// What `habit.streak` returns: the current streak, and the best streaks and the habit's score
/// when the rule gives them.
package struct HabitStreak: Hashable, Sendable {
    /// A run of periods, from its first day to its last.
    package struct Interval: Hashable, Sendable {
        package var first: DayID
        package var last: DayID
        package var length: Int
        package init(first: DayID, last: DayID, length: Int) {
            self.first = first
            self.last = last
            self.length = length
        }
    }

    /// The host keeps this many best streaks: the longest, the most recent first among equals.
    package static let maxBest = 10

    /// How the kept best streaks are listed (`habit.best_order`): longest first (the most recent
    /// first among equals), or newest first (by last day: Loop's `getBest`).
    package enum BestOrder: String, Sendable, Decodable, CaseIterable {
        case longest
        case newest
    }
    /// A rule may return at most this many intervals as `best` (every run of ten years of days
    /// done every other day is 1,830).
    package static let maxReturnedBest = 4_000

    package var current: Int
    /// As the rule returns them (any order, at most `maxReturnedBest`); `ranked()` keeps the
    /// `maxBest` longest, longest first. Nil when the rule does not return `best`.
    package var best: [Interval]?
    /// 0…1; nil when the rule does not return `score`.
    package var score: Double?

    package init(current: Int, best: [Interval]? = nil, score: Double? = nil) {
        self.current = current
        self.best = best
        self.score = score
    }

    /// What breaks the host's checks for `periods` periods and a task's window of `window` days
    /// (``HabitTaskRecord/openWindow``: days a streak may count past today and before the first
    /// period; nil when none does): the current streak within 0…periods + 2 × window, at most
    /// `maxReturnedBest` best streaks, each 1…periods + 2 × window long with first ≤ last, the
    /// longest at least the current streak, and a score in 0…1.
    package func violation(periods: Int, window: Int = 0) -> String? {
        let limit = periods + 2 * window
        let bound =
            window == 0
            ? "(the number of periods)" : "(the \(periods) periods + the task's window of \(window) days after and before them)"
        if current < 0 || current > limit { return "current \(current), outside 0…\(limit) \(bound)" }
        if let best {
            if best.count > Self.maxReturnedBest { return "\(best.count) best streaks, at most \(Self.maxReturnedBest)" }
            for (i, interval) in best.enumerated() {
                let at = "best[\(i + 1)]"
                if interval.length < 1 || interval.length > limit {
                    return "\(at).length \(interval.length), outside 1…\(limit) \(bound)"
                }
                if interval.first > interval.last { return "\(at): first \(interval.first) after last \(interval.last)" }
            }
            if let longest = best.map(\.length).max(), longest < current {
                return "best streaks at most \(longest) long, shorter than current \(current) (the current streak is one of the best)"
            }
            if best.isEmpty, current > 0 { return "no best streak while current is \(current)" }
        }
        if let score, !(score.isFinite && (0...1).contains(score)) { return "score \(score), outside 0…1" }
        return nil
    }

    /// The streak as the state shows it: the `maxBest` longest best streaks, the most recent
    /// first among equals (by last day, then first day), so that a rule returns its runs in any
    /// order and need not sort them; listed longest first, or, `.newest`, newest first.
    package func ranked(_ order: BestOrder = .longest) -> HabitStreak {
        guard let best, best.count > 1 else { return self }
        var out = self
        var kept = Array(
            best.sorted { a, b in
                (a.length, a.last, a.first) > (b.length, b.last, b.first)
            }.prefix(Self.maxBest))
        if order == .newest { kept.sort { a, b in (a.last, a.first) > (b.last, b.first) } }
        out.best = kept
        return out
    }

    /// The length of the longest best streak (0 when there is none); nil when the rule returns no `best`.
    package var longestBest: Int? { best.map { $0.map(\.length).max() ?? 0 } }
}
