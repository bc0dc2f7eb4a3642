import Foundation
import PropertyBased
import RulesModel
import RulesSim

/// PropertyBased generators whose cases come from the library's seeded generators, reproducible
/// from a fixed seed whatever the number of cases.
///
/// `propertyCheck` draws every case from a fresh, system-seeded random source, and its `.fixedSeed`
/// trait runs a single case and always records an issue (it is meant for replaying one failure,
/// not for committing). A generator made here ignores the random source `propertyCheck` hands it:
/// case `k` of seed `s` is drawn from its own `SeededGenerator` (SplitMix64) seeded from `(s, k)` —
/// for histories, `HistoryGenerator.history(case:)`, the same histories `rulesrun compare` walks. The
/// cases are therefore the same on every run, and a failure is replayed by running the test again.
/// Shrinking is the library's (`HistoryGenerator.shrink`), and a failing history test prints its
/// replay file (`ReplayScript.failureReport`).
///
/// Each generator instance numbers its own cases, so make one per `propertyCheck` call.
enum SeededCases {
    /// A generator whose case `k` is `draw(&rng, k)` with `rng` seeded from `(seed, k)`. `shrink`
    /// returns candidates strictly smaller than its argument, most shrunk first.
    static func make<Value: Sendable>(
        seed: UInt64,
        draw: @Sendable @escaping (inout SeededGenerator, _ caseNumber: Int) -> Value,
        shrink: @Sendable @escaping (Value) -> [Value]
    ) -> Generator<Value, [Value]> {
        let counter = CaseCounter()
        return Generator(
            run: { _ in
                let k = counter.next()
                var rng = SeededGenerator(seed: seed, UInt64(k), 0)
                return draw(&rng, k)
            },
            shrink: { shrink($0) })
    }

    /// The histories of a `HistoryGenerator`, case after case, shrunk by `HistoryGenerator.shrink`.
    static func histories(_ generator: HistoryGenerator) -> Generator<PressureHistory, [PressureHistory]> {
        let counter = CaseCounter()
        return Generator(run: { _ in generator.history(case: counter.next()) }, shrink: { Array(HistoryGenerator.shrink($0)) })
    }

    /// PropertyBased's `.fixedSeed` hint does not apply to seeded generators.
    static func replayNote(seed: UInt64) -> String {
        "The cases of this test are fixed by its seed \(seed): running it again reproduces this failure "
            + "(PropertyBased's `.fixedSeed` hint below does not apply)."
    }

    /// Hands out case numbers 0, 1, 2, … to one generator.
    private final class CaseCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count - 1
        }
    }
}
