import Foundation
import Testing

/// `rulesrun compare` through the real binary: exit codes, the shrunk replay files, and that
/// `rulesrun replay` reproduces them under both rule sets.
@Suite struct CompareCommandTests {
    func outFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-compare-\(UUID().uuidString)")
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `--persona-dir` as simulate and sweep take it: a persona of the team's own folder, by name;
    /// a folder that does not exist is an argument error (2).
    @Test func personaDirFindsATeamsOwnPersonaByName() throws {
        let personas = outFolder()
        defer { try? FileManager.default.removeItem(at: personas) }
        try FileManager.default.createDirectory(at: personas, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua"),
            to: personas.appendingPathComponent("our-regulars.lua"))
        let arguments = [
            "compare", "rules", "rules", "--runs", "1", "--economy-runs", "0", "--habit-runs", "0", "--population-users", "10",
            "--days", "3", "--persona", "our-regulars",
        ]
        let missing = try CLI.run(arguments)
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("no persona named 'our-regulars'"), "\(missing.stderr)")
        let found = try CLI.run(arguments + ["--persona-dir", personas.path])
        #expect(found.status == 0, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains("personas our-regulars"), "\(found.stdout)")
        let noFolder = try CLI.run(arguments + ["--persona-dir", personas.appendingPathComponent("nope").path])
        #expect(noFolder.status == 2)
        #expect(noFolder.stderr.contains("--persona-dir \(personas.appendingPathComponent("nope").path): no such folder"), "\(noFolder.stderr)")
    }

    @Test func graduatedRecoveryDiffersAndItsReplayFileReproducesTheDifference() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/graduated-recovery",
            "--out", out.path,
            "--json",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let report = try object(result.stdout)
        #expect(report["identical"] as? Bool == false)
        #expect(report["population"] == nil)  // skipped with --population-users 0
        let differences = try #require(report["differences"] as? [[String: Any]])
        let tier = try #require(differences.first { $0["kind"] as? String == "current_tier" }, "\(differences.map { $0["kind"] ?? "" })")
        let beyond = try #require(tier["events_beyond_setup"] as? Int)
        #expect(beyond <= 5)
        #expect(tier["reproduced_by_engine"] as? Bool == true)
        let file = try #require(tier["replay_file"] as? String)
        let first = try #require(tier["first_diverging_event"] as? [String: Any])
        let number = try #require(first["event_number"] as? Int)

        // The file, replayed by `rulesrun replay` under each set: the same event shows tiers that differ.
        var tiers: [Int] = []
        for rules in ["rules", "examples/graduated-recovery"] {
            let replay = try CLI.run(["replay", file, "--rules", rules])
            #expect(replay.status == 0, "\(replay.stderr)")
            let lines = replay.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 2 + beyond)
            let line = try object(lines[number - 1])
            #expect(line["ok"] as? Bool == true, "\(line)")
            let state = try #require(line["state"] as? [String: Any])
            tiers.append(try #require(state["current_tier"] as? Int))
        }
        #expect(tiers[0] != tiers[1], "\(tiers)")
    }

    @Test func theTextReportShowsTheFirstDivergingEvent() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/graduated-recovery",
            "--out", out.path,
            "--ignore", "reminders", "consecutive_successes",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("by kind (histories): current_tier ("), "\(result.stdout)")
        #expect(result.stdout.contains("the engine reproduces it; first diverging event"))
        #expect(result.stdout.contains("current_tier               2 → 0                      2 → 1   <- differs"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("current_tier.jsonl").path))
    }

    @Test func aRuleSetComparedWithItselfHasNoDifference() throws {
        let out = outFolder()
        let result = try CLI.run([
            "compare", "--population-users", "0", "--economy-runs", "5", "--habit-runs", "5", "rules", "rules", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no difference: A and B decided every compared field"))
        #expect(result.stdout.contains("no difference: A and B decided every unlock, option, credit and streak the same"))
        #expect(result.stdout.contains("habits: 5 habit histories of 21 days from seed 1, replayed through the engine under A and B\n"))
        #expect(result.stdout.contains("no difference: A and B decided every habit event, streak, best streak and score the same"))
        #expect(result.stdout.hasSuffix("exit 0: no difference in the Pressure histories, the economy or the habits\n"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func ignoredFieldsAreNotCompared() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let all = try CLI.run([
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/graduated-recovery",
            "--out", out.path,
            "--json",
            "--ignore", "current_tier,consecutive_successes", "reminders",
        ])
        #expect(all.status == 0, "\(all.stdout)")
        #expect(try object(all.stdout)["ignored"] as? [String] == ["current_tier", "consecutive_successes", "reminders"])
        let some = try CLI.run([
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/graduated-recovery",
            "--out", out.path,
            "--json", "--ignore", "current_tier",
        ])
        #expect(some.status == 1)
        let kinds = try #require(try object(some.stdout)["differences"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
        #expect(!kinds.contains("current_tier") && kinds.contains("consecutive_successes"), "\(kinds)")
        let unknown = try CLI.run([
            "compare", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules", "rules", "--ignore", "tier",
        ])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--ignore tier: not a field"))
    }

    /// An expectation with text compare does not understand is refused before anything runs (exit
    /// 2), at the position of its first such character (compare took `.B.current_tier <=
    /// A.current_tier` and ran, exit 0); a 100 KB expectation, --ignore or --persona is refused
    /// with its echo cut.
    @Test func anExpectationIsRefusedAtTheFirstCharacterItDoesNotUnderstand() throws {
        let out = outFolder()
        let quick = ["compare", "rules", "rules", "--runs", "1", "--economy-runs", "0", "--habit-runs", "0", "--out", out.path]
        for (expect, message) in [
            (
                ".B.current_tier <= A.current_tier",
                #"--expect ".B.current_tier <= A.current_tier": character 1 is not understood: expected A or B, the side of the left field (A.FIELD or B.FIELD), found ".B.current_tier <= A…""#
            ),
            (
                "B.current_tier <= A.current_tier junk",
                #"--expect "B.current_tier <= A.current_tier junk": character 34 is not understood: expected the end of the expectation after A.current_tier, found "junk""#
            ),
            (
                "B.credit_balance <= A.credit_balance, B.streak_count",
                #"character 37 is not understood: expected the end of the expectation after A.credit_balance, found ", B.streak_count""#
            ),
        ] {
            let result = try CLI.run(quick + ["--population-users", "0", "--expect", expect])
            #expect(result.status == 2, "\(expect): \(result.stdout)")
            #expect(result.stderr.contains(message), "\(expect): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(expect): \(result.stdout)")
        }
        let long = String(repeating: "x", count: 100_000)
        for (arguments, message) in [
            (["--expect", "B.current_tier <= A.current_tier " + long], "an expectation is at most 200 characters, found 100033"),
            (["--ignore", long], "not a field (one of current_tier, "),
            (["--persona", long + ":0"], "must be a positive number"),
        ] {
            let result = try CLI.run(quick + ["--population-users", "2"] + arguments)
            #expect(result.status == 2, "\(arguments[0])")
            #expect(result.stderr.contains(message) && result.stderr.contains("… (100"), "\(arguments[0]): \(result.stderr.prefix(500))")
            #expect(result.stderr.utf8.count < 2_000, "\(arguments[0]): \(result.stderr.utf8.count) bytes")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func expectationsDecideTheExitStatus() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        // A miss never lowers the tier: B is never below A.
        let holds = try CLI.run([
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/miss-never-lowers-tier",
            "--out", out.path,
            "--expect", "B.current_tier >= A.current_tier",
        ])
        #expect(holds.status == 0, "\(holds.stdout)")
        #expect(holds.stdout.contains("expect B.current_tier >= A.current_tier: holds on every day of every history"))
        let broken = try CLI.run([
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/miss-never-lowers-tier",
            "--out", out.path,
            "--json",
            "--expect", "B.current_tier <= A.current_tier",
        ])
        #expect(broken.status == 1)
        let expectations = try #require(try object(broken.stdout)["expectations"] as? [[String: Any]])
        #expect(expectations.first?["holds"] as? Bool == false)
        let counterexample = try #require(expectations.first?["counterexample"] as? [String: Any])
        #expect(counterexample["reproduced_by_engine"] as? Bool == true)
        let bad = try CLI.run([
            "compare", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules", "rules", "--expect",
            "B.tier < A.tier",
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("\"tier\" is not a field (current_tier, "))
    }

    /// A broken --expect explains itself as a broken --property does: the rule calls of its minimal
    /// history under A and under B (a Pressure one's up to its first diverging event), text and JSON;
    /// --no-explain leaves them out.
    @Test func aBrokenExpectationShowsTheRuleCallsUnderAAndB() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        // graduated-recovery steps down one tier per recovery: the YES that takes A from tier 2 to 0 takes B to 1.
        let pressure = try CLI.run([
            "compare", "rules", "examples/graduated-recovery", "--runs", "20", "--economy-runs", "0", "--habit-runs", "0",
            "--population-users", "0", "--out", out.path, "--json", "--expect", "B.current_tier == A.current_tier",
        ])
        #expect(pressure.status == 1, "\(pressure.stdout)\(pressure.stderr)")
        let expectation = try #require((try object(pressure.stdout)["expectations"] as? [[String: Any]])?.first)
        let counterexample = try #require(expectation["counterexample"] as? [String: Any])
        func lastTransition(_ side: String) throws -> [String: Any] {
            let calls = try #require(counterexample["explain_\(side)"] as? [[String: Any]], "\(counterexample.keys)")
            return try #require(calls.last { $0["function"] as? String == "escalation.transition" })
        }
        // The last transition of each replay is that of the first diverging event: A recovers to 0, B to 1.
        let a = try lastTransition("a"), b = try lastTransition("b")
        #expect(((a["returned"] as? [[String: Any]])?.first?["current_tier"] as? Int) == 0, "\(a)")
        #expect(((b["returned"] as? [[String: Any]])?.first?["current_tier"] as? Int) == 1, "\(b)")
        #expect((b["defined"] as? String)?.hasPrefix("escalation.lua:") == true)

        // gentle-pricing's rollover cap of 20 carries more than the default's 10: each side's knob
        // shows it, among the calls up to the event where the balances part that make a balance.
        let earned = [
            "compare", "rules", "examples/gentle-pricing", "--runs", "1", "--economy-runs", "5", "--economy-days", "3", "--habit-runs", "0",
            "--population-users", "0", "--out", out.path, "--expect", "B.credit_balance <= A.credit_balance",
        ]
        let explained = try CLI.run(earned)
        #expect(explained.status == 1, "\(explained.stdout)\(explained.stderr)")
        let text = explained.stdout
        let heading = #/  rule calls of the minimal history under (A \(rules\)|B \(examples/gentle-pricing\)) up to event (\d+) that made credit_balance \((pricing\.[a-z_, .]+)\):\n/#
        let headings = text.matches(of: heading)
        try #require(headings.count == 2, "\(text)")
        #expect(headings[0].output.2 == headings[1].output.2)  // the same event under A and B
        #expect(headings[0].output.3.contains("pricing.carried_credits"), "\(headings[0].output.3)")
        let (underA, underB) = (headings[0].range, headings[1].range)
        #expect(text[underA.upperBound..<underB.lowerBound].contains("      knobs: pricing.rollover_cap = 10\n"))
        #expect(text[underB.upperBound...].contains("      knobs: pricing.rollover_cap = 20\n"))
        let calls = text[underA.upperBound..<underB.lowerBound].split(separator: "\n").filter { $0.hasPrefix("    ") && !$0.hasPrefix("     ") }
        #expect(calls.allSatisfy { $0.hasPrefix("    pricing.") || $0.hasPrefix("    streaks.earned.bonus") }, "\(calls)")
        let unexplained = try CLI.run(earned + ["--no-explain"])
        #expect(unexplained.status == 1)
        #expect(
            unexplained.stdout.contains("expect B.credit_balance <= A.credit_balance (--expect) on 5 Earned histories of 3 days: BROKEN"))
        #expect(!unexplained.stdout.contains("rule calls"))
    }

    @Test func anInvalidRuleFolderExitsWithTwoAndItsProblems() throws {
        let dir = try CLI.folder(["escalation.lua": "return { max_tier = 3 }", "streaks.lua": "return {}"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["compare", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules", dir.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(dir.path): the rule set is not valid"), "\(result.stderr)")
        #expect(result.stderr.contains("escalation.lua"))
        let missing = try CLI.run([
            "compare", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "/nonexistent/rules", "rules",
        ])
        #expect(missing.status == 2)
    }

    /// The population half: both sets on the same seeded cohort, metrics side by side.
    @Test func thePopulationComparisonShowsBothSetsOnTheSameCohort() throws {
        let out = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/graduated-recovery", "--out", out.path, "--json", "--runs", "50",
            "--days", "14", "--population-users", "20", "--persona", "steady:50", "struggling:50", "--economy-runs", "0", "--habit-runs",
            "0",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let population = try #require(report["population"] as? [String: Any])
        #expect(population["users"] as? Int == 20 && population["days"] as? Int == 14)
        #expect((population["personas"] as? String)?.contains("struggling") == true)
        let metrics = try #require(population["metrics"] as? [[String: Any]])
        let names = metrics.compactMap { $0["name"] as? String }
        #expect(names.contains("user-days at tier 3") && names.contains("reminders per user-day"))
        for metric in metrics {
            let a = try #require(metric["a"] as? Double), b = try #require(metric["b"] as? Double),
                d = try #require(metric["delta"] as? Double)
            #expect(abs((b - a) - d) < 1e-9)
        }
        // The same cohort: with identical rule sets every delta is 0.
        let same = try CLI.run([
            "compare", "rules", "rules", "--out", out.path, "--json", "--runs", "20", "--days", "10",
            "--population-users", "10", "--economy-runs", "0", "--habit-runs", "0",
        ])
        #expect(same.status == 0)
        let sameReport = try #require(try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
        let sameMetrics = try #require((sameReport["population"] as? [String: Any])?["metrics"] as? [[String: Any]])
        #expect(sameMetrics.allSatisfy { ($0["delta"] as? Double) == 0 })
    }

    /// The economy's half: two economies on the same Earned histories, each kind of difference
    /// shrunk to a replay file that `rulesrun replay` reproduces under both sets.
    @Test(arguments: [
        ("examples/gentle-pricing", ["gate_options", "unlock", "rollover", "credit_balance"]),
        ("examples/strict-quests", ["gate_options", "unlock"]),
        ("examples/surge-pricing", ["gate_options", "unlock"]),
    ])
    func anotherEconomyDiffersAndItsReplayFilesReproduceIt(folder: String, kinds: [String]) throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            // Three-day histories: the kinds and the bound on a shrunk history below were set for them
            // (over the default 14 days surge-pricing also shows a quest extended, in 10 events).
            "compare", "rules", folder, "--runs", "5", "--population-users", "0", "--economy-runs", "30", "--economy-days", "3",
            "--habit-runs", "0", "--out", out.path, "--json",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let report = try object(result.stdout)
        #expect(report["identical"] as? Bool == false)
        let economy = try #require(report["economy"] as? [String: Any])
        let differences = try #require(economy["differences"] as? [[String: Any]])
        let found = differences.compactMap { $0["kind"] as? String }
        for kind in kinds { #expect(found.contains(kind), "\(found)") }
        for difference in differences {
            let file = try #require(difference["replay_file"] as? String)
            let first = try #require((difference["first_diverging_event"] as? [String: Any])?["event_number"] as? Int)
            let a = try CLI.run(["replay", file, "--rules", "rules"]), b = try CLI.run(["replay", file, "--rules", folder])
            let linesA = a.stdout.split(separator: "\n"), linesB = b.stdout.split(separator: "\n")
            #expect(linesA.count == linesB.count && linesA.count >= first)
            // The first diverging event prints differently under the two sets (other fields may differ before it).
            #expect(linesA[first - 1] != linesB[first - 1])
            #expect((difference["events_beyond_setup"] as? Int ?? 99) <= 8, "\(difference)")
        }
    }

    /// The habit tracker's half: Loop Habit Tracker's streaks against the default rule's on the
    /// same habit histories; the streak difference is shrunk to a short replay file that
    /// `rulesrun replay` reproduces under both sets at the reported event.
    @Test func loopHabitsStreaksDifferAndTheirReplayFileReproducesIt() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = [
            "compare", "rules", "examples/loop-habits", "--runs", "5", "--population-users", "0", "--economy-runs", "0",
            "--habit-runs", "10", "--habit-days", "14", "--out", out.path,
        ]
        let result = try CLI.run(arguments + ["--json"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let report = try object(result.stdout)
        #expect(report["identical"] as? Bool == false)
        let habits = try #require(report["habits"] as? [String: Any])
        #expect(habits["histories"] as? Int == 10 && habits["days"] as? Int == 14)
        let differences = try #require(habits["differences"] as? [[String: Any]])
        let streak = try #require(differences.first { $0["kind"] as? String == "habit_streak" }, "\(differences.map { $0["kind"] ?? "" })")
        #expect((streak["events_beyond_setup"] as? Int ?? 99) <= 5, "\(streak)")
        let file = try #require(streak["replay_file"] as? String)
        #expect(file == out.appendingPathComponent("habit-habit_streak.jsonl").path)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("# rulesrun compare rules examples/loop-habits: the habit tracker's habit_streak differs\n"), "\(text)")
        #expect(text.split(separator: "\n").count <= 4 + 8, "\(text)")
        let event = try #require(streak["first_diverging_event"] as? [String: Any])
        let first = try #require(event["event_number"] as? Int)
        let a = try CLI.run(["replay", file, "--rules", "rules"]), b = try CLI.run(["replay", file, "--rules", "examples/loop-habits"])
        let linesA = a.stdout.split(separator: "\n").map(String.init), linesB = b.stdout.split(separator: "\n").map(String.init)
        #expect(linesA.count == linesB.count && linesA.count >= first)
        func streaks(_ line: String) throws -> NSDictionary? {
            ((try object(line))["state"] as? [String: Any])?["habit_streaks"] as? NSDictionary
        }
        #expect(try streaks(linesA[first - 1]) != streaks(linesB[first - 1]), "\(linesA[first - 1])\n\(linesB[first - 1])")
        #expect(try streaks(linesA[first - 1]) == event["a"] as? NSDictionary)
        for i in 0..<(first - 1) { #expect(try streaks(linesA[i]) == streaks(linesB[i]), "event \(i + 1)") }
        // Every habit difference has its file; the text says the habits decide the exit status.
        for difference in differences {
            let kind = try #require(difference["kind"] as? String)
            #expect(difference["replay_file"] as? String == out.appendingPathComponent("habit-\(kind).jsonl").path)
        }
        let text2 = try CLI.run(arguments)
        #expect(text2.status == 1)
        #expect(text2.stdout.contains("\nhabits: 10 habit histories of 14 days from seed 1, replayed through the engine under A and B\n"))
        #expect(text2.stdout.contains("\n  habit_streak: first in habit case "), "\(text2.stdout)")
        #expect(text2.stdout.hasSuffix("exit 1: A and B differ in the habits\n"), "\(text2.stdout)")
    }

    /// A file of the user's with a habit replay file's name is refused, never overwritten; one
    /// compare wrote is removed as stale.
    @Test func theHabitReplayFilesAreCleanedUpAndAUsersFileIsKept() throws {
        let out = try CLI.folder([
            "habit-habit_score.jsonl": "# rulesrun compare rules other: the habit tracker's habit_score differs\n{}\n",
            "habit-error.jsonl": "my notes\n",
        ])
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = [
            "compare", "rules", "examples/graduated-recovery", "--runs", "200", "--population-users", "0", "--economy-runs", "0",
            "--habit-runs", "2", "--out", out.path,
        ]
        let refused = try CLI.run(arguments)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains(
                "--out \(out.path): \(out.path)/habit-error.jsonl has a name compare gives its replay files but does not start with \"# rulesrun compare\"; refusing to overwrite it"
            ), "\(refused.stderr)")
        #expect(try String(contentsOf: out.appendingPathComponent("habit-error.jsonl"), encoding: .utf8) == "my notes\n")
        try FileManager.default.removeItem(at: out.appendingPathComponent("habit-error.jsonl"))
        let result = try CLI.run(arguments)
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("habit-habit_score.jsonl").path))
    }

    /// Earned's economy in the population half: gentler prices sell more credit unlocks, each for
    /// fewer credits, to the same cohort; Pressure's metrics stay the same.
    @Test func thePopulationComparisonShowsTheEconomies() throws {
        let out = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/gentle-pricing", "--out", out.path, "--json", "--runs", "20", "--days", "10",
            "--economy-runs", "0", "--habit-runs", "0", "--population-users", "40", "--no-responses",
        ])
        #expect(result.status == 0, "\(result.stderr)")  // the Pressure histories do not differ (the economy's half skipped)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let metrics = try #require((report["population"] as? [String: Any])?["metrics"] as? [[String: Any]])
        func delta(_ name: String) throws -> Double {
            try #require(metrics.first { $0["name"] as? String == name }?["delta"] as? Double, "\(name)")
        }
        #expect(try delta("credits per credit unlock") < 0)
        #expect(try delta("credit unlocks per user-day") > 0)
        // Without the responses (which tie earning and leaving to the gate), the other apps' figures are the same.
        #expect(try delta("YES rate") == 0 && delta("user-days at tier 3") == 0 && delta("credits earned per user-day") == 0)
        let text = try CLI.run([
            "compare", "rules", "examples/strict-quests", "--out", out.path, "--runs", "20", "--days", "10",
            "--economy-runs", "0", "--habit-runs", "0", "--population-users", "20",
        ])
        #expect(text.stdout.contains("quest unlocks per user-day"), "\(text.stdout)")
    }

    /// Shrinking a long history builds its candidates one at a time: memory stays flat (building
    /// them all at once took memory growing with the square of --days), and --days has a limit.
    @Test func longHistoriesShrinkInLittleMemoryAndDaysAreLimited() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let root = CLI.packageRoot
        let run = try CLI.peakMemory([
            "compare", root.appendingPathComponent("rules").path,
            root.appendingPathComponent("examples/graduated-recovery").path,
            "--days", "3660", "--runs", "1", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "--out", out.path,
        ])
        #expect(run.status == 1)
        #expect(run.maxRSSKilobytes < 300_000, "peak \(run.maxRSSKilobytes) kB")
        let tooLong = try CLI.run(["compare", "rules", "examples/graduated-recovery", "--days", "3661", "--out", out.path])
        #expect(tooLong.status == 2)
        #expect(
            tooLong.stderr.contains("The value '3661' is invalid for '--days <days>': expected a whole number from 1 to 3660"),
            "\(tooLong.stderr)")
    }

    /// Every count has a limit, checked before anything runs, and a negative number is a value to
    /// refuse (it was taken for a missing one); the message names the option the user gave.
    @Test func countsAreBoundedAndBadValuesNamed() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        for (arguments, expected) in [
            (
                ["--runs", "100000000000"],
                "The value '100000000000' is invalid for '--runs <runs>': expected a whole number from 1 to 1000000"
            ),
            (["--runs", "9223372036854775807", "--bench"], "'--runs <runs>': expected a whole number from 1 to 1000000"),
            (["--runs", "-1"], "The value '-1' is invalid for '--runs <runs>'"),
            (["--days", "-5"], "The value '-5' is invalid for '--days <days>': expected a whole number from 1 to 3660"),
            (["--seed", "-1"], "'--seed <seed>': expected a whole number from 0 to 18446744073709551615"),
            (["--population-users", "100000000"], "'--population-users <population-users>': expected a whole number from 0 to 10000000"),
            (["--economy-runs", "10001"], "'--economy-runs <economy-runs>': expected a whole number from 0 to 10000"),
            (["--economy-runs", "10000", "--economy-days", "5"], "--economy-runs 10000 × --economy-days 5: at most 40000 history-days"),
            (["--economy-days", "0"], "'--economy-days <economy-days>': expected a whole number from 1 to 3660"),
            (["--habit-runs", "10001"], "'--habit-runs <habit-runs>': expected a whole number from 0 to 10000"),
            (["--habit-runs", "2000", "--habit-days", "21"], "--habit-runs 2000 × --habit-days 21: at most 40000 history-days"),
            (["--habit-days", "0"], "'--habit-days <habit-days>': expected a whole number from 1 to 3660"),
            (["--ignore", "habit_streaks"], "--ignore habit_streaks: not a field ("),
            (["--ignore", ""], "--ignore: an empty kind in \"\""),
            (["--ignore", "reminders,"], "--ignore: an empty kind in \"reminders,\""),
            (["--persona", ":3"], "--persona: \":3\": the persona's name or file is missing before ':'"),
        ] {
            // The rule folders are loaded after the options are read: a bad option is named first.
            let folders =
                arguments[0] == "--ignore" || arguments[0] == "--persona"
                ? [
                    "rules", "examples/graduated-recovery", "--runs", "1", "--economy-runs", "0", "--habit-runs", "0", "--population-users",
                    "2",
                ]
                : ["no-such-a", "no-such-b"]
            let result = try CLI.run(["compare"] + folders + ["--out", out.path] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A rule set whose `transition` fails from 10 consecutive misses on (as the audit's scratch set).
    /// A variant that validates and fails from day 20 (`RuntimeFailure`). One folder for the suite's
    /// tests, which only read it: proved once in the test process, not once per test.
    static func failingFromDay20() throws -> URL { try failing.get() }
    private static let failing = Result {
        try CLI.folder([
            "extends": CLI.packageRoot.appendingPathComponent("rules").path,
            "escalation.lua": RuntimeFailure.error,
        ])
    }

    /// A rule error under B is not a day on which an expectation holds, and the report always says
    /// how many histories stopped at a rule error under each set.
    @Test func ruleErrorsAreCountedAndBreakExpectations() throws {
        let failing = try Self.failingFromDay20()
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let common = ["--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "--out", out.path]
        let expect = try CLI.run(["compare", "rules", failing.path, "--expect", "B.current_tier <= A.current_tier"] + common)
        #expect(expect.status == 1, "\(expect.stdout)")
        #expect(expect.stdout.contains("expect B.current_tier <= A.current_tier: BROKEN in "), "\(expect.stdout)")
        #expect(!expect.stdout.contains("every day of every history"))
        #expect(expect.stdout.contains("histories with a rule error: Pressure 0 under A, "), "\(expect.stdout)")

        let ignored = try CLI.run(["compare", "rules", failing.path, "--ignore", "error"] + RuntimeFailure.counters + common)
        #expect(ignored.status == 0, "\(ignored.stdout)")
        #expect(!ignored.stdout.contains("on every day\n") && ignored.stdout.contains("on every day compared"), "\(ignored.stdout)")

        let same = try CLI.run(["compare", failing.path, failing.path, "--json"] + common)
        #expect(same.status == 0)
        let stopped = try #require(try object(same.stdout)["histories_stopped_at_rule_error"] as? [String: Any])
        let a = try #require(stopped["a"] as? Int), b = try #require(stopped["b"] as? Int)
        #expect(a > 0 && a == b, "\(stopped)")
        let text = try CLI.run(["compare", failing.path, failing.path] + common)
        #expect(text.stdout.contains("histories with a rule error: Pressure \(a) under A, \(b) under B (of 100"), "\(text.stdout)")
        #expect(!text.stdout.contains("on every day\n"))
    }

    /// The population table shows the events each set refused (rule errors among them).
    @Test func thePopulationTableShowsRefusedEvents() throws {
        let failing = try Self.failingFromDay20()
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", failing.path, "--runs", "5", "--economy-runs", "0", "--habit-runs", "0", "--population-users", "10",
            "--out", out.path, "--json",
        ])
        let metrics = try #require((try object(result.stdout)["population"] as? [String: Any])?["metrics"] as? [[String: Any]])
        let refused = try #require(metrics.first { $0["name"] as? String == "refused events" }, "\(metrics)")
        let a = try #require(refused["a"] as? Double), b = try #require(refused["b"] as? Double)
        #expect(a == 0 && b > 0 && refused["delta"] as? Double == b, "\(refused)")
    }

    /// --out is checked before anything runs: not a folder, or a folder that cannot be made, is
    /// invalid input (2) naming the path.
    @Test func aBadOutIsRefusedBeforeRunning() throws {
        for path in ["README.md", "/proc/nope"] {
            let result = try CLI.run(["compare", "rules", "examples/graduated-recovery", "--out", path])
            #expect(result.status == 2, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("--out \(path): "), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// A second run into the same folder removes the first run's replay files, and only those; a
    /// file of the user's with a name compare gives is refused before anything runs, never
    /// overwritten.
    @Test func aSecondRunRemovesTheFirstRunsReplayFilesOnly() throws {
        let out = try CLI.folder([
            "shield.jsonl": "# rulesrun compare rules other: shield differs\n{}\n",
            "expectation-2.jsonl": "# rulesrun compare rules other: expect B.current_tier <= A.current_tier differs\n{}\n",
            "economy-unlock.jsonl": "user data\n",
            "notes.txt": "# rulesrun compare notes\n",
        ])
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = [
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/graduated-recovery",
            "--ignore", "reminders", "consecutive_successes", "--out", out.path,
        ]
        let refused = try CLI.run(arguments)
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains(
                "--out \(out.path): \(out.path)/economy-unlock.jsonl has a name compare gives its replay files but does not start with \"# rulesrun compare\"; refusing to overwrite it"
            ), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(try String(contentsOf: out.appendingPathComponent("economy-unlock.jsonl"), encoding: .utf8) == "user data\n")
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == [
                "shield.jsonl", "expectation-2.jsonl", "economy-unlock.jsonl", "notes.txt",
            ])

        try FileManager.default.moveItem(
            at: out.appendingPathComponent("economy-unlock.jsonl"), to: out.appendingPathComponent("mine.jsonl"))
        let result = try CLI.run(arguments)
        #expect(result.status == 1)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(names == ["current_tier.jsonl", "mine.jsonl", "notes.txt"], "\(names)")
    }

    /// --out is not one of the rule folders (however it is spelled): its replay files would go
    /// among the rules.
    @Test func theOutFolderIsNotARuleFolder() throws {
        let rules = CLI.packageRoot.appendingPathComponent("rules").path
        let dir = try CLI.folder([
            "b/escalation.lua": try String(
                contentsOf: CLI.packageRoot.appendingPathComponent("examples/graduated-recovery/escalation.lua"), encoding: .utf8),
            "b/extends": rules,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let b = dir.appendingPathComponent("b").path
        for path in [b, "\(dir.path)/b/../b/"] {
            let result = try CLI.run(["compare", "rules", b, "--out", path])
            #expect(result.status == 2, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("--out \(path): is rule set B \(b), an input; refusing to write over it"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: b).sorted() == ["escalation.lua", "extends"])
    }

    /// An event B refuses: the table says so, with its code, and shows B's state as it stayed.
    @Test func aRefusedEventIsShownAsRefused() throws {
        let failing = try Self.failingFromDay20()
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let common = [
            "compare", "rules", failing.path, "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0",
            "--out", out.path,
        ]
        let text = try CLI.run(common)
        #expect(text.stdout.contains("refused (RULE_ERROR), unchanged"), "\(text.stdout)")
        #expect(!text.stdout.contains("→ -"), "\(text.stdout)")
        let json = try CLI.run(common + ["--json"])
        let error = try #require((try object(json.stdout)["differences"] as? [[String: Any]])?.first { $0["kind"] as? String == "error" })
        let first = try #require(error["first_diverging_event"] as? [String: Any])
        let b = try #require(first["b"] as? [String: Any]), a = try #require(first["a"] as? [String: Any])
        #expect(b["refused"] as? String == "RULE_ERROR" && a["refused"] is NSNull)
        #expect((b["after"] as? [String: Any])?["current_tier"] as? Int == (b["before"] as? [String: Any])?["current_tier"] as? Int)
    }

    /// The Pressure line says it is about the Pressure histories, and the last line which part
    /// decided the exit status.
    @Test func theReportSaysWhichPartDiffers() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/gentle-pricing", "--runs", "20", "--economy-runs", "10", "--habit-runs", "2",
            "--population-users", "0", "--out", out.path,
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "habits: 2 habit histories of 21 days from seed 1, replayed through the engine under A and B\n  no difference: "))
        #expect(result.stdout.contains("Pressure histories: no difference: "), "\(result.stdout)")
        #expect(!result.stdout.contains("\nno difference: "))
        #expect(result.stdout.hasSuffix("exit 1: A and B differ in the economy\n"), "\(result.stdout)")
    }

    /// When both sets are invalid, the problems of both are printed.
    @Test func bothInvalidFoldersAreReported() throws {
        let a = try CLI.folder(["escalation.lua": "return { max_tier = 3 }", "streaks.lua": "return {}"])
        let b = try CLI.folder(["escalation.lua": "return {", "streaks.lua": "return {}"])
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        let result = try CLI.run(["compare", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", a.path, b.path])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("\(a.path): the rule set is not valid")
                && result.stderr.contains("\(b.path): the rule set is not valid"),
            "\(result.stderr)")
    }

    /// Paths with spaces are shell-quoted in the printed commands and the files' headers: the
    /// printed command runs as it is.
    @Test func pathsWithSpacesAreQuoted() throws {
        let root = try CLI.folder(["my rules/extends": CLI.packageRoot.appendingPathComponent("examples/graduated-recovery").path])
        defer { try? FileManager.default.removeItem(at: root) }
        let rules = root.appendingPathComponent("my rules").path, out = root.appendingPathComponent("out dir").path
        let result = try CLI.run([
            "compare", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules", rules, "--out", out,
            "--ignore", "reminders", "consecutive_successes",
        ])
        #expect(result.status == 1)
        let command = try #require(
            result.stdout.split(separator: "\n").first { $0.contains("rulesrun replay") && $0.hasSuffix("'\(rules)'") },
            "\(result.stdout)")
        #expect(command.contains("rulesrun replay '\(out)/current_tier.jsonl' --rules '\(rules)'"), "\(command)")
        let header = try String(contentsOfFile: out + "/current_tier.jsonl", encoding: .utf8)
        #expect(header.contains("rulesrun compare rules '\(rules)': current_tier differs"), "\(header)")
        let shell = try CLI.run(
            ["-c", command.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "rulesrun ", with: "'\(CLI.executable.path)' ")],
            executableURL: URL(fileURLWithPath: "/bin/sh"))
        #expect(shell.status == 0 && shell.stdout.contains("\"current_tier\""), "\(shell.stderr)")
    }

    /// --ignore takes the economy's kinds too.
    @Test func theEconomysKindsCanBeIgnored() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/gentle-pricing", "--runs", "5", "--economy-runs", "10", "--population-users", "0",
            "--habit-runs", "0", "--out", out.path, "--json", "--ignore", "gate_options", "credit_balance",
        ])
        #expect(result.status != 2, "\(result.stderr)")
        let report = try object(result.stdout)
        #expect(report["ignored"] as? [String] == ["gate_options", "credit_balance"])
        let kinds = ((report["economy"] as? [String: Any])?["differences"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(!kinds.contains("gate_options") && !kinds.contains("credit_balance") && kinds.contains("unlock"), "\(kinds)")
    }

    /// The habit tracker's kinds are ignored like the others; `error` is every half's.
    @Test func theHabitKindsCanBeIgnored() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/loop-habits", "--runs", "5", "--economy-runs", "0", "--population-users", "0",
            "--habit-runs", "10", "--habit-days", "14", "--out", out.path, "--json",
            "--ignore", "habit_score,error", "habit_best_streaks",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try object(result.stdout)
        #expect(report["ignored"] as? [String] == ["error", "habit_best_streaks", "habit_score"], "\(report["ignored"] ?? "")")
        let kinds = ((report["habits"] as? [String: Any])?["differences"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds == ["habit_streak"] || kinds == ["habit_streak", "habit_decision"], "\(kinds)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("habit-habit_score.jsonl").path))
    }

    /// A bad persona is reported before the differential and economy halves run.
    @Test func aBadPersonaIsReportedBeforeRunning() throws {
        let start = Date()
        let result = try CLI.run(["compare", "rules", "examples/graduated-recovery", "--runs", "300000", "--persona", "nosuch"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no persona named 'nosuch'"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(start) < 30)
    }

    /// --json shows the first diverging event as an object.
    @Test func theFirstDivergingEventIsAnObjectInJSON() throws {
        let out = outFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/gentle-pricing", "--runs", "20", "--economy-runs", "10", "--habit-runs", "0",
            "--population-users", "0", "--out", out.path, "--json",
        ])
        let economy = try #require((try object(result.stdout)["economy"] as? [String: Any])?["differences"] as? [[String: Any]])
        let event = try #require((economy.first?["first_diverging_event"] as? [String: Any])?["event"] as? [String: Any])
        #expect(event["user"] as? String == "u1" && event["type"] is String, "\(event)")
        let pressure = try CLI.run([
            "compare", "--runs", "100", "--population-users", "0", "--economy-runs", "0", "--habit-runs", "0", "rules",
            "examples/graduated-recovery",
            "--out", out.path, "--json",
        ])
        let tier = try #require(
            (try object(pressure.stdout)["differences"] as? [[String: Any]])?.first { $0["kind"] as? String == "current_tier" })
        let checkIn = try #require((tier["first_diverging_event"] as? [String: Any])?["event"] as? [String: Any])
        #expect(checkIn["type"] as? String == "check_in" && checkIn["result"] as? String == "YES", "\(checkIn)")
    }

    /// --bench exits 1 when the walk finds a difference, as without it.
    @Test func benchExitsOneWhenTheSetsDiffer() throws {
        let differ = try CLI.run(["compare", "rules", "examples/graduated-recovery", "--bench", "--runs", "50"])
        #expect(differ.status == 1, "\(differ.stdout)\(differ.stderr)")
        let same = try CLI.run(["compare", "rules", "rules", "--bench", "--runs", "20"])
        #expect(same.status == 0, "\(same.stderr)")
        let holds = try CLI.run([
            "compare", "rules", "examples/graduated-recovery", "--bench", "--runs", "50", "--expect", "B.current_tier >= A.current_tier",
        ])
        #expect(holds.status == 0)
    }
}
