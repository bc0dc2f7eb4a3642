import Foundation

/// SplitMix64: a small, fast, seeded random number generator, so that synthetic data is the
/// same for the same seed on every machine.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// A generator for one (seed, a, b) triple, e.g. one user and one day.
    package init(seed: UInt64, _ a: UInt64, _ b: UInt64) {
        var mixer = SeededGenerator(seed: seed ^ (a &* 0x9E37_79B9_7F4A_7C15) ^ (b &* 0xC2B2_AE3D_27D4_EB4F))
        state = mixer.next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A version-4 UUID from the generator.
    package mutating func uuid() -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
