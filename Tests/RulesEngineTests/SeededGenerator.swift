import Foundation
import PropertyBased

/// PropertyBased generators that are reproducible from a fixed seed, whatever the number of cases.
///
/// `propertyCheck` draws every case from a fresh, system-seeded `Xoshiro`, and its `.fixedSeed`
/// trait runs a single case and always records an issue (it is meant for replaying one failure,
/// not for committing). A generator made here ignores the random source `propertyCheck` hands it:
/// case `k` of a generator with seed `s` is drawn from its own `Xoshiro` seeded from `(s, k)`. The
/// cases are therefore the same on every run, on CI and on a laptop, and a failure is replayed by
/// running the test again. Shrinking is unchanged: `propertyCheck` asks the `shrink` function for
/// smaller candidates of a failing value.
///
/// Each generator instance numbers its own cases, so make one per `propertyCheck` call.
enum SeededGenerator {
    /// A generator whose case `k` is `draw(&rng, k)` with `rng` seeded from `(seed, k)`. `shrink`
    /// returns candidates strictly smaller than its argument, most shrunk first.
    static func make<Value: Sendable>(
        seed: UInt64,
        draw: @Sendable @escaping (inout Xoshiro, _ caseNumber: Int) -> Value,
        shrink: @Sendable @escaping (Value) -> [Value]
    ) -> Generator<Value, [Value]> {
        let counter = CaseCounter()
        return Generator(
            run: { _ in
                let k = counter.next()
                var rng = Xoshiro(seed: stream(seed, k))
                return draw(&rng, k)
            },
            shrink: { shrink($0) })
    }

    /// The four words of case `k`'s seed: SplitMix64 from `seed` and `k`, never all zero.
    static func stream(_ seed: UInt64, _ k: Int) -> (UInt64, UInt64, UInt64, UInt64) {
        var state = seed ^ (UInt64(truncatingIfNeeded: k) &* 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (next(), next(), next(), next() | 1)
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
