import RulesModel
import Testing

import RulesSim

/// The chart pieces that `simulate --html` and `--chart` are built from, and that compare and
/// sweep reports will reuse: the time axis (dates, ISO weeks, weekends) and interval bands.
@Suite struct ChartTests {
    /// 2026-01-07 is a Wednesday: 12 days are Wed–Sun, a whole week, then Mon–Tue.
    @Test func aWeeklyAxisGroupsTheDaysByISOWeek() throws {
        let axis = TimeAxis(start: try DayID("2026-01-07"), days: 14, weekly: true)
        #expect(axis.groups == [0..<5, 5..<12, 12..<14])
        #expect(axis.isWeekly && axis.weekends().isEmpty)
        #expect(axis.aggregate((0..<14).map(Double.init)) == [2, 8, 12.5])
        #expect(axis.position(ofPoint: 0) == 2.5)
        // Daily, the same days: a point each, and the two weekends shaded.
        let daily = TimeAxis(start: try DayID("2026-01-07"), days: 14)
        #expect(!daily.isWeekly && daily.groups.count == 14)
        #expect(daily.weekends() == [3..<5, 10..<12])
        // Over 60 days the axis is weekly unless told.
        #expect(TimeAxis(start: try DayID("2026-01-07"), days: 61).isWeekly)
        #expect(!TimeAxis(start: try DayID("2026-01-07"), days: 60).isWeekly)
    }

    @Test func ticksAreDatesWithTheYearOnceAndAtEachNewYear() throws {
        let short = TimeAxis(start: try DayID("2025-12-30"), days: 4).ticks().map(\.label)
        #expect(short == ["30 Dec 2025", "31 Dec", "1 Jan 2026", "2 Jan"])
        let weeks = TimeAxis(start: try DayID("2026-01-07"), days: 30).ticks()
        #expect(weeks.map(\.day) == [5, 12, 19, 26] && weeks[0].label == "12 Jan 2026")
        let years = TimeAxis(start: try DayID("2026-01-05"), days: 3650).ticks().map(\.label)
        #expect(years == (2027...2036).map(String.init))
    }

    /// A series with an interval draws its band under its line and carries both bounds.
    @Test func aSeriesWithAnIntervalDrawsAndCarriesItsBand() throws {
        let axis = TimeAxis(start: try DayID("2026-01-05"), days: 3)
        let series = ChartSeries(
            key: "yes", name: "YES", color: "#2e7d32", values: [50, 60, 55], low: [45, 52.25, 50], high: [55, 68, 60])
        let svg = LineChart(title: "t", unit: "%", axis: axis, series: [series], maxValue: 100).svg()
        let lines = svg.split(separator: "\n")
        let band = try #require(
            lines.firstIndex { $0.hasPrefix("<polygon data-band=\"yes\" data-low=\"45 52.25 50\" data-high=\"55 68 60\"") })
        let line = try #require(lines.firstIndex { $0.hasPrefix("<polyline data-series=\"yes\" data-values=\"50 60 55\"") })
        #expect(band < line)
        // Without bounds, no band.
        let plain = LineChart(
            title: "t", unit: "%", axis: axis, series: [ChartSeries(key: "a", name: "a", color: "#000", values: [1, 2, 3])]
        ).svg()
        #expect(!plain.contains("<polygon"))
        // Mapped to weekly means, the bounds are mapped too.
        let weekly = series.mapped { TimeAxis(start: axis.start, days: 3, weekly: true).aggregate($0) }
        #expect(weekly.values == [55] && abs((weekly.low?.first ?? 0) - 147.25 / 3) < 1e-9 && weekly.high == [61])
    }

    /// One axis, one number of decimals: the fewest that write its step (never `0.1, 0.2, 0.30`).
    @Test func tickLabelsOfAnAxisShareOneNumberOfDecimals() {
        #expect(TickLabels.axis(top: 0.4, steps: 4).map(\.label) == ["0.0", "0.1", "0.2", "0.3", "0.4"])
        #expect(TickLabels.axis(top: 2, steps: 4).map(\.label) == ["0.0", "0.5", "1.0", "1.5", "2.0"])
        #expect(TickLabels.axis(top: 100, steps: 4).map(\.label) == ["0", "25", "50", "75", "100"])
        #expect(TickLabels.axis(top: 0.05, steps: 5).map(\.label) == ["0.00", "0.01", "0.02", "0.03", "0.04", "0.05"])
        #expect(TickLabels.axis(top: 1e-6, steps: 4).map(\.label).allSatisfy { $0.count == 6 })
        #expect(TickLabels.decimals(step: 0.25) == 2 && TickLabels.decimals(step: 0.1 + 0.2) == 1 && TickLabels.decimals(step: 20) == 0)
        // Signed, with a suffix (a relative change's axis), and no `-0`.
        #expect(TickLabels.labels([-50, -25, 0, 25, 50], step: 25, suffix: "%", signed: true) == ["-50%", "-25%", "0%", "+25%", "+50%"])
        #expect(TickLabels.labels([-0.00001, 1e300], step: 0.5) == ["0.0", "1e+300"])
        // Every y axis of a chart: the labels of its grid share their decimals.
        let axis = TimeAxis(start: SimulationConfig.defaultStart, days: 3)
        let svg = LineChart(
            title: "t", unit: "u", axis: axis, series: [ChartSeries(key: "a", name: "a", color: "#000", values: [0.1, 0.3, 0.38])]
        ).svg()
        let labels = svg.split(separator: "\n").filter { $0.contains("text-anchor=\"end\" dominant-baseline=\"middle\"") }
            .map { $0.split(separator: ">")[1].split(separator: "<")[0] }
        #expect(labels == ["0.0", "0.1", "0.2", "0.3", "0.4"])
    }
}
