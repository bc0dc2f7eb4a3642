import PropertyBased
import RulesEngine
import RulesModel

/// Random Pressure histories, reproducible from a seed, with a shrinker that makes a failing history
/// short and plain.
///
/// A history starts from a new user's state (one in four) or from a state the counters can be in (a
/// tier 0–3 with either some misses or some successes in a row) and a streak, then runs 30–90 days. Each user gets a YES rate between 20 % and
/// 90 %; a day repeats the day before with probability 40 % (so runs of misses and of YES days, which
/// move the tiers, are common), else draws YES at that rate or NO or MISSED evenly. One NO or MISSED day
/// in ten uses a restart shield. The window is one of the windows users can set (deadline 06:00–12:00,
/// close 18:00–23:30 in 30-minute steps or 23:59) and changes on 5 % of the days.
enum HistoryGenerator {
    /// The document's default window: "commitment_deadline (default 09:00)", "checkin_window_close
    /// (default 22:00)". Shrinking moves windows here.
    static let defaultOpen = LocalTime(hour: 9, minute: 0)
    static let defaultClose = LocalTime(hour: 22, minute: 0)

    /// The generator of histories of `days` days for `propertyCheck`.
    static func histories(seed: UInt64, days: ClosedRange<Int> = 30...90) -> Generator<PressureHistory, [PressureHistory]> {
        SeededGenerator.make(
            seed: seed,
            draw: { rng, k in
                var history = history(days: days, using: &rng)
                history.origin = "from seed 0x\(String(seed, radix: 16, uppercase: true)), case \(k)"
                return history
            },
            shrink: shrink)
    }

    /// One random history.
    static func history(days: ClosedRange<Int>, using rng: inout Xoshiro) -> PressureHistory {
        var counters = EscalationCounters(tier: 0, misses: 0, successes: 0)
        var streak = PressureStreak(current: 0, longest: 0)
        if Int.random(in: 0..<4, using: &rng) != 0 {
            counters = startCounters(using: &rng)
            let current = Int.random(in: 0...30, using: &rng)
            streak = PressureStreak(current: current, longest: current + Int.random(in: 0...40, using: &rng))
        }
        let yesRate = Double.random(in: 0.2...0.9, using: &rng)
        var window = self.window(using: &rng)
        var previous: CommitmentStatus?
        var list: [PressureHistory.Day] = []
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
            list.append(PressureHistory.Day(result, shieldUsed: shield, open: window.open, close: window.close))
            previous = result
        }
        return PressureHistory(counters: counters, streak: streak, days: list)
    }

    /// A state the counters can be in: after a NO or MISSED the successes are 0, after a YES the misses
    /// are 0.
    static func startCounters(using rng: inout Xoshiro) -> EscalationCounters {
        let tier = Int.random(in: 0...PressureLimits.maxTier, using: &rng)
        let run = Int.random(in: 0...6, using: &rng)
        return Bool.random(using: &rng)
            ? EscalationCounters(tier: tier, misses: run, successes: 0)
            : EscalationCounters(tier: tier, misses: 0, successes: run)
    }

    /// One of the windows users can set: every commitment deadline 06:00–12:00 and every window close
    /// 18:00–23:30 in 30-minute steps, and 23:59 (pressure-data-model.md), as validation proves them.
    static func window(using rng: inout Xoshiro) -> (open: LocalTime, close: LocalTime) {
        EscalationPolicy.allWindows.randomElement(using: &rng)!
    }

    // MARK: Shrinking

    /// Smaller histories than `history`, most shrunk first: fewer days (shorter prefixes, one day
    /// left out), a plainer start (tier 0, no misses or successes, no streak), plainer days (YES
    /// rather than NO rather than MISSED, no shield, the default window).
    static func shrink(_ history: PressureHistory) -> [PressureHistory] {
        func with(days: [PressureHistory.Day]) -> PressureHistory {
            var other = history
            other.days = days
            return other
        }
        var out = history.days.shorterCandidates().map(with(days:))
        for counters in shrink(history.counters) {
            var plainer = history
            plainer.counters = counters
            out.append(plainer)
        }
        for streak in shrink(history.streak) {
            var plainer = history
            plainer.streak = streak
            out.append(plainer)
        }
        return out + history.days.elementCandidates(shrink).map(with(days:))
    }

    static func shrink(_ counters: EscalationCounters) -> [EscalationCounters] {
        var out: [EscalationCounters] = []
        let zero = EscalationCounters(tier: 0, misses: 0, successes: 0)
        if counters != zero { out.append(zero) }
        if counters.tier > 0 { out.append(EscalationCounters(tier: counters.tier - 1, misses: counters.misses, successes: counters.successes)) }
        if counters.misses > 0 { out.append(EscalationCounters(tier: counters.tier, misses: counters.misses - 1, successes: counters.successes)) }
        if counters.successes > 0 { out.append(EscalationCounters(tier: counters.tier, misses: counters.misses, successes: counters.successes - 1)) }
        return out
    }

    static func shrink(_ streak: PressureStreak) -> [PressureStreak] {
        var out: [PressureStreak] = []
        if streak.longest > 0 { out.append(PressureStreak(current: 0, longest: 0)) }
        if streak.longest > streak.current {
            for longest in Set([streak.current, (streak.current + streak.longest) / 2, streak.longest - 1]).sorted() {
                out.append(PressureStreak(current: streak.current, longest: longest))
            }
        }
        if streak.current > 0 { out.append(PressureStreak(current: streak.current - 1, longest: streak.longest)) }
        return out
    }

    static func shrink(_ day: PressureHistory.Day) -> [PressureHistory.Day] {
        var out: [PressureHistory.Day] = []
        switch day.result {
        case .missed: out.append(.init(.no, shieldUsed: day.shieldUsed, open: day.open, close: day.close))
        case .no: out.append(.init(.yes, open: day.open, close: day.close))
        default: break
        }
        if day.shieldUsed { out.append(.init(day.result, open: day.open, close: day.close)) }
        if day.open != defaultOpen || day.close != defaultClose {
            out.append(.init(day.result, shieldUsed: day.shieldUsed))
        }
        return out
    }
}
