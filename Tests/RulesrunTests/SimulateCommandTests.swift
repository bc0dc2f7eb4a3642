import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

@Suite struct SimulateCommandTests {
    static let small = ["simulate", "7d", "--users", "16", "--seed", "5"]

    @Test func theReportIsTheSameWhateverTheJobs() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = try CLI.run(Self.small + ["--jobs", "1", "--db", dir.appendingPathComponent("a.sqlite").path])
        let two = try CLI.run(Self.small + ["--jobs", "2", "--db", dir.appendingPathComponent("b.sqlite").path])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == two.stdout)
        #expect(one.stdout.contains("summary"))
        #expect(one.stdout.contains("user-days at tier 0/1/2/3"))
        #expect(one.stdout.contains("Earned users") && one.stdout.contains("denials") && one.stdout.contains("end-of-day balance"))
        #expect(one.stderr.isEmpty)  // no progress bar when stderr is not a terminal
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("a.sqlite").path))
    }

    @Test func shardReportsMergeIntoTheWholeReport() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try CLI.run(Self.small + ["--no-db"])
        var parts: [String] = []
        for i in 1...2 {
            let path = dir.appendingPathComponent("part\(i).json").path
            let shard = try CLI.run(Self.small + ["--no-db", "--shard", "\(i)/2", "--format", "json", "--out", path])
            #expect(shard.status == 0, "\(shard.stderr)")
            parts.append(path)
        }
        let merged = try CLI.run(["merge"] + parts)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let missing = try CLI.run(["merge", parts[0]])
        #expect(missing.status == 2)  // the last shard is missing
        #expect(missing.stderr.contains("users 9–16 of the 16 are in none of the reports"), "\(missing.stderr)")
        let partial = try CLI.run(["merge", parts[1], "--partial"])
        #expect(partial.status == 0)  // one shard alone is a report of its users
        #expect(partial.stdout.contains("users 9–16 of 16"))
    }

    @Test func mergeRefusesReportsWhoseCountsCannotBeRight() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var parts: [URL] = []
        for i in 1...2 {
            let url = dir.appendingPathComponent("part\(i).json")
            #expect(try CLI.run(Self.small + ["--no-db", "--shard", "\(i)/2", "--format", "json", "--out", url.path]).status == 0)
            parts.append(url)
        }
        let text = try String(contentsOf: parts[1], encoding: .utf8)
        let cases: [(String, String, String)] = [
            ("\"yes\":", "\"yes\":-5,\"was\":", "days[0].yes: expected a count (a whole number from 0 to 1000000000000), found -5"),
            ("\"tiers\":[", "\"tiers\":[1000,", "days[0].tiers: expected 4 counts (tiers 0 to 3), found 5"),
            ("\"refused_events\":", "\"refused_events\":9223372036854775000,\"was\":", "days[0].refused_events: expected a count"),
            ("\"seed\":\"5\"", "\"seed\":\"6\"", "is not a shard of the same run as \(parts[0].path): seed 6 ≠ 5"),
        ]
        for (find, replace, expected) in cases {
            // The counts are looked for in the days (the summary has the same keys; merge recomputes it).
            let days = find.hasPrefix("\"seed") ? text.startIndex : try #require(text.range(of: "\"days\":[")).upperBound
            let range = try #require(text.range(of: find, range: days..<text.endIndex))
            let bad = dir.appendingPathComponent("bad.json")
            try text.replacingCharacters(in: range, with: replace).write(to: bad, atomically: true, encoding: .utf8)
            let result = try CLI.run(["merge", parts[0].path, bad.path])
            #expect(result.status == 2, "\(find)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    /// More shards than users: the empty shards (users_from == users_to) overlap nothing, in any
    /// order, and the merge is the whole run in every format.
    @Test func mergeTakesMoreShardsThanUsers() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = ["simulate", "3d", "--users", "7", "--no-db"]
        var parts: [String] = []
        for i in 1...10 {
            let path = dir.appendingPathComponent("part\(i).json").path
            let shard = try CLI.run(run + ["--shard", "\(i)/10", "--format", "json", "--out", path])
            #expect(shard.status == 0, "\(shard.stderr)")
            parts.append(path)
        }
        #expect(try String(contentsOfFile: parts[0], encoding: .utf8).contains("\"users_from\":0,\"users_to\":0,"))
        for format in ["table", "json", "csv"] {
            let whole = try CLI.run(run + ["--format", format])
            let merged = try CLI.run(["merge"] + parts.reversed() + ["--format", format])
            #expect(merged.status == 0, "\(merged.stderr)")
            #expect(merged.stdout == whole.stdout, "\(format)")
        }
    }

    /// Each wrong count is named by its file, its field and what was expected; so is a file that
    /// is no report at all.
    @Test func mergeNamesTheFieldOfEachCountThatCannotBeRight() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var parts: [String] = []
        for i in 1...2 {
            let path = dir.appendingPathComponent("part\(i).json").path
            #expect(try CLI.run(Self.small + ["--no-db", "--shard", "\(i)/2", "--format", "json", "--out", path]).status == 0)
            parts.append(path)
        }
        let original = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: parts[1]))) as? [String: Any])
        typealias Change = (inout [String: Any], inout [[String: Any]]) -> Void
        func earned(_ day: [String: Any]) -> [String: Any] { day["earned"] as! [String: Any] }
        let cases: [(Change, String)] = [
            ({ _, days in days[0]["yes"] = days[0]["yes"] as! Int + 1 }, "days[0].yes: YES "),
            ({ _, days in days[0]["habit_done"] = 999 }, "days[0].habit_done: 999, expected at most habit_planned"),
            (
                { _, days in (days[0]["reminders"], days[0]["max_reminders"]) = (1, 2) },
                "days[0].max_reminders: 2, expected at most the day's 1 reminders"
            ),
            ({ _, days in days[0]["reminders"] = 1_000_000 }, "days[0].reminders: 1000000, expected at most max_reminders"),
            ({ _, days in days[0]["tiers"] = [8, 1, 0, 0] }, "days[0].tiers: counts 9 users, but the report covers 8"),
            (
                { _, days in
                    var e = earned(days[0])
                    e["balance_histogram"] = (e["balance_histogram"] as! [Int]) + [9]
                    days[0]["earned"] = e
                }, "days[0].earned.balance_histogram: counts "
            ),
            (
                { _, days in
                    var e = earned(days[0]), unlocks = e["unlocks"] as! [String: Any]
                    unlocks["CREDITS"] = 500
                    e["unlocks"] = unlocks
                    days[0]["earned"] = e
                }, "days[0].earned.choices: "
            ),
            ({ _, days in days.reverse() }, "days[0].day: expected 1 (the days in order from 1), found 7"),
            ({ _, days in days.remove(at: 3) }, "days[3].day: expected 4 (the days in order from 1), found 5"),
            ({ _, days in days.insert(days[3], at: 3) }, "days[4].day: expected 5 (the days in order from 1), found 4"),
            (
                { _, days in days[2]["date"] = "2026-01-09" },
                "days[2].date: expected \"2026-01-07\" (run.start 2026-01-05 + 2 days), found \"2026-01-09\""
            ),
            (
                { object, _ in
                    var run = object["run"] as! [String: Any]
                    run["days"] = 8
                    object["run"] = run
                }, "run.days: 8, but 7d from 2026-01-05 is 7 days"
            ),
            (
                { _, days in days = days.map { $0.filter { $0.key != "earned" } } },
                "has no Earned counts (its days have no `earned`: written before Earned was simulated), but \(parts[0]) has them"
            ),
            ({ _, days in days[0]["yes"] = 1.5 }, "days[0].yes: expected a count (a whole number from 0 to 1000000000000), found 1.5"),
            (
                { _, days in days[0]["events"] = 1e30 },
                "days[0].events: expected a count (a whole number from 0 to 1000000000000), found 1e+30"
            ),
        ]
        let bad = dir.appendingPathComponent("bad.json").path
        for (change, expected) in cases {
            var object = original
            var days = object["days"] as! [[String: Any]]
            change(&object, &days)
            object["days"] = days
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: bad))
            let result = try CLI.run(["merge", parts[0], bad])
            #expect(result.status == 2, "\(expected)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(result.stderr.contains(bad) && result.stdout.isEmpty, "\(result.stderr)")
        }
        let folder = dir.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, expected) in [
            ("/dev/null", "/dev/null: not a regular file (a character device); expected a JSON report of rulesrun simulate --format json"),
            (folder.path, "\(folder.path): is a folder; expected a JSON report of rulesrun simulate --format json"),
            (dir.appendingPathComponent("none.json").path, "none.json: no such file; expected a JSON report"),
        ] {
            let result = try CLI.run(["merge", parts[0], path])
            #expect(result.status == 2)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
        }
    }

    /// Users appended to a database are new users (their random streams follow their ids), and
    /// the report says which ids they have.
    @Test func appendedUsersAreNotClonesOfTheFirstOnes() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("a.sqlite").path
        let first = try CLI.run(["simulate", "3d", "--users", "5", "--db", db, "--format", "json"])
        let second = try CLI.run(["simulate", "3d", "--users", "5", "--db", db, "--append", "--format", "json"])
        #expect(first.status == 0 && second.status == 0, "\(second.stderr)")
        func days(_ json: String) throws -> Substring { json[try #require(json.range(of: "\"days\":[")).lowerBound...] }
        #expect(try days(first.stdout) != days(second.stdout))
        #expect(second.stdout.contains("\"users_from\":0,\"users_to\":5,\"id_offset\":5,"))
        let third = try CLI.run(["simulate", "3d", "--users", "5", "--db", db, "--append"])
        #expect(third.stdout.contains("2026-01-05 to 2026-01-07, 3 days, user ids 11–15 (appended)\n"), "\(third.stdout)")
    }

    @Test func jsonAndCsvCarryTheSameCounts() throws {
        let json = try CLI.run(Self.small + ["--no-db", "--format", "json"])
        let csv = try CLI.run(Self.small + ["--no-db", "--format", "csv"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.count == 7)
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.count == 8)
        let header = lines[0].split(separator: ",").map(String.init)
        let yesColumn = try #require(header.firstIndex(of: "yes"))
        let spentColumn = try #require(header.firstIndex(of: "credits_spent"))
        let creditUnlocksColumn = try #require(header.firstIndex(of: "unlocks_credits"))
        for (day, line) in zip(days, lines.dropFirst()) {
            let fields = line.split(separator: ",").map(String.init)
            #expect(fields.count == header.count)
            #expect(fields[yesColumn] == "\(day["yes"] as? Int ?? -1)")
            let earned = try #require(day["earned"] as? [String: Any])
            #expect(fields[spentColumn] == "\(earned["credits_spent"] as? Int ?? -1)")
            #expect(fields[creditUnlocksColumn] == "\((earned["unlocks"] as? [String: Any])?["CREDITS"] as? Int ?? -1)")
        }
        let summary = try #require((object["summary"] as? [String: Any])?["earned"] as? [String: Any])
        #expect(summary["denials"] is [String: Any] && summary["balance"] is [String: Any] && summary["emergency_uses"] is Int)
    }

    @Test func theChartIsSVGThatParses() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("chart.svg")
        let result = try CLI.run(Self.small + ["--no-db", "--chart", path.path, "--out", dir.appendingPathComponent("r.txt").path])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: path)
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("<svg") && text.contains("<polyline"))
        // A persona path with a control character (XML cannot hold it, escaped or not).
        let odd = dir.appendingPathComponent("odd\u{1}name.lua")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua"), to: odd)
        let oddChart = dir.appendingPathComponent("odd.svg")
        let oddRun = try CLI.run([
            "simulate", "3d", "--users", "2", "--no-db", "--persona", odd.path, "--chart", oddChart.path,
            "--out", dir.appendingPathComponent("odd.txt").path,
        ])
        #expect(oddRun.status == 0, "\(oddRun.stderr)")
        let oddParser = XMLParser(data: try Data(contentsOf: oddChart))
        #expect(oddParser.parse(), "\(oddParser.parserError.map { "\($0)" } ?? "")")
    }

    /// A one-day run: each series is one point, which a line does not draw; it is a dot.
    @Test func aOneDayChartShowsEachSeriesAsADot() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("one.svg")
        let result = try CLI.run([
            "simulate", "1d", "--users", "3", "--no-db", "--chart", path.path, "--out", dir.appendingPathComponent("r.txt").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: path)
        #expect(XMLParser(data: data).parse())
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n")
        let polylines = lines.filter { $0.hasPrefix("<polyline") }, dots = lines.filter { $0.hasPrefix("<circle") }
        #expect(polylines.count == 32 && dots.count == 32)
        for (line, dot) in zip(polylines, dots) {
            let color = try #require(line.firstRange(of: "stroke=\"#")).upperBound
            #expect(dot.contains("fill=\"#\(line[color...].prefix(6))\""), "\(dot)")
            #expect(dot.contains("r=\"4\""))
        }
        // A run of several days draws lines only.
        let week = dir.appendingPathComponent("week.svg")
        #expect(
            try CLI.run([
                "simulate", "2d", "--users", "3", "--no-db", "--chart", week.path, "--out", dir.appendingPathComponent("w.txt").path,
            ]).status == 0)
        #expect(!(try String(contentsOf: week, encoding: .utf8)).contains("<circle"))
    }

    @Test func aBrokenPersonaIsReportedWithFileAndLine() throws {
        let dir = try CLI.folder(["bad.lua": "return {\n  description = \"x\",\n  commit = 2,\n  answer = { yes = 1, no = 0 },\n}\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.lua").path
        let result = try CLI.run(["simulate", "7d", "--users", "2", "--no-db", "--persona", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(path):3: commit: expected a probability between 0 and 1, found 2"), "\(result.stderr)")
        let earned = try CLI.folder([
            "earned.lua":
                "return {\n  description = \"x\",\n  commit = 0.5,\n  answer = { yes = 0.5, no = 0 },\n  earned = {\n    apps = { \"android:a\" },\n    gate = { credits = 0.9, quest = 0.2 },\n  },\n}\n"
        ])
        defer { try? FileManager.default.removeItem(at: earned) }
        let earnedPath = earned.appendingPathComponent("earned.lua").path
        let broken = try CLI.run(["simulate", "7d", "--users", "2", "--no-db", "--persona", earnedPath])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("\(earnedPath):7: earned.gate: credits + quest + emergency must be at most 1"), "\(broken.stderr)")
        let unknown = try CLI.run(["simulate", "7d", "--users", "2", "--no-db", "--persona", "stedy"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'steady'?"), "\(unknown.stderr)")
    }

    @Test func badArgumentsAreRefusedWithStatus2() throws {
        // Including numbers that overflowed or ran past the last day (they crashed).
        for arguments in [
            ["simulate", "30"], ["simulate", "30d", "--users", "0"], ["simulate", "30d", "--shard", "3/2"],
            ["simulate", "30d", "--format", "xml"], ["simulate", "99999y"], ["simulate", "9223372036854775807w"],
            ["simulate", "1y", "--start", "2997-06-01"], ["simulate", "7d", "--users", "1000000000000"],
            ["simulate", "-3d"], ["simulate", "30d", "--start", "2026-13-01"],
        ] {
            let result = try CLI.run(arguments + ["--no-db"])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.isEmpty && !result.stderr.contains("Fatal error"), "\(arguments): \(result.stderr)")
        }
        let huge = try CLI.run(["simulate", "3d", "--users", "3", "--no-db", "--shard", "9223372036854775807/9223372036854775807"])
        #expect(huge.status == 0, "\(huge.stderr)")
        #expect(huge.stdout.contains("users 3 of 3"))
    }

    /// A number out of its range — negative ones included, which were taken for a missing value —
    /// is refused naming the option and its range; durations have one limit in days whatever the
    /// unit, and a run must end by 2997-12-28, which the message says exactly.
    @Test func numbersDurationsAndDaysOutOfRangeAreRefusedWithTheirLimits() throws {
        for (arguments, expected) in [
            (["3d", "--users", "-1"], "The value '-1' is invalid for '--users <users>': expected a whole number from 1 to 10000000"),
            (["3d", "--jobs", "257"], "'--jobs <jobs>': expected a whole number from 1 to 256"),
            (["3d", "--jobs", "-2"], "'--jobs <jobs>': expected a whole number from 1 to 256"),
            (["3d", "--seed", "-1"], "'--seed <seed>': expected a whole number from 0 to 18446744073709551615"),
            (["523w"], "Error: invalid duration \"523w\": at most 3660 days (10 years): 3660d, 522w, 120m or 10y"),
            (["9223372036854775808d"], "invalid duration \"9223372036854775808d\": at most 3660 days"),
            (["1d", "--start", "2997-12-30"], "Error: --start: expected a day YYYY-MM-DD between 1971-01-02 and 2997-12-28"),
            (["1d", "--start", "1971-01-01"], "between 1971-01-02 and 2997-12-28"),
            (["1d", "--start", "9999-12-31"], "between 1971-01-02 and 2997-12-28"),
            (
                ["4d", "--start", "2997-12-26"],
                "Error: --start 2997-12-26 + 4d: the simulation would end on 2997-12-29; it must end by 2997-12-28"
            ),
            (
                ["10y", "--start", "2997-01-01"],
                "Error: --start 2997-01-01 + 10y: the simulation would end on 3006-12-31; it must end by 2997-12-28"
            ),
            (["3d", "--persona", ":3"], "--persona: \":3\": the persona's name or file is missing before ':'"),
            (["3d", "--format", "xml"], "The value 'xml' is invalid for '--format <format>': expected table, json, csv or jsonl"),
        ] {
            // The rule folder is loaded after the options are read: a bad option is named first.
            let result = try CLI.run(["simulate"] + arguments + ["--no-db", "--rules", "/no-such-rules"])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        let last = try CLI.run(["simulate", "2d", "--start", "2997-12-27", "--users", "2", "--no-db", "--seed", "18446744073709551615"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(last.stdout.contains("2997-12-27 to 2997-12-28, 2 days"), "\(last.stdout)")
    }

    /// Commas separate personas: a file whose name has one is refused as such, not looked for in pieces.
    @Test func aPersonaFileWithACommaInItsNameIsRefusedAsSuch() throws {
        let dir = try CLI.folder([
            "a,b.lua": try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua"), encoding: .utf8)
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        for value in ["a,b.lua", "a,b.lua:2"] {
            let result = try CLI.run(
                [
                    "simulate", "3d", "--users", "2", "--no-db", "--rules", CLI.packageRoot.appendingPathComponent("rules").path,
                    "--persona", value,
                ], in: dir)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--persona: \"a,b.lua\" is a file, but a comma separates personas"), "\(result.stderr)")
        }
    }

    @Test func optionsThatWouldBeIgnoredAreRefused() throws {
        for (arguments, expected) in [
            (["--no-db", "--db", "x.sqlite"], "--no-db keeps the database in memory"),
            (["--bench", "--out", "x.txt"], "--bench prints its measures"),
            (["--reference", "--rules", "examples/graduated-recovery"], "--reference runs the native reference rules"),
            (["--persona-dir", "/nonexistent-personas"], "--persona-dir /nonexistent-personas: no such folder"),
            (["--persona", "steady:1e308,struggling:1e308"], "the weights add up to more than a number can hold"),
            (["--out", NSTemporaryDirectory()], "is a folder; expected a file"),
            (["--chart", ""], "--chart: expected a file name"),
        ] {
            let result = try CLI.run(["simulate", "3d", "--users", "2"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        let one = try CLI.run(["simulate", "1d", "--users", "1", "--no-db"])
        #expect(one.stdout.contains("1d: 1 user (") && one.stdout.contains(", 1 day\n"), "\(one.stdout)")
    }

    @Test func theDatabaseTargetMustBeADatabaseAndAFailedRunKeepsThePreviousOne() throws {
        let dir = try CLI.folder([
            "folder/keep.txt": "important", "notes.txt": "not a database",
            "fails.lua":
                "return {\n  description = \"x\", commit = 0.9, answer = { yes = 1, no = 0 },\n  day = function(d) if d.day == 2 then error(\"boom\") end end,\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        for (target, expected) in [("folder", "is a folder"), ("notes.txt", "not an SQLite database")] {
            let result = try CLI.run(["simulate", "3d", "--users", "2", "--db", dir.appendingPathComponent(target).path])
            #expect(result.status == 2 && result.stderr.contains(expected), "\(result.stderr)")
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("folder/keep.txt"), encoding: .utf8) == "important")
        #expect(try String(contentsOf: dir.appendingPathComponent("notes.txt"), encoding: .utf8) == "not a database")
        let device = try CLI.run(["simulate", "3d", "--users", "2", "--db", "/dev/null"])
        #expect(device.status == 2 && device.stderr.contains("not a regular file"), "\(device.stderr)")

        let db = dir.appendingPathComponent("good.sqlite").path
        #expect(try CLI.run(["simulate", "3d", "--users", "4", "--db", db]).status == 0)
        let good = try Data(contentsOf: URL(fileURLWithPath: db))
        let failed = try CLI.run(["simulate", "3d", "--users", "6", "--db", db, "--persona", dir.appendingPathComponent("fails.lua").path])
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("fails.lua:3: boom (in day() for u1 on 2026-01-06)"), "\(failed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == good)  // untouched
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files == ["fails.lua", "folder", "good.sqlite", "notes.txt"])  // nothing left behind
    }

    @Test func helpShowsExamples() throws {
        let result = try CLI.run(["simulate", "--help"])
        #expect(result.stdout.contains("rulesrun simulate 30d"))
        #expect(result.stdout.contains("--persona"))
    }

    /// Every default and limit once, as README says them (--jobs had two defaults, the second the machine's).
    @Test func helpGivesEachDefaultOnceWithItsLimits() throws {
        let help = try CLI.run(["simulate", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in [
            "--users <users> Users in the cohort, 1 to 10000000. (default: 1000)",
            "--jobs <jobs> Worker threads, 1 to 256, at most one per user and four per core. (default: every core)",
            "1971-01-02 to 2997-12-28", "at most 3660 days (3660d, 522w, 120m, 10y)",
            "current-streak p50 and p90",
            "--replicas <replicas> Independent cohorts, 1 to 1000: each metric as the mean with its 95% interval. (default: 1)",
        ] {
            #expect(help.contains(expected), "\(expected)")
        }
        #expect(help.components(separatedBy: "(default:").count - 1 == 7, "\(help)")
    }
}
