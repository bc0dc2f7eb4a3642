import RulesEngine
import RulesModel

/// Random Pressure histories, reproducible from a seed on every machine (SplitMix64, no other
/// source of randomness), with a shrinker that makes a history short and plain.
///
/// Case `k` of seed `s` is drawn from its own generator seeded from `(s, k)`, so the same seed
/// gives the same histories whatever the number of cases or the order they are drawn in.
///
/// A history starts from a new user's state, or (unless `freshStart`) one time in four from a state
/// the counters can be in (a tier 0–3 with either some misses or some successes in a row) and a
/// streak. Its set-up day is a day of 2026, so that months start inside histories. Each user gets a
/// YES rate between 20 % and 90 %; a day repeats the day before with probability 40 % (so runs of
/// misses and of YES days, which move the tiers, are common), else draws YES at that rate or NO or
/// MISSED evenly; a MISSED day has no commitment at all one time in two. One NO or MISSED day in ten
/// uses a restart shield. The window is one of the windows users can set (deadline 06:00–12:00,
/// close 18:00–23:30 in 30-minute steps or 23:59) and changes on 5 % of the days.
package struct HistoryGenerator: Sendable {
    package var seed: UInt64
    /// How many days a history has.
    package var days: ClosedRange<Int>
    /// Every history starts as a new user does (what replay files can reproduce).
    package var freshStart: Bool

    package init(seed: UInt64, days: ClosedRange<Int> = 30...90, freshStart: Bool = false) {
        self.seed = seed
        self.days = days
        self.freshStart = freshStart
    }

    /// The four words of case `k`'s generator never depend on anything but `seed` and `k`.
    package func history(case k: Int) -> PressureHistory {
        var rng = SeededGenerator(seed: seed, UInt64(truncatingIfNeeded: k), 0x4849_5354)
        var history = Self.history(days: days, freshStart: freshStart, using: &rng)
        history.origin = "seed \(seed), case \(k)"
        return history
    }

    /// One random history.
    package static func history<R: RandomNumberGenerator>(
        days: ClosedRange<Int>, freshStart: Bool = false,
        using rng: inout R
    ) -> PressureHistory {
        var counters = EscalationCounters(tier: 0, misses: 0, successes: 0)
        var streak = PressureStreak(current: 0, longest: 0)
        if !freshStart, Int.random(in: 0..<4, using: &rng) != 0 {
            counters = startCounters(using: &rng)
            let current = Int.random(in: 0...30, using: &rng)
            streak = PressureStreak(current: current, longest: current + Int.random(in: 0...40, using: &rng))
        }
        let setupDay = try! DayID("2026-01-01").adding(days: Int.random(in: 0..<365, using: &rng))!
        let yesRate = Double.random(in: 0.2...0.9, using: &rng)
        var window = self.window(using: &rng)
        var previous: CommitmentStatus?
        var list: [PressureHistory.Day] = []
        list.reserveCapacity(days.upperBound)
        for _ in 0..<Int.random(in: days, using: &rng) {
            let result: CommitmentStatus
            if let previous, Double.random(in: 0..<1, using: &rng) < 0.4 {
                result = previous
            } else if Double.random(in: 0..<1, using: &rng) < yesRate {
                result = .yes
            } else {
                result = Bool.random(using: &rng) ? .no : .missed
            }
            if Double.random(in: 0..<1, using: &rng) < 0.05 { window = self.window(using: &rng) }
            let shield = result != .yes && Double.random(in: 0..<1, using: &rng) < 0.1
            let committed = result != .missed || Bool.random(using: &rng)
            list.append(PressureHistory.Day(result, committed: committed, shieldUsed: shield, open: window.open, close: window.close))
            previous = result
        }
        return PressureHistory(counters: counters, streak: streak, setupDay: setupDay, days: list)
    }

    /// A state the counters can be in: after a NO or MISSED the successes are 0, after a YES the misses
    /// are 0.
    package static func startCounters<R: RandomNumberGenerator>(using rng: inout R) -> EscalationCounters {
        let tier = Int.random(in: 0...PressureLimits.maxTier, using: &rng)
        let run = Int.random(in: 0...6, using: &rng)
        return Bool.random(using: &rng)
            ? EscalationCounters(tier: tier, misses: run, successes: 0)
            : EscalationCounters(tier: tier, misses: 0, successes: run)
    }

    /// The windows users can set: every commitment deadline 06:00–12:00 and every window close
    /// 18:00–23:30 in 30-minute steps, and 23:59 (pressure-data-model.md), as validation proves them.
    static let windows = EscalationPolicy.allWindows

    static func window<R: RandomNumberGenerator>(using rng: inout R) -> (open: LocalTime, close: LocalTime) {
        windows.randomElement(using: &rng)!
    }
}
