import Foundation
import Testing

/// `rulesrun fit --shard i/n` and `fit --merge` (docs/fit.md, "Shards"): the shards' statistics
/// merged, in any order, give the unsharded fit byte for byte (text, JSON, persona files), with the
/// checks and the segments; shards that do not make one fit are refused, naming the file and what
/// differs.
@Suite struct FitShardTests {
    /// A log of 140 habit-tracker users of two kinds (FitCommandTests' personas), 14 days.
    static func log() throws -> URL {
        let dir = try CLI.folder([
            "keen.lua": FitCommandTests.habitPersona("read", 0.9, 0.005), "casual.lua": FitCommandTests.habitPersona("read", 0.4, 0.04),
        ])
        let simulated = try CLI.run(
            [
                "simulate", "14d", "--users", "140", "--no-db", "--events", "log.jsonl", "--persona", "keen.lua:50,casual.lua:50", "--seed",
                "2",
            ],
            in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        return dir
    }

    static func text(_ dir: URL, _ file: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
    }

    /// For each option set (the users' observations pooled in the shards; kept per user for the
    /// segments, with both checks): the fit from n = 1 and 3 shards (given last first) is the whole
    /// log's fit, its JSON, its table (n = 3), its standard error and its persona files, byte for byte.
    @Test(arguments: [[], ["--segments", "2", "--check", "users:20,days:3"]])
    func theShardsMergeIntoTheWholeLogsFit(_ options: [String]) throws {
        let dir = try Self.log()
        let fit = ["fit", "log.jsonl", "--persona", "keen.lua"] + options
        let whole = try CLI.run(fit + ["--format", "json", "--out", "whole.lua"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        let table = try CLI.run(fit, in: dir)
        #expect(table.status == 0, "\(table.stderr)")
        let personas = options.contains("--segments") ? ["-1.lua", "-2.lua"] : [".lua"]
        for n in [1, 3] {
            var shards: [String] = []
            for i in 1...n {
                let shard = try CLI.run(fit + ["--shard", "\(i)/\(n)", "--format", "json", "--out", "s\(i)of\(n).json"], in: dir)
                #expect(shard.status == 0, "\(shard.stderr)")
                shards.insert("s\(i)of\(n).json", at: 0)
            }
            let merged = try CLI.run(fit + ["--format", "json", "--out", "merged\(n).lua", "--merge"] + shards, in: dir)
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout == whole.stdout, "n = \(n)")
            #expect(merged.stderr == whole.stderr.replacingOccurrences(of: "whole", with: "merged\(n)"), "n = \(n)")
            for suffix in personas {
                #expect(try Self.text(dir, "merged\(n)" + suffix) == Self.text(dir, "whole" + suffix), "n = \(n): \(suffix)")
            }
            if n == 3 {
                let mergedTable = try CLI.run(fit + ["--merge"] + shards, in: dir)
                #expect(mergedTable.stdout == table.stdout)
            }
        }
    }

    /// Pressure's commitments and check-ins, Earned's habits and the unlocks by hour (60 `steady`
    /// users over 8 days, both checks): two shards give the whole fit's JSON and persona, byte for byte.
    @Test func everyResponsesStatisticsMerge() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(
            ["simulate", "8d", "--users", "60", "--no-db", "--events", "log.jsonl", "--persona", "steady"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fit = ["fit", "log.jsonl", "--persona", "steady", "--check", "users:20,days:2", "--format", "json"]
        let whole = try CLI.run(fit + ["--out", "whole.lua"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        let report = try FitCommandTests.object(whole.stdout)
        #expect(report["answers"] != nil && FitCommandTests.section(report, "commit") != nil, "\(report.keys)")
        #expect(FitCommandTests.section(report, "earning") != nil)
        for i in 1...2 {
            let shard = try CLI.run(fit + ["--shard", "\(i)/2", "--out", "s\(i).json"], in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(fit + ["--out", "merged.lua", "--merge", "s2.json", "s1.json"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        #expect(try Self.text(dir, "merged.lua") == Self.text(dir, "whole.lua"))
    }

    /// A log that contradicts the rules (users whose events the rules refuse, events out of order,
    /// a line that is no event, a user without a whole day), in three shards: the counts and the
    /// examples shown are the whole log's first, in its order.
    @Test func theExamplesOfWhatTheLogCannotGiveAreTheWholeLogs() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(
            ["simulate", "6d", "--users", "40", "--no-db", "--events", "log.jsonl", "--persona", "steady", "--start", "2026-03-02"], in: dir
        )
        #expect(simulated.status == 0, "\(simulated.stderr)")
        var lines = try Self.text(dir, "log.jsonl").split(separator: "\n").map(String.init)
        // Eight intruders, each one's lines spread through the log (its first the earlier, the further on).
        for k in 0..<8 {
            let user = "intruder\(k)"
            let events = [
                #"{"at":"2026-03-03T07:00:0\#(k)Z","user":"\#(user)","type":"settings","timezone":"UTC"}"#,
                #"{"at":"2026-03-03T12:00:0\#(k)Z","user":"\#(user)","type":"check_in","result":"YES"}"#,
                #"{"at":"2026-03-03T13:00:0\#(k)Z","user":"\#(user)","type":"habit_completion","task":"juggle"}"#,
                #"{"at":"2026-03-03T11:00:0\#(k)Z","user":"\#(user)","type":"habit_completion","task":"juggle"}"#,
            ]
            for (j, event) in events.enumerated() { lines.insert(event, at: min(lines.count, 40 + 97 * k + 131 * j)) }
        }
        lines.insert("{not json", at: 5)
        lines.insert(#"{"at":"2026-03-07T23:00:00Z","user":"late","type":"settings","timezone":"UTC"}"#, at: 60)
        try (lines.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("log.jsonl"), atomically: true, encoding: .utf8)
        let fit = ["fit", "log.jsonl", "--persona", "steady", "--check", "users:30"]
        let whole = try CLI.run(fit, in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("events the rules refused"), "\(whole.stdout)")
        #expect(whole.stderr.contains("events out of order"), "\(whole.stderr)")
        for i in 1...3 {
            let shard = try CLI.run(fit + ["--shard", "\(i)/3", "--format", "json", "--out", "s\(i).json"], in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(fit + ["--merge", "s2.json", "s3.json", "s1.json"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        #expect(merged.stderr == whole.stderr)
    }

    /// A database of rulesrun read as its log: the default cohort's (every app, paid users,
    /// Earned) gives the fit its log gives, and in three shards the unsharded one.
    @Test func aDatabaseIsFittedByShardsToo() throws {
        let dir = try CLI.folder([:])
        let simulated = try CLI.run(
            ["simulate", "6d", "--users", "60", "--db", "log.sqlite", "--events", "log.jsonl", "--seed", "4"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fit = ["fit", "log.sqlite", "--persona", "steady"]
        let whole = try CLI.run(fit, in: dir)
        #expect(whole.status == 0 && whole.stderr.isEmpty, "\(whole.stderr)")
        #expect(whole.stdout.hasPrefix("fit log.sqlite: rules @default; 60 users replayed\n"), "\(whole.stdout)")
        let fromLog = try CLI.run(["fit", "log.jsonl", "--persona", "steady"], in: dir)
        #expect(fromLog.stdout.replacingOccurrences(of: "fit log.jsonl:", with: "fit log.sqlite:") == whole.stdout)
        for i in 1...3 {
            let shard = try CLI.run(fit + ["--shard", "\(i)/3", "--format", "json", "--out", "s\(i).json"], in: dir)
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let merged = try CLI.run(fit + ["--merge", "s3.json", "s1.json", "s2.json"], in: dir)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        #expect(merged.stderr == whole.stderr)
    }

    /// Shards that do not make one fit: a shard missing, one given twice, one of another log, one
    /// made with other options than the merge's, a file that is no shard; and the options a shard
    /// cannot take.
    @Test func shardsThatDoNotMakeOneFitAreRefused() throws {
        let dir = try CLI.folder([:])
        for (log, seed) in [("log.jsonl", "1"), ("other.jsonl", "2")] {
            let simulated = try CLI.run(
                ["simulate", "5d", "--users", "30", "--no-db", "--events", log, "--persona", "steady", "--seed", seed], in: dir)
            #expect(simulated.status == 0, "\(simulated.stderr)")
        }
        let fit = ["fit", "log.jsonl", "--persona", "steady"]
        for i in 1...2 {
            #expect(try CLI.run(fit + ["--shard", "\(i)/2", "--format", "json", "--out", "s\(i).json"], in: dir).status == 0)
        }
        #expect(try CLI.run(fit + ["--shard", "2/2", "--format", "json", "--seed", "7", "--out", "seed.json"], in: dir).status == 0)
        #expect(try CLI.run(fit + ["--shard", "2/2", "--format", "json", "--check", "days:2", "--out", "days.json"], in: dir).status == 0)
        // The same name, another log.
        try FileManager.default.moveItem(at: dir.appendingPathComponent("log.jsonl"), to: dir.appendingPathComponent("first.jsonl"))
        try FileManager.default.moveItem(at: dir.appendingPathComponent("other.jsonl"), to: dir.appendingPathComponent("log.jsonl"))
        #expect(try CLI.run(fit + ["--shard", "2/2", "--format", "json", "--out", "other.json"], in: dir).status == 0)
        // A shard whose counts no shard can have.
        let s2 = try Self.text(dir, "s2.json")
        try s2.replacingOccurrences(of: #""users":"#, with: #""users":-"#)
            .write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        // A shard of another version (its members laid out otherwise).
        try s2.replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
            .write(to: dir.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        let cases: [(shards: [String], options: [String], message: String)] = [
            (["s1.json", "bad.json"], [], "bad.json: users: expected a whole number from 0 to"),
            (["s1.json", "old.json"], [], "old.json: version: expected 2 (a shard of this version of rulesrun)"),
            (["s1.json"], [], "shards 2/2 are missing: give every shard's report"),
            (["s1.json", "s2.json", "s2.json"], [], "s2.json and s2.json are both shard 2/2"),
            (["s1.json", "other.json"], [], "other.json: log "),
            (["s1.json", "seed.json"], [], #"seed.json: seed "7", but this fit's is "1""#),
            (["s1.json", "s2.json"], ["--check", "days:2"], #"s1.json: check "", but this fit's is "days:2""#),
            (["s1.json", "first.jsonl"], [], "first.jsonl: not a shard of rulesrun fit --shard i/n --format json"),
        ]
        for (shards, options, message) in cases {
            let merged = try CLI.run(fit + options + ["--merge"] + shards, in: dir)
            #expect(merged.status != 0, "\(shards)")
            #expect(merged.stderr.contains(message), "\(shards): \(merged.stderr)")
        }
        let merge = try CLI.run(["merge", "s1.json", "s2.json"], in: dir)
        #expect(merge.status != 0)
        #expect(merge.stderr.contains("s1.json is a shard of rulesrun fit: fit the log from its shards with rulesrun fit LOG --merge"))
        let table = try CLI.run(fit + ["--shard", "1/2"], in: dir)
        #expect(table.stderr.contains("--shard 1/2 writes the shard's statistics for fit --merge: add --format json"), "\(table.stderr)")
        let html = try CLI.run(fit + ["--shard", "1/2", "--format", "json", "--html", "x.html"], in: dir)
        #expect(html.stderr.contains("--html is for the whole log's fit"), "\(html.stderr)")
    }
}
