import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Testing

/// `simulate` with rule sets that fail at run time (after validation passed): the failures are
/// not hidden in the refused events, whatever the number of jobs or shards.
@Suite struct SimulateFailureTests {
    /// A variant of the default rules (`extends`) that validates and fails at run time
    /// (`RuntimeFailure`).
    static func variant(_ escalation: String) throws -> URL {
        try CLI.folder([
            "rules/extends": CLI.packageRoot.appendingPathComponent("rules").path + "\n",
            "rules/escalation.lua": escalation,
        ])
    }

    static func simulate(_ dir: URL, _ extra: [String]) throws -> CLI.Result {
        try CLI.run(
            [
                "simulate", "22d", "--users", "10", "--no-db", "--rules", dir.appendingPathComponent("rules").path,
                "--persona-dir", CLI.packageRoot.appendingPathComponent("examples/personas").path,
            ] + extra, in: dir)
    }

    @Test func aRuleErrorExits1AndNamesTheCountsTheFirstFailureAndItsReplay() throws {
        let dir = try Self.variant(RuntimeFailure.error)
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = try Self.simulate(dir, ["--jobs", "1"])
        let two = try Self.simulate(dir, ["--jobs", "2"])
        #expect(one.status == 1, "\(one.stderr)")
        #expect(two.status == 1, "\(two.stderr)")
        #expect(one.stdout.contains("summary"))  // the report is still printed
        #expect(one.stderr.contains("the rule set failed on"), "\(one.stderr)")
        #expect(one.stderr.range(of: #"RULE_ERROR [0-9]+"#, options: .regularExpression) != nil, "\(one.stderr)")
        #expect(one.stderr.contains("escalation.lua:8: boom on day 20 (RULE_ERROR)"), "\(one.stderr)")
        // The same first failure (the lowest user's), the same counts, whatever the jobs.
        #expect(one.stderr == two.stderr)
        #expect(one.stdout == two.stdout)
        let first = try #require(one.stderr.split(separator: "\n").first { $0.hasPrefix("first failure: ") })
        let user = String(first.dropFirst("first failure: ".count).prefix { $0 != " " })

        // The replay file: the user's events up to the failure, shrunk; `rulesrun replay` fails on its last line.
        let file = dir.appendingPathComponent(".rulesrun/simulate/failure-\(user).jsonl")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix("# rulesrun simulate: "))
        #expect(one.stderr.contains("rulesrun replay .rulesrun/simulate/failure-\(user).jsonl --rules "), "\(one.stderr)")
        let replay = try CLI.run(["replay", file.path, "--rules", dir.appendingPathComponent("rules").path], in: dir)
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        let last = try #require(replay.stdout.split(separator: "\n").last)
        #expect(last.contains("\"RULE_ERROR\"") && last.contains("boom on day 20"), "\(last)")
        #expect(replay.stdout.split(separator: "\n").dropLast().allSatisfy { $0.contains("\"ok\":true") }, "\(replay.stdout)")

