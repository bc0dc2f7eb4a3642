import Foundation

/// An SVG chart of a report's main series over the days: the share of users on each tier and the
/// day's YES rate (top panel, percent), the current-streak median and 90th percentile and the
/// reminders per user (bottom panel), a line per series (a dot when there is one day). Plain SVG
/// 1.1 that any browser renders.
public struct SVGChart {
    public let report: SimulationReport

    public init(_ report: SimulationReport) { self.report = report }

    private let width = 960.0, left = 60.0, right = 170.0
    private let topY = 80.0, panelHeight = 220.0, gap = 60.0

    public func svg() -> String {
        let days = report.days
        let n = max(1, days.count - 1)
        let plotWidth = width - left - right
        let height = topY + panelHeight * 2 + gap + 50
        func x(_ i: Int) -> Double { left + plotWidth * Double(i) / Double(n) }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(Int(left))" y="24" font-size="16" font-weight="bold">\(Self.escape("rulesrun simulate \(report.run.duration): \(report.userCount) users, rules \(report.run.rules) (\(report.run.engine))"))</text>
            <text x="\(Int(left))" y="40" fill="#555">\(Self.escape("personas \(report.run.personas), seed \(report.run.seed), from \(report.run.start)"))</text>

            """
        // Top panel: shares in percent.
        let shares: [(String, String, [Double])] = [
            ("tier 0", "#2e7d32", days.map { share($0.tiers[0], $0.users) }),
            ("tier 1", "#f9a825", days.map { share($0.tiers[1], $0.users) }),
            ("tier 2", "#ef6c00", days.map { share($0.tiers[2], $0.users) }),
            ("tier 3", "#c62828", days.map { share($0.tiers[3], $0.users) }),
            ("YES rate", "#1565c0", days.map { share($0.yes, $0.yes + $0.no + $0.missed) }),
        ]
        out += panel(
            top: topY, title: "users on each tier, and the day's YES rate (%)", maxValue: 100, series: shares, x: x, days: days.count)
        // Bottom panel: streak percentiles and reminders per user.
        let p50 = days.map { Double($0.streakPercentile(50)) }, p90 = days.map { Double($0.streakPercentile(90)) }
        let reminders = days.map { $0.users == 0 ? 0 : Double($0.reminders) / Double($0.users) }
        let top = max(1, (p90 + reminders).max() ?? 1)
        let niceMax = Self.niceCeiling(top)
        out += panel(
            top: topY + panelHeight + gap, title: "current streak (days) and reminders per user",
            maxValue: niceMax,
            series: [("streak p50", "#6a1b9a", p50), ("streak p90", "#ab47bc", p90), ("reminders / user", "#00838f", reminders)],
            x: x, days: days.count)
        out += "</svg>\n"
        return out
    }

    private func share(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : 100 * Double(part) / Double(whole) }

    private func panel(
        top: Double, title: String, maxValue: Double, series: [(String, String, [Double])],
        x: (Int) -> Double, days: Int
    ) -> String {
        let bottom = top + panelHeight
        func y(_ v: Double) -> Double { bottom - panelHeight * min(max(v, 0), maxValue) / maxValue }
        var out = "<g>\n<text x=\"\(Int(left))\" y=\"\(Int(top - 8))\" font-weight=\"bold\">\(Self.escape(title))</text>\n"
        for k in 0...4 {
            let v = maxValue * Double(k) / 4
            let yy = Self.f(y(v))
            out += "<line x1=\"\(Int(left))\" y1=\"\(yy)\" x2=\"\(Self.f(x(max(1, days - 1))))\" y2=\"\(yy)\" stroke=\"#ddd\"/>\n"
            out +=
                "<text x=\"\(Int(left - 6))\" y=\"\(yy)\" text-anchor=\"end\" dominant-baseline=\"middle\" fill=\"#555\">\(Self.label(v))</text>\n"
        }
        let step = max(1, days / 10)
        for i in stride(from: 0, to: days, by: step) {
            out += "<text x=\"\(Self.f(x(i)))\" y=\"\(Int(bottom + 16))\" text-anchor=\"middle\" fill=\"#555\">\(i + 1)</text>\n"
        }
        out += "<text x=\"\(Self.f(x(max(1, days - 1))))\" y=\"\(Int(bottom + 32))\" text-anchor=\"end\" fill=\"#555\">day</text>\n"
        out +=
            "<line x1=\"\(Int(left))\" y1=\"\(Int(bottom))\" x2=\"\(Self.f(x(max(1, days - 1))))\" y2=\"\(Int(bottom))\" stroke=\"#999\"/>\n"
        for (index, (name, color, values)) in series.enumerated() {
            let points = values.enumerated().map { "\(Self.f(x($0.offset))),\(Self.f(y($0.element)))" }.joined(separator: " ")
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points)\"/>\n"
            // A line of one point draws nothing: a one-day run's values are dots.
            if values.count == 1 {
                out += "<circle cx=\"\(Self.f(x(0)))\" cy=\"\(Self.f(y(values[0])))\" r=\"4\" fill=\"\(color)\"/>\n"
            }
            let ly = top + 14 + Double(index) * 18
            let lx = width - right + 16
            out +=
                "<line x1=\"\(Self.f(lx))\" y1=\"\(Self.f(ly))\" x2=\"\(Self.f(lx + 18))\" y2=\"\(Self.f(ly))\" stroke=\"\(color)\" stroke-width=\"3\"/>\n"
            out += "<text x=\"\(Self.f(lx + 24))\" y=\"\(Self.f(ly))\" dominant-baseline=\"middle\">\(Self.escape(name))</text>\n"
        }
        return out + "</g>\n"
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    static func label(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.1f", v) }

    /// 1, 2, 5 × 10^k at or above `v`.
    static func niceCeiling(_ v: Double) -> Double {
        let magnitude = pow(10, floor(log10(v)))
        for m in [1.0, 2, 4, 5, 10] where m * magnitude >= v { return m * magnitude }
        return 10 * magnitude
    }

    /// Text for the SVG: markup characters escaped, and the control characters XML 1.0 cannot
    /// hold at all (a path may have them) shown as U+FFFD.
    static func escape(_ s: String) -> String {
        let allowed = String(
            String.UnicodeScalarView(
                s.unicodeScalars.map { scalar in
                    scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" ? "\u{FFFD}" : scalar
                }))
        return allowed.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
