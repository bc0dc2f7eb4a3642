import Foundation
import Testing

@testable import RulesSim

/// Earned's qualifying-day streak as a metric (`earned_streak_p50`, `earned_streak_p90`): each
/// Earned user counted, when its day ends, by the streak the engine's rollover carries out of it.
@Suite struct EarnedStreakMetricTests {
    /// An Earned user whose day qualifies about half the time: one short focus session on some
    /// days, one Earned habit done on some days.
    static let sometimes = """
        return {
          description = "Uses a focus app now and then.",
          apps = { "earned" },
          settings = { timezone = "Europe/Berlin" },
          earned = {
            share = 1,
            apps = { "android:com.instagram.android" },
            habits = { { name = "walk", reward_credits = 10, rate = 0.3 } },
            focus = { sessions_per_day = 0.4, minutes = { 25 }, quit_early = 0, hours = { 8, 21 } },
            urges = { per_day = 2, hours = { 9, 22 } },
          },
        }
        """

    /// Without responses (nobody leaves), every Earned user's day ends: each day counts each Earned
    /// user once; under the default rules (no freeze) a streak outlives only a day that qualified.
    @Test func eachEarnedUserIsCountedByItsStreakWhenItsDayEnds() throws {
        var config = try SimTestSupport.config(days: 6, users: 30, mix: "focus-user:1,steady:1")
        config.responses = false
        let report = try Simulation(config: config).run()
        for (d, day) in report.days.enumerated() {
            #expect(day.earnedStreaks.reduce(0, +) == day.earned.users, "day \(d + 1)")
            #expect(day.earnedStreaks.count <= d + 2, "a streak of at most \(d + 1) days on day \(d + 1)")
            // Users with a streak: those whose day qualified (the focus or habit decision's streak).
            #expect(day.earnedStreaks.dropFirst().reduce(0, +) == day.earned.qualifiedDays, "day \(d + 1)")
        }
        let summary = ReportSummary(report)
        #expect(Metric.earnedStreakP50.value(summary) == Double(report.days.last!.earnedStreakPercentile(50)))
        #expect(Metric.earnedStreakP90.value(summary) >= Metric.earnedStreakP50.value(summary))
        #expect(Metric.earnedStreakP50.value(summary) > 0)
        // A report written before the metric (its days without the histogram) still reads: no streak counted.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        var old = json
        old["days"] = (json["days"] as! [[String: Any]]).map { day in
            day.filter { !["earned_streak_histogram", "earned_streak_p50", "earned_streak_p90"].contains($0.key) }
        }
        let read = try SimulationReport(json: try JSONSerialization.data(withJSONObject: old))
        #expect(read.days.allSatisfy { $0.earnedStreaks.isEmpty })
        try read.validate()
        #expect(try SimulationReport(json: Data(report.json().utf8)).days == report.days)
    }

    /// Streak freezes (examples/earned-freezes: one earned per 3 qualifying days, at most 2 held)
    /// keep the streak over a day that did not qualify: the metric moves, and more users hold a
    /// streak than qualified that day.
    @Test func freezesLengthenTheStreak() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let persona = dir.appendingPathComponent("sometimes.lua").path
        try Self.sometimes.write(toFile: persona, atomically: true, encoding: .utf8)
        let freezes = SimTestSupport.root.appendingPathComponent("examples/earned-freezes").path
        let comparison = try PopulationComparison.run(
            folderA: SimTestSupport.rules, folderB: freezes, users: 200, days: 14, seed: 1, mix: try PersonaMix([persona]),
            personaFolders: [SimTestSupport.personas], responses: false)
        let labels = comparison.metrics.map(\.name)
        #expect(labels.contains(Metric.earnedStreakP50.label) && !labels.contains(Metric.yesRate.label))
        let p90 = try #require(comparison.metrics.first { $0.name == Metric.earnedStreakP90.label })
        #expect(p90.b > p90.a && p90.isSignificant, "A \(p90.a), B \(p90.b), \(String(describing: p90.interval))")
        let series = try #require(comparison.daySeries.first { $0.name == Metric.earnedStreakP90.seriesKey })
        #expect(series.b.last! > series.a.last!)

        var config = try SimTestSupport.config(days: 14, users: 40, mix: persona)
        config.rules = freezes
        config.responses = false
        let report = try Simulation(config: config).run()
        #expect(report.days.contains { $0.earnedStreaks.dropFirst().reduce(0, +) > $0.earned.qualifiedDays })
    }
}
