import RulesStore

/// The random numbers of one simulated user: a SplitMix64 stream seeded from (seed, user index),
/// so a user draws the same numbers whichever worker, shard or job count runs it.
struct SimRandom {
    private var generator: SeededGenerator

    init(seed: UInt64, user: Int) {
        generator = SeededGenerator(seed: seed, UInt64(user), 0x5349_4D55_4C41_5445)
    }

    /// A double in [0, 1) from the top 53 bits (the same on every platform).
    mutating func unit() -> Double { Double(generator.next() >> 11) * 0x1p-53 }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// An integer in `low...high`.
    mutating func int(_ low: Int, _ high: Int) -> Int {
        guard high > low else { return low }
        return low + Int(generator.next() % UInt64(high - low + 1))
    }
}
