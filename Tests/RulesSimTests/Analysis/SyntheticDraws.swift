import Foundation
import RulesModel

/// Seeded draws for the analysis' calibration tests (SplitMix64: the same numbers on every machine).
struct SyntheticDraws {
    private var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A double in (0, 1].
    mutating func unit() -> Double { Double((generator.next() >> 11) + 1) * 0x1p-53 }

    /// A standard normal (Box–Muller).
    mutating func normal() -> Double { (-2 * log(unit())).squareRoot() * cos(2 * .pi * unit()) }

    /// A log-normal exp(μ + σ Z).
    mutating func logNormal(mu: Double, sigma: Double) -> Double { exp(mu + sigma * normal()) }

    /// A Poisson count of mean `lambda` (Knuth's product of uniforms; `lambda` below about 50).
    mutating func poisson(_ lambda: Double) -> Int {
        let limit = exp(-lambda)
        var k = 0, product = unit()
        while product > limit {
            k += 1
            product *= unit()
        }
        return k
    }

    /// A binomial count of `n` trials of probability `p`.
    mutating func binomial(_ n: Int, _ p: Double) -> Int { (0..<n).reduce(0) { total, _ in total + (unit() <= p ? 1 : 0) } }

    /// How many of `n` fair coins come up heads (64 coins from each draw's bits).
    mutating func heads(of n: Int) -> Int {
        var left = n, heads = 0
        while left > 0 {
            let bits = generator.next()
            let take = min(64, left)
            heads += (take == 64 ? bits : bits & ((1 << UInt64(take)) - 1)).nonzeroBitCount
            left -= take
        }
        return heads
    }
}

/// Whether `a` is within `relative` of `b` (relative to |b|, or absolutely when b is 0).
func close(_ a: Double, _ b: Double, _ relative: Double = 1e-9) -> Bool {
    abs(a - b) <= relative * max(abs(b), b == 0 ? 1 : 0)
}
