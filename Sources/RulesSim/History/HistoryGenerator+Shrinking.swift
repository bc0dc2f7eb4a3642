import RulesEngine
import RulesModel

/// Shrinking: smaller histories are shorter, need fewer events in their replay file and are plainer.
extension HistoryGenerator {
    /// Smaller histories than `history`, most shrunk first: fewer days (shorter prefixes, one day
    /// left out), a plainer start (tier 0, no misses or successes, no streak, the default set-up
    /// day), plainer days (fewer events: no commitment rather than a MISSED commitment rather than a
    /// check-in; YES rather than NO; no shield; the default window).
    ///
    /// Every candidate is strictly smaller than `history` in the order of `size(of:)`, so shrinking
    /// ends. The candidates are built one at a time, as they are read.
    package static func shrink(_ history: PressureHistory) -> AnySequence<PressureHistory> {
        func with(days: [PressureHistory.Day]) -> PressureHistory {
            var other = history
            other.days = days
            return other
        }
        var plainer: [PressureHistory] = []
        for counters in shrink(history.counters) {
            var candidate = history
            candidate.counters = counters
            plainer.append(candidate)
        }
        for streak in shrink(history.streak) {
            var candidate = history
            candidate.streak = streak
            plainer.append(candidate)
        }
        if history.setupDay != PressureHistory.defaultSetupDay {
            var candidate = history
            candidate.setupDay = PressureHistory.defaultSetupDay
            plainer.append(candidate)
        }
        // Lazy: a history of n days has about 6n candidates of n days each; only those tried are built.
        return AnySequence(
            [
                AnySequence(history.days.shorterCandidates().lazy.map(with(days:))),
                AnySequence(plainer),
                AnySequence(history.days.elementCandidates(shrink).lazy.map(with(days:))),
            ].joined())
    }

    package static func shrink(_ counters: EscalationCounters) -> [EscalationCounters] {
        var out: [EscalationCounters] = []
        let zero = EscalationCounters(tier: 0, misses: 0, successes: 0)
        if counters != zero { out.append(zero) }
        if counters.tier > 0 {
            out.append(EscalationCounters(tier: counters.tier - 1, misses: counters.misses, successes: counters.successes))
        }
        if counters.misses > 0 {
            out.append(EscalationCounters(tier: counters.tier, misses: counters.misses - 1, successes: counters.successes))
        }
        if counters.successes > 0 {
            out.append(EscalationCounters(tier: counters.tier, misses: counters.misses, successes: counters.successes - 1))
        }
        return out
    }

    package static func shrink(_ streak: PressureStreak) -> [PressureStreak] {
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

    /// Plainer days: fewer events first (no commitment at all, or a commitment without a check-in),
    /// then YES rather than NO, no shield, the default window.
    package static func shrink(_ day: PressureHistory.Day) -> [PressureHistory.Day] {
        var out: [PressureHistory.Day] = []
        if day.committed { out.append(.init(.missed, committed: false, shieldUsed: day.shieldUsed, open: day.open, close: day.close)) }
        if day.result != .missed { out.append(.init(.missed, shieldUsed: day.shieldUsed, open: day.open, close: day.close)) }
        if day.result == .no { out.append(.init(.yes, open: day.open, close: day.close)) }
        if day.shieldUsed { out.append(.init(day.result, committed: day.committed, open: day.open, close: day.close)) }
        if !day.hasDefaultWindow { out.append(.init(day.result, committed: day.committed, shieldUsed: day.shieldUsed)) }
        return out
    }

    /// The order shrinking descends, compared lexicographically: the days, the events of the replay
    /// file beyond the set-up, how plain the days are, the start counters, the start streak, the
    /// set-up day. Each candidate of `shrink(_:)` is smaller.
    package static func size(of history: PressureHistory) -> [Int] {
        let plainness = history.days.reduce(0) { total, day in
            let result = day.result == .yes ? 0 : day.result == .no ? 1 : day.committed ? 2 : 0
            return total + result + (day.shieldUsed ? 1 : 0) + (day.hasDefaultWindow ? 0 : 1)
        }
        let events = history.days.reduce(0) { $0 + ReplayScript.events(of: $1) + ($1.hasDefaultWindow ? 0 : 1) }
        return [
            history.days.count, events, plainness, history.counters.tier + history.counters.misses + history.counters.successes,
            history.streak.current + history.streak.longest, history.setupDay == PressureHistory.defaultSetupDay ? 0 : 1,
        ]
    }
}
