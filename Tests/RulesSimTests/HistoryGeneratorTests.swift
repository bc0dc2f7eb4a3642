import RulesEngine
import RulesModel
import RulesSim
import Testing

/// The random histories reach the cases where the readings of the escalation document part, so
/// that agreement on them means something; they are the same on every run; shrinking ends.
@Suite struct HistoryGeneratorTests {
    func histories(seed: UInt64, count: Int, freshStart: Bool = false) -> [PressureHistory] {
        let generator = HistoryGenerator(seed: seed, freshStart: freshStart)
        return (0..<count).map { generator.history(case: $0) }
    }

    @Test func theSameSeedGivesTheSameHistories() {
        #expect(histories(seed: 7, count: 20) == histories(seed: 7, count: 20))
        #expect(histories(seed: 7, count: 20) != histories(seed: 8, count: 20))
        #expect(histories(seed: 7, count: 20, freshStart: true).allSatisfy { $0.startsFresh })
    }

    @Test func historiesReachEveryTierAndEveryWayOfLeavingOne() throws {
        let native = NativeReference()
        var tiers = Set<Int>(), moves = Set<String>(), lengths = Set<Int>(), closes = Set<LocalTime>()
        var shields = 0, uncommitted = 0, monthStarts = 0
        for history in histories(seed: 0x5EED_0001, count: 300) {
            lengths.insert(history.days.count)
            var walker = HistoryWalker(native, from: history)
            for (i, day) in history.days.enumerated() {
                let outcome = try walker.step(day)
                tiers.insert(outcome.tier)
                closes.insert(day.close)
                if day.shieldUsed { shields += 1 }
                if !day.committed { uncommitted += 1 }
                if history.date(ofDay: i + 1).day == 1 { monthStarts += 1 }
                if outcome.transition.tier != outcome.tier {
                    moves.insert("\(outcome.tier)→\(outcome.transition.tier) \(day.result == .yes ? "YES" : "miss")")
                }
            }
        }
        #expect(tiers == [0, 1, 2, 3])
        // Recovery straight to 0 from every tier, and a miss after a YES lowering tier 2 or 3 to 1.
        for move in ["1→0 YES", "2→0 YES", "3→0 YES", "0→1 miss", "1→2 miss", "2→3 miss", "2→1 miss", "3→1 miss"] {
            #expect(moves.contains(move), "no \(move) in \(moves.sorted())")
        }
        #expect(shields > 0 && uncommitted > 0 && monthStarts > 0)
        #expect(lengths.min() == 30 && lengths.max() == 90)
        #expect(closes.contains(LocalTime(hour: 23, minute: 59)) && closes.contains(LocalTime(hour: 18, minute: 0)))
    }

    /// Every candidate is smaller in the order shrinking descends, so shrinking ends.
    @Test func shrinkingOnlyEverMakesAHistorySmaller() {
        for history in histories(seed: 3, count: 20) {
            let before = HistoryGenerator.size(of: history)
            for smaller in HistoryGenerator.shrink(history) {
                let after = HistoryGenerator.size(of: smaller)
                #expect(after.lexicographicallyPrecedes(before), "\(after) from \(before)")
                #expect(smaller.streak.longest >= smaller.streak.current)
            }
        }
    }

    /// The greedy shrinker reaches a history from which no candidate still shows the property.
    @Test func theShrinkerStopsAtAMinimalHistory() {
        let history = histories(seed: 11, count: 1, freshStart: true)[0]
        let showsTwoNoDays: (PressureHistory) -> Bool = { $0.days.filter { $0.result == .no }.count >= 2 }
        guard showsTwoNoDays(history) else { return }
        let shrunk = Shrinker<PressureHistory>(candidates: { HistoryGenerator.shrink($0) }).shrink(history, while: showsTwoNoDays).value
        #expect(shrunk.days == [PressureHistory.Day(.no), PressureHistory.Day(.no)], "\(shrunk)")
    }

    /// Candidates are built as they are read: a history of n days has about 6n candidates of n days
    /// each, and building them all at once took memory growing with n² (24 GB for 100,000 days).
    @Test func shrinkCandidatesAreBuiltOneAtATime() {
        let counter = Counter()
        let candidates = Array(0..<1_000).shrinkCandidates { n in
            counter.count += 1
            return n > 0 ? [0] : []
        }
        let iterator = candidates.makeIterator()
        #expect(iterator.next() == [])  // the shortest prefix first
        #expect(counter.count == 0)  // no element was shrunk to give it
        // The same candidates as before, in the same order.
        #expect(Array([1, 2, 3].shorterCandidates()) == [[], [1], [2, 3], [1, 3], [1, 2]])
        #expect(Array([1, 2].shrinkCandidates(element: { $0 > 0 ? [$0 - 1] : [] })) == [[], [2], [1], [0, 2], [1, 1]])
        let long = HistoryGenerator(seed: 1, days: 3_660...3_660, freshStart: true).history(case: 0)
        #expect(HistoryGenerator.shrink(long).prefix(3).map(\.days.count) == [0, 1, 2])
    }

    final class Counter: @unchecked Sendable { var count = 0 }
}
