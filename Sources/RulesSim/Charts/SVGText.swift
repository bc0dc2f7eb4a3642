import Foundation
import RulesModel

/// Text and numbers as SVG and HTML hold them.
package enum SVGText {
    /// Markup characters escaped, and the characters XML 1.0 cannot hold at all (a path may have
    /// them: control characters, the noncharacters U+FFFE and U+FFFF) shown as U+FFFD.
    package static func escape(_ s: String) -> String {
        let allowed = String(
            String.UnicodeScalarView(
                s.unicodeScalars.map { scalar in
                    (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE
                        || scalar.value == 0xFFFF ? "\u{FFFD}" : scalar
                }))
        return allowed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A coordinate: one decimal.
    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    /// A value as `data-values` carries it: at most 4 decimals, no trailing zeros (`12.5`, `3`).
    package static func value(_ v: Double) -> String {
        guard v.isFinite else { return "NaN" }
        var text = String(format: "%.4f", v)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// 1, 2, 4, 5 × 10^k at or above `v` (1 for 0 or less).
    static func niceCeiling(_ v: Double) -> Double {
        guard v > 0, v.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(v)))
        for m in [1.0, 2, 4, 5, 10] where m * magnitude >= v * (1 - 1e-12) { return m * magnitude }
        return 10 * magnitude
    }
}
