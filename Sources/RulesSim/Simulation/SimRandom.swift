import RulesModel

/// The random numbers of one simulated user: a SplitMix64 stream seeded from (seed, user key: its
/// id − 1), so a user draws the same numbers whichever worker, shard or job count runs it.
struct SimRandom {
    private var generator: SeededGenerator

    /// Pressure's stream ("SIMULATE").
    static let main: UInt64 = 0x5349_4D55_4C41_5445
    /// The habit tracker's ("HABITS") and MIGA's ("MIGA"): a change to Pressure's rules changes how
    /// many draws Pressure makes, and must leave the other apps' days as they are.
    static let habits: UInt64 = 0x4841_4249_5453
    static let miga: UInt64 = 0x4D49_4741
    /// Earned's own streams, so that what Earned's rules decide leaves the user's other draws as
    /// they are: what the user plans to do each day ("EARNED": habits, focus sessions, urges), and
    /// how it reacts to what the gate offers ("GATE": choices, quests, delays), which depends on
    /// the rules and so would shift the draws after it.
    static let earned: UInt64 = 0x4541_524E_4544
    static let gate: UInt64 = 0x4741_5445
    /// Whether the user leaves at the end of a day ("LEAVE"), apart from every other draw.
    static let leave: UInt64 = 0x4C45_4156_45

    init(seed: UInt64, user: Int, stream: UInt64 = SimRandom.main) {
        generator = SeededGenerator(seed: seed, UInt64(user), stream)
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