        // The printed command runs that user alone, with the same first failure.
        let command = try #require(one.stderr.split(separator: "\n").first { $0.contains("run the user alone: rulesrun simulate ") })
        let words = command.components(separatedBy: "rulesrun simulate ")[1].split(separator: " ").map(String.init)
        let alone = try CLI.run(["simulate"] + words, in: dir)
        #expect(alone.status == 1)
        #expect(alone.stderr.contains(String(first)), "\(alone.stderr)")
    }

    /// The two commands of the notice, with a rule folder and a persona folder named to break out
    /// of them (a quote, `$(…)`, a line feed, an escape): a real shell runs them as they read, and
    /// nothing else: the replay fails on its last line, the user alone fails as in the run.
    @Test func theNoticesCommandsRunInAShellAsTheyRead() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = "-r'; touch INJECTED_1; echo '\n$(touch INJECTED_2)\u{1B}", personas = "p`touch INJECTED_3`"
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(rules), withIntermediateDirectories: true)
        try (CLI.packageRoot.appendingPathComponent("rules").path + "\n").write(
            to: dir.appendingPathComponent(rules + "/extends"), atomically: true, encoding: .utf8)
        try RuntimeFailure.error.write(to: dir.appendingPathComponent(rules + "/escalation.lua"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("examples/personas"), to: dir.appendingPathComponent(personas))
        let run = try CLI.run(["simulate", "22d", "--users", "10", "--no-db", "--rules=" + rules, "--persona-dir", personas], in: dir)
        #expect(run.status == 1, "\(run.stderr)")
        let first = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("first failure: ") })
        let replay = try #require(run.stderr.split(separator: "\n").first { $0.contains("replay it: ") })
        let alone = try #require(run.stderr.split(separator: "\n").first { $0.contains("run the user alone: ") })
        let replayed = try PastedCommand.run(replay.components(separatedBy: "replay it: ")[1].components(separatedBy: "   (the user's")[0], in: dir)
        #expect(replayed.status == 1, "\(replay)\n\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stdout.split(separator: "\n").last?.contains("\"RULE_ERROR\"") == true, "\(replayed.stdout)")
        let rerun = try PastedCommand.run(alone.components(separatedBy: "run the user alone: ")[1], in: dir)
        #expect(rerun.status == 1, "\(alone)\n\(rerun.stderr)")
        #expect(rerun.stderr.contains(String(first)), "\(alone)\n\(rerun.stderr)")
        #expect(PastedCommand.injected(under: dir).isEmpty, "\(PastedCommand.injected(under: dir))")
    }

    @Test func aDecisionTheHostRefusesExits1AndMergePropagatesIt() throws {
        let dir = try Self.variant(RuntimeFailure.badTier)
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Self.simulate(dir, ["--format", "json"])
        #expect(whole.status == 1, "\(whole.stderr)")
        #expect(whole.stdout.contains("\"failures\":{\"RULE_ERROR\":0,\"RULE_VIOLATION\":"), "\(whole.stdout.prefix(3000))")
        #expect(whole.stderr.range(of: #"RULE_VIOLATION [0-9]+"#, options: .regularExpression) != nil, "\(whole.stderr)")
        #expect(whole.stderr.contains("escalation.lua:3: transition(tier "), "\(whole.stderr)")
        #expect(whole.stderr.contains("outside 0–3 (RULE_VIOLATION)"), "\(whole.stderr)")
        var parts: [String] = []
        for i in 1...2 {
            let path = dir.appendingPathComponent("part\(i).json").path
            _ = try Self.simulate(dir, ["--shard", "\(i)/2", "--format", "json", "--out", path])
            parts.append(path)
        }
        let merged = try CLI.run(["merge", "--format", "json"] + parts, in: dir)
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let counts = { (text: String) in text.split(separator: "\n").first.map(String.init) ?? "" }
        #expect(counts(merged.stderr).replacingOccurrences(of: "rulesrun merge", with: "rulesrun simulate") == counts(whole.stderr))
        let firstLine = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("first failure: ") }.map(String.init) }
        #expect(firstLine(merged.stderr) != nil && firstLine(merged.stderr) == firstLine(whole.stderr), "\(merged.stderr)")
        #expect(merged.stderr.contains("run the user alone: rulesrun simulate 22d"), "\(merged.stderr)")
    }

    /// The replay file's path is checked as every output is: a FIFO there is refused, not opened
    /// (opening it to read its first line waited for a writer for ever).
    @Test func aFIFOWhereTheReplayFileGoesIsNotOpened() throws {
        let dir = try Self.variant(RuntimeFailure.error)
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent(".rulesrun/simulate")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #require(mkfifo(folder.appendingPathComponent("failure-u1.jsonl").path, 0o644) == 0)
        let result = try Self.simulate(dir, [])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "the replay file was not written: the replay file .rulesrun/simulate/failure-u1.jsonl: not a regular file (a FIFO)"),
            "\(result.stderr)")
    }

    @Test func aCleanRunSaysNothingAndItsJSONHasNoFailures() throws {
        let clean = try CLI.run(["simulate", "5d", "--users", "6", "--no-db", "--format", "json"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stderr.isEmpty)
        #expect(!clean.stdout.contains("failures"))
    }

    @Test func aDurationThatIsNotPositiveSaysSo() throws {
        for duration in ["-1d", "-3d", "-0d", "0d", "-2w"] {
            let result = try CLI.run(["simulate", duration, "--users", "2", "--no-db"])
            #expect(result.status == 2)
            #expect(
                result.stderr.contains("invalid duration \"\(duration)\": a duration must be positive"), "\(duration): \(result.stderr)")
            #expect(result.stderr.contains("e.g. 30d, 12w, 6m or 1y"))
        }
        // An option's own negative value is still that option's error.
        let seed = try CLI.run(["simulate", "2d", "--seed", "-1", "--no-db"])
        #expect(seed.status == 2)
        #expect(seed.stderr.contains("'-1' is invalid for '--seed"), "\(seed.stderr)")
    }

    @Test func mergePrintsRangesOfUsersOneBasedWithAnEnDash() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = dir.appendingPathComponent("part.json").path
        #expect(
            try CLI.run(["simulate", "3d", "--users", "10", "--no-db", "--shard", "1/2", "--format", "json", "--out", part]).status == 0)
        let overlap = try CLI.run(["merge", part, part])
        #expect(overlap.status == 2)
        #expect(overlap.stderr.contains("shards overlap: users 1–5 and 1–5"), "\(overlap.stderr)")
        let missing = try CLI.run(["merge", part])
        #expect(missing.stderr.contains("users 6–10 of the 10 are in none of the reports"), "\(missing.stderr)")
        #expect(!overlap.stderr.contains("..<") && !missing.stderr.contains("..<"))
    }
}
