import Foundation

/// A number with its gradient (forward-mode automatic differentiation) over at most 16
/// parameters: what a likelihood written once gives its exact derivatives through
/// (``AnswerFit``'s, a sum over looks no closed-form gradient is worth writing twice).
struct Dual: Sendable {
    var v: Double
    var g: SIMD16<Double>

    init(_ v: Double, _ g: SIMD16<Double> = .zero) { (self.v, self.g) = (v, g) }

    /// Parameter `index` at value `v` (its own derivative 1).
    init(_ v: Double, parameter index: Int) {
        var g = SIMD16<Double>.zero
        g[index] = 1
        self.init(v, g)
    }

    static func + (a: Dual, b: Dual) -> Dual { Dual(a.v + b.v, a.g + b.g) }
    static func - (a: Dual, b: Dual) -> Dual { Dual(a.v - b.v, a.g - b.g) }
    static func * (a: Dual, b: Dual) -> Dual { Dual(a.v * b.v, a.g * b.v + b.g * a.v) }
    static func + (a: Dual, b: Double) -> Dual { Dual(a.v + b, a.g) }
    static func - (a: Double, b: Dual) -> Dual { Dual(a - b.v, -b.g) }
    static func * (a: Dual, b: Double) -> Dual { Dual(a.v * b, a.g * b) }
    static func += (a: inout Dual, b: Dual) { a = a + b }
    static func *= (a: inout Dual, b: Dual) { a = a * b }

    /// 1 / (1 + e^−x).
    static func sigmoid(_ x: Dual) -> Dual {
        let s = 1 / (1 + exp(-x.v))
        return Dual(s, x.g * (s * (1 - s)))
    }

    static func log(_ x: Dual) -> Dual { Dual(Foundation.log(x.v), x.g * (1 / x.v)) }
}
