import Foundation
import RulesSim

/// One figure of a simulation's summary that `rulesrun watch --simulate` prints at each cycle,
/// with its change since the last good version (`YES rate  61.2 %  (+1.3)`).
struct WatchMetric: Equatable {
    let name: String
    let value: Double
    /// Digits after the point (0 for counts).
    let decimals: Int
    /// `%` for a rate (shown ×100).
    let unit: String

    /// The figures of a report's summary (``MetricRegistry/watch``; the Earned ones when the cohort
    /// has Earned users): a share in percent with 1 decimal, a count as a whole number.
    static func of(_ report: SimulationReport) -> [WatchMetric] {
        let s = ReportSummary(report)
        return MetricRegistry.only(MetricRegistry.watch, apps: Metric.apps(of: s), days: s.days).map { m in
            WatchMetric(
                name: m.label, value: m.isShare ? m.value(s) * 100 : m.value(s), decimals: m.unit.decimals,
                unit: m.isShare ? " %" : "")
        }
    }

    var formatted: String { String(format: "%.\(decimals)f", value) + unit }

    /// `name  value  (+delta)` against `previous` (the same figure of the last good version), or
    /// `(=)` when it did not change; `name  value` without one.
    func line(against previous: WatchMetric?, nameWidth: Int) -> String {
        var out = name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + formatted
        guard let previous else { return out }
        let delta = value - previous.value
        let shown = String(format: "%+.\(decimals)f", delta)
        // A change too small for the digits shown is still a change: say so rather than "+0.0".
        if delta == 0 {
            out += "  (=)"
        } else if Double(shown) == 0 {
            out +=
                delta > 0
                ? "  (+ less than \(String(format: "%.\(decimals)f", pow(10, -Double(decimals)))))"
                : "  (- less than \(String(format: "%.\(decimals)f", pow(10, -Double(decimals)))))"
        } else {
            out += "  (\(shown)\(unit == " %" ? " pts" : ""))"
        }
        return out
    }
}
