import Foundation
import RulesModel

/// The labels of an axis's ticks, evenly spaced by a step: one number of decimals for the whole
/// axis, the fewest that write the step exactly (`0, 0.1, 0.2, 0.3, 0.4`; `0.0, 0.5, 1.0, 1.5`;
/// `0, 25, 50`), at most 4; a value past 2^53 or not finite as Swift writes it (`1e+300`).
package enum TickLabels {
    /// The decimals that write `step` exactly (to within rounding), 0 to 4.
    package static func decimals(step: Double) -> Int {
        guard step.isFinite, step != 0 else { return 0 }
        for d in 0..<4 {
            let scaled = abs(step) * pow(10, Double(d))
            if abs(scaled - scaled.rounded()) < 1e-9 * max(1, scaled) { return d }
        }
        return 4
    }

    /// The labels of `values`, ticks `step` apart, with one number of decimals; `suffix` after each
    /// (e.g. `%`), a `+` before the positive ones when `signed`.
    package static func labels(_ values: [Double], step: Double, suffix: String = "", signed: Bool = false) -> [String] {
        let d = decimals(step: step)
        return values.map { v in
            guard v.isFinite, abs(v) < WholeNumber.maxExact else { return String(v) + suffix }
            var text = String(format: "%.\(d)f", v)
            if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { text.removeFirst() }
            return (signed && v > 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "+" : "") + text + suffix
        }
    }

    /// The ticks from 0 to `top` in `steps` equal steps, labelled.
    package static func axis(top: Double, steps: Int) -> [(value: Double, label: String)] {
        let n = max(1, steps)
        let values = (0...n).map { top * Double($0) / Double(n) }
        return Array(zip(values, labels(values, step: top / Double(n))))
    }
}
