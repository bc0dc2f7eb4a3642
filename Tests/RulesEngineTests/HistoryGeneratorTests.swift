import PropertyBased
import RulesEngine
import RulesModel
import Testing

/// The random histories reach the cases where the readings of the escalation document part, so
/// that agreement on them means something; and they are the same on every run.
@Suite struct HistoryGeneratorTests {
    func histories(seed: UInt64, count: Int) -> [PressureHistory] {
        (0..<count).map { k in
            var rng = Xoshiro(seed: SeededGenerator.stream(seed, k))
            return HistoryGenerator.history(days: 30...90, using: &rng)
        }
    }

    @Test func theSameSeedGivesTheSameHistories() {
        #expect(histories(seed: 7, count: 20) == histories(seed: 7, count: 20))
        #expect(histories(seed: 7, count: 20) != histories(seed: 8, count: 20))
    }

    @Test func historiesReachEveryTierAndEveryWayOfLeavingOne() throws {
        let native = NativeReference()
        var tiers = Set<Int>(), moves = Set<String>(), lengths = Set<Int>(), closes = Set<LocalTime>()
        var shields = 0
        for history in histories(seed: 0x5EED_0001, count: 300) {
            lengths.insert(history.days.count)
            var walker = HistoryWalker(native, from: history)
            for day in history.days {
                let outcome = try walker.step(day)
                tiers.insert(outcome.tier)
                closes.insert(day.close)
                if day.shieldUsed { shields += 1 }
                if outcome.transition.tier != outcome.tier { moves.insert("\(outcome.tier)→\(outcome.transition.tier) \(day.result == .yes ? "YES" : "miss")") }
            }
        }
        #expect(tiers == [0, 1, 2, 3])
        // Recovery straight to 0 from every tier, and a miss after a YES lowering tier 2 or 3 to 1.
        for move in ["1→0 YES", "2→0 YES", "3→0 YES", "0→1 miss", "1→2 miss", "2→3 miss", "2→1 miss", "3→1 miss"] {
            #expect(moves.contains(move), "no \(move) in \(moves.sorted())")
        }
        #expect(shields > 0)
        #expect(lengths.min() == 30 && lengths.max() == 90)
        #expect(closes.contains(LocalTime(hour: 23, minute: 59)) && closes.contains(LocalTime(hour: 18, minute: 0)))
    }

    /// What shrinking must lower: the days, how plain they are, the start counters, the start streak.
    func size(_ h: PressureHistory) -> [Int] {
        let days = h.days.map { day in
            (day.result == .missed ? 2 : day.result == .no ? 1 : 0) + (day.shieldUsed ? 1 : 0)
                + (day.open == HistoryGenerator.defaultOpen && day.close == HistoryGenerator.defaultClose ? 0 : 1)
        }
        return [h.days.count, days.reduce(0, +), h.counters.tier + h.counters.misses + h.counters.successes,
                h.streak.current + h.streak.longest]
    }

    /// Every candidate is smaller in one respect and larger in none, so shrinking ends.
    @Test func shrinkingOnlyEverMakesAHistorySmaller() {
        for history in histories(seed: 3, count: 20) {
            let before = size(history)
            for smaller in HistoryGenerator.shrink(history) {
                let after = size(smaller)
                #expect(zip(after, before).allSatisfy(<=) && after != before, "\(after) from \(before)")
                #expect(smaller.streak.longest >= smaller.streak.current)
            }
        }
    }
}
