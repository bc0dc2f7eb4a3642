import Foundation
import Testing

/// `rulesrun simulate --replicas K`: K cohorts, each metric as a mean with its 95 % interval.
@Suite struct SimulateReplicasTests {
    let run = ["simulate", "5d", "--users", "12", "--no-db"]

    @Test func theReportDoesNotDependOnTheJobsAndGivesEachMetricsInterval() throws {
        let one = try CLI.run(run + ["--replicas", "3", "--format", "json", "--jobs", "1"])
        let two = try CLI.run(run + ["--replicas", "3", "--format", "json", "--jobs", "2"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == two.stdout)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        let run = try #require(report["run"] as? [String: Any])
        #expect(run["replicas"] as? Int == 3 && (run["seeds"] as? [String])?.first == "1")
        let summary = try #require(report["summary"] as? [[String: Any]])
        let tier3 = try #require(summary.first { $0["name"] as? String == "user-days at tier 3" })
        let values = try #require(tier3["values"] as? [Double]), mean = try #require(tier3["mean"] as? Double)
        #expect(values.count == 3 && abs(mean - values.reduce(0, +) / 3) < 1e-4)
        #expect(try #require(tier3["low"] as? Double) <= mean && mean <= (try #require(tier3["high"] as? Double)))
        let days = try #require(report["days"] as? [[String: Any]])
        #expect(days.count == 5 && days[0]["date"] as? String == "2026-01-05")
        #expect((days[4]["tier 3"] as? [String: Any])?["high"] is Double)
        #expect((days[4]["credits earned per user"] as? [String: Any])?["mean"] is Double)
        // Replica 1 is the run without --replicas: its figures are among the values.
        let plain = try CLI.run(self.run + ["--format", "json"])
        let plainReport = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        let userDays = try #require((plainReport["summary"] as? [String: Any])?["user_days_at_tier"] as? [Int])
        #expect(abs(values[0] - Double(userDays[3]) / 60) < 1e-4)
    }

    @Test func theTableAndTheCSVSayWhatTheIntervalIs() throws {
        let table = try CLI.run(run + ["--replicas", "4"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("mean of 4 replicas, 95% interval: Student t with 3 degrees of freedom over the replicas"))
        #expect(table.stdout.contains("  user-days at tier 3 "))
        // The per-day columns have the summary's labels (one label per metric); the CSV and JSON keep their keys.
        let header = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("day  date") })
        #expect(header.contains("user-days at tier 3") && header.contains("reminders per user-day"), "\(header)")
        #expect(header.contains("credits spent per user-day") && !header.contains("per user "), "\(header)")
        let csv = try CLI.run(run + ["--replicas", "2", "--format", "csv"])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "day,date,series,mean,low,high")
        #expect(lines.contains { $0.hasPrefix("5,2026-01-09,tier 3,") })
    }

    @Test func replicasDoNotShardOrWriteADatabase() throws {
        let shard = try CLI.run(["simulate", "5d", "--users", "12", "--replicas", "2", "--shard", "1/2", "--no-db"])
        #expect(shard.status != 0 && shard.stderr.contains("--replicas 2 reports the mean of whole cohorts; leave out --shard"))
        let db = try CLI.run(["simulate", "5d", "--users", "12", "--replicas", "2", "--db", "x.sqlite"])
        #expect(db.status != 0 && db.stderr.contains("leave out --db"))
        let zero = try CLI.run(run + ["--replicas", "0"])
        #expect(zero.status != 0 && zero.stderr.contains("--replicas"))
    }
}
