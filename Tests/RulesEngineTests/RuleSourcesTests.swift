import Foundation
import RulesEngine
import Testing

/// A rule folder holds what it changes; `extends` names the folder the rest comes from.
@Suite struct RuleSourcesTests {
    func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sources-\(UUID().uuidString)")
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func theExamplesHoldOnlyWhatTheyChange() throws {
        let root = RuleFixture.rulesFolder.deletingLastPathComponent()
        let rules = try RuleSet.load(root.appendingPathComponent("examples/graduated-recovery").path)
        #expect(rules.fileLabels == ["escalation.lua", "rules/streaks.lua", "rules/pricing.lua", "rules/quests.lua", "rules/modes.lua"])
    }

    @Test func problemsInAnInheritedFileNameItsFolder() throws {
        let base = try String(contentsOf: RuleFixture.rulesFolder.appendingPathComponent("streaks.lua"), encoding: .utf8)
        let dir = try folder([
            "base/extends": RuleFixture.rulesFolder.path,
            "base/streaks.lua": RuleFixture.edit(base, [("bonus_credits = 10,", "bonus_credits = -1,")]),
            "child/extends": "../base",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("child").path) }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.file == "base/streaks.lua")
        #expect(error.problems.first?.line == (try RuleFixture.line(of: "bonus_credits = 10,", in: "streaks.lua")))
    }

    @Test func anInheritedKnobThatIsACycleIsReportedInItsFolder() throws {
        let base = try String(contentsOf: RuleFixture.rulesFolder.appendingPathComponent("pricing.lua"), encoding: .utf8)
        let dir = try folder([
            "base/extends": RuleFixture.rulesFolder.path,
            "base/pricing.lua": RuleFixture.edit(
                base, [("M.rollover_cap = 10\n", "M.rollover_cap = 10\nM.loop = {}\nM.loop.back = M.loop\n")]),
            "child/extends": "../base",
            "child/pricing.lua": "local M = base\nM.rollover_cap = 20\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("child").path) }
        #expect(
            error.problems.map(\.description) == [
                "base/pricing.lua:\(try RuleFixture.line(of: "M.rollover_cap = 10", in: "pricing.lua") + 2): loop.back: a cycle: the table loop contains itself here"
            ])
    }

    @Test func aByteOrderMarkAndAFirstHashLineAreReadAsLuaReadsAFile() throws {
        // As a Windows editor or a script-minded user writes them: BOM, CRLF, `#!` first line.
        let base = try String(contentsOf: RuleFixture.rulesFolder.appendingPathComponent("streaks.lua"), encoding: .utf8)
        let dir = try folder([
            "child/extends": "\u{FEFF}\(RuleFixture.rulesFolder.path)\r\n",
            "child/streaks.lua": "\u{FEFF}#!/usr/bin/env lua\n" + RuleFixture.edit(base, [("bonus_credits = 10,", "bonus_credits = -1,")]),
            "fine/extends": "\u{FEFF}\(RuleFixture.rulesFolder.path)\n",
            "fine/streaks.lua": "\u{FEFF}#!/usr/bin/env lua\n" + base,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try RuleSet.load(dir.appendingPathComponent("fine").path)
        #expect(rules.fileLabels.contains("streaks.lua"))
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("child").path) }
        #expect(error.problems.first?.file == "streaks.lua")
        #expect(error.problems.first?.line == (try RuleFixture.line(of: "bonus_credits = 10,", in: "streaks.lua")) + 1)
    }

    @Test func cyclesAndMissingBasesAreErrors() throws {
        let dir = try folder(["a/extends": "../b", "b/extends": "../a", "c/extends": "../nowhere", "d/extends": "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let cycle = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("a").path) }
        #expect(cycle.problems.first?.message.contains("cycle") == true)
        let missing = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("c").path) }
        #expect(missing.problems.first?.file == "extends")
        #expect(missing.problems.first?.message.contains("no such rule folder") == true)
        let empty = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("d").path) }
        #expect(empty.problems.first?.message.contains("names no folder") == true)
    }

    /// A file that extends another sees it as `base`: it changes a knob or a function and returns it.
    @Test func aFileChangesTheFileItExtendsThroughBase() throws {
        let dir = try folder([
            "child/extends": RuleFixture.rulesFolder.path,
            "child/pricing.lua":
                "local M = base\nM.rollover_cap = 25\nfunction M.carried_credits(balance) return math.min(balance, 3) end\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try RuleSet.load(dir.appendingPathComponent("child").path)
        #expect(rules.pricing.rolloverCap == 25)
        #expect(rules.pricing.creditCosts.map(\.credits) == [10, 25, 45])  // inherited
        #expect(try rules.carriedCredits(balance: 40) == 3)
        #expect(try rules.focusCredits(FocusOutcome(actualMinutes: 50, plannedMinutes: 50, completed: true)) == 10)
    }

    @Test func problemsOfAnExtendingFileNameTheFileThatWritesTheKnob() throws {
        let dir = try folder([
            "child/extends": RuleFixture.rulesFolder.path,
            "child/pricing.lua": "local M = base\n\nM.rollover_cap = -1\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("child").path) }
        #expect(error.problems.map(\.file) == ["pricing.lua"])
        #expect(error.problems.first?.line == 3)
        // An inherited knob is reported in the file that writes it.
        let broken = try folder([
            "base/extends": RuleFixture.rulesFolder.path,
            "base/quests.lua": try RuleFixture.edited([("session_minutes = 10,", "session_minutes = 0,")], in: "quests.lua"),
            "child/extends": "../base",
            "child/quests.lua": "local M = base\nM.quest.cooldown_minutes_per_app = 15\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: broken) }
        let inherited = try #require(throws: RuleSetError.self) { try RuleFixture.load(broken.appendingPathComponent("child").path) }
        #expect(inherited.problems.first?.file == "base/quests.lua")
        #expect(inherited.problems.first?.line == (try RuleFixture.line(of: "session_minutes = 10,", in: "quests.lua")))
    }

    @Test func whatAFileExtendsIsFrozenAfterLoadingAndStateCannotHide() throws {
        let dir = try folder([
            "a/extends": RuleFixture.rulesFolder.path,
            "a/pricing.lua": "local M = base\nfunction M.carried_credits(balance) M.rollover_cap = 0 return 0 end\nreturn M\n",
            "b/extends": RuleFixture.rulesFolder.path,
            "b/pricing.lua": "return 42\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        // Calling a function that changes the (now frozen) table fails, with the file and line.
        let a = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("a").path) }
        #expect(a.problems.contains { $0.file == "pricing.lua" && $0.message.contains("cannot") }, "\(a.problems)")
        let b = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("b").path) }
        #expect(b.problems.first?.message.contains("must return a table") == true)
    }

    // MARK: Hardening of `extends` and of the files read

    /// A sparse file of `bytes` bytes (no disk used), to show that nothing reads it whole.
    func sparseFile(_ url: URL, bytes: Int) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(bytes))
        try handle.close()
    }

    @Test func anExtendsFileWithTwoLinesIsAnErrorAtLine2() throws {
        let dir = try folder(["child/extends": "\(RuleFixture.rulesFolder.path)\n../elsewhere\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("child").path) }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.file == "extends")
        #expect(error.problems.first?.line == 2)
        #expect(
            error.problems.first?.message.hasPrefix("a second line, '../elsewhere': an `extends` file names one folder") == true,
            "\(error)")
        // Blank lines around the one path are fine.
        let fine = try folder(["child/extends": "\n  \(RuleFixture.rulesFolder.path)  \n\n"])
        defer { try? FileManager.default.removeItem(at: fine) }
        _ = try RuleSet.load(fine.appendingPathComponent("child").path, proving: false)
    }

    @Test func anExtendsThatIsADeviceOrADirectoryIsNamedForWhatItIs() throws {
        let dir = try folder(["child/pricing.lua": "return base\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = dir.appendingPathComponent("child")
        try FileManager.default.createSymbolicLink(atPath: child.appendingPathComponent("extends").path, withDestinationPath: "/dev/zero")
        let device = try #require(throws: RuleSetError.self) { try RuleFixture.load(child.path) }
        #expect(device.problems.map(\.description) == ["extends: not a regular file (a character device)"])
        try FileManager.default.removeItem(at: child.appendingPathComponent("extends"))
        try FileManager.default.createDirectory(at: child.appendingPathComponent("extends"), withIntermediateDirectories: false)
        let directory = try #require(throws: RuleSetError.self) { try RuleFixture.load(child.path) }
        #expect(directory.problems.map(\.description) == ["extends: not a regular file (a directory)"])
    }

    @Test func aRuleFileThatIsADirectoryIsNotReportedMissing() throws {
        let dir = try folder(["child/extends": RuleFixture.rulesFolder.path])
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = dir.appendingPathComponent("child")
        try FileManager.default.createDirectory(at: child.appendingPathComponent("escalation.lua"), withIntermediateDirectories: false)
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(child.path) }
        #expect(error.problems.map(\.description) == ["escalation.lua: not a regular file (a directory)"], "\(error)")
    }

    @Test func aHugeExtendsIsRefusedBeforeReadingWithAShortMessage() throws {
        let dir = try folder(["child/pricing.lua": "return base\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = dir.appendingPathComponent("child")
        try sparseFile(child.appendingPathComponent("extends"), bytes: 100 << 20)
        let start = ContinuousClock.now
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(child.path) }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.file == "extends")
        #expect(error.problems.first?.message.hasPrefix("the file is 104857600 bytes, more than the 4096") == true, "\(error)")
        #expect(error.description.count < 300)
        // A long path that names no folder is quoted in part.
        try FileManager.default.removeItem(at: child.appendingPathComponent("extends"))
        try String(repeating: "x", count: 3000).write(to: child.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        let long = try #require(throws: RuleSetError.self) { try RuleFixture.load(child.path) }
        #expect(long.problems.first?.file == "extends")
        #expect(long.problems.first?.message.contains("… (") == true, "\(long)")
        #expect(long.description.count < 300, "\(long)")
        // So is a long second line.
        try "../x\n\(String(repeating: "y", count: 3000))\n".write(
            to: child.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        let second = try #require(throws: RuleSetError.self) { try RuleFixture.load(child.path) }
        #expect(second.problems.first?.line == 2)
        #expect(second.description.count < 400, "\(second)")
    }

    @Test func aHugeRuleFileIsRefusedBeforeReading() throws {
        let dir = try folder(["child/extends": RuleFixture.rulesFolder.path])
        defer { try? FileManager.default.removeItem(at: dir) }
        let child = dir.appendingPathComponent("child")
        try sparseFile(child.appendingPathComponent("escalation.lua"), bytes: 300 << 20)
        let start = ContinuousClock.now
        let error = try #require(throws: RuleSetError.self) { try RuleSet.load(child.path, proving: false) }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(
            error.problems.map(\.description) == ["escalation.lua: the file is 314572800 bytes, more than the 4194304 allowed"],
            "\(error)")
    }

    // MARK: Blame in extending files

    func variantProblems(_ file: String, _ text: String) throws -> [RuleProblem] {
        let dir = try folder(["v/extends": RuleFixture.rulesFolder.path, "v/\(file)": text])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleFixture.load(dir.appendingPathComponent("v").path) }
        return error.problems
    }

    /// Two misspelt knobs of one table are two problems, each at its own line: the second was
    /// folded into the first's message ("also unknown: 'rolover_cap'") at the first's line.
    @Test func everyMisspeltKnobIsAProblemAtItsOwnLine() throws {
        var lines = try RuleFixture.defaultSource("pricing.lua").components(separatedBy: "\n")
        let cap = try #require(lines.firstIndex(of: "M.rollover_cap = 10"))
        lines.insert("M.rolover_cap = 10", at: cap + 1)
        let end = try #require(lines.lastIndex(of: "return M"))
        lines.insert("M.credit_cost = 3", at: end)
        let problems = try variantProblems("pricing.lua", lines.joined(separator: "\n"))
        #expect(
            problems.map(\.description) == [
                "pricing.lua:\(cap + 2): rolover_cap: unknown field (did you mean 'rollover_cap'?)",
                "pricing.lua:\(end + 1): credit_cost: unknown field (did you mean 'credit_costs'?)",
            ], "\(problems)")
    }

    /// A bad knob of the variant is its one problem: the base's knobs whose checks depend on it
    /// (one entry per tier 1…max_tier) are not problems of the base's lines.
    @Test(arguments: ["-0.0", "0", "5"])
    func checksThatDependOnAReportedKnobAreLeftOut(_ maxTier: String) throws {
        let problems = try variantProblems("escalation.lua", "local M = base\nM.max_tier = \(maxTier)\nreturn M\n")
        let found = maxTier == "5" ? "5" : "0"
        #expect(
            problems.map(\.description) == [
                "escalation.lua:2: max_tier: must be between 1 and 3 (the document's maximum tier), found \(found)"
            ], "\(problems)")
    }

    /// A check that fails on a knob the variant leaves as it was, because of a knob it changes,
    /// is the variant's: `tier_for_misses[2]` holds 2 in both files, and was blamed on
    /// rules/escalation.lua's line; only the variant's `{ 3, 2, 1 }` makes it fail.
    /// Each element out of order is a problem, though the check of one depends on the one before.
    @Test(arguments: [
        (
            "M.tier_for_misses = { 3, 2, 1 }",
            [
                "escalation.lua:2: tier_for_misses[2]: must be greater than tier 1's 3, found 2",
                "escalation.lua:2: tier_for_misses[3]: must be greater than tier 2's 2, found 1",
            ]
        ),
        (
            "M.tier_for_misses[1] = 3",
            [
                "escalation.lua:2: tier_for_misses[2]: must be greater than tier 1's 3, found 2 (it follows from the knobs this file changes: tier_for_misses[1])"
            ]
        ),
    ])
    func aCheckFailingOnAnInheritedKnobIsTheChangesCause(_ change: String, _ expected: [String]) throws {
        let problems = try variantProblems("escalation.lua", "local M = base\n\(change)\nreturn M\n")
        #expect(problems.map(\.description) == expected, "\(problems)")
    }

    /// A knob written through an alias or a loop is the variant's, at the line that names it (it was
    /// blamed on the base's line, rules/escalation.lua:52).
    @Test(arguments: [
        ("local M = base\nlocal shield = M.shield\nshield.per_month_paid = 5\nreturn M\n", 3),
        ("local M = base\nfor k, v in pairs({ per_month_paid = 5 }) do M.shield[k] = v end\nreturn M\n", 2),
    ])
    func aKnobWrittenIndirectlyIsTheVariants(_ text: String, _ line: Int) throws {
        let problems = try variantProblems("escalation.lua", text)
        #expect(
            problems.map(\.description) == [
                "escalation.lua:\(line): shield.per_month_paid: must be between 0 and 1 (\"Restart shields per month (paid): 1\"), found 5"
            ], "\(problems)")
    }

    /// A knob the variant changes makes the base's function break a constraint: the variant's line.
    @Test func aBadKnobReadByTheBasesFunctionIsTheVariants() throws {
        let problems = try variantProblems("escalation.lua", "local M = base\nM.reminders[1] = { \"mid\", \"close-600\" }\nreturn M\n")
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.file == "escalation.lua" && problems.first?.line == 2, "\(problems)")
        #expect(problems.first?.message.contains("outside the check-in window") == true, "\(problems)")
        #expect(problems.first?.message.contains("reads the knobs this file changes: reminders[1][2]") == true, "\(problems)")
    }

    /// The variant's function fails when the base's code calls it (and blames its caller): the
    /// variant's line, not the base's.
    @Test func aVariantsFunctionFailingUnderTheBasesCodeIsTheVariants() throws {
        let problems = try variantProblems(
            "modes.lua",
            """
            local M = base
            function M.window_active(window, now)
              error("no windows today", 2)
            end
            return M
            """)
        #expect(!problems.isEmpty && problems.allSatisfy { $0.file == "modes.lua" }, "\(problems)")
        #expect(problems.contains { $0.line == 3 && $0.message.hasPrefix("effective_mode(") }, "\(problems)")
    }

    /// A file that keeps most of the memory ceiling is charged for it; the files after it are not.
    @Test func aMemoryHungryFileIsReportedItself() throws {
        let problems = try variantProblems(
            "streaks.lua",
            """
            local M = base
            local junk = {}
            local unit = string.rep("x", 1024)
            for i = 1, 40 do junk[i] = string.rep(unit, 1024) end
            local bonus = M.earned.bonus
            function M.earned.bonus(n) if n < 0 then return #junk[1] end return bonus(n) end
            return M
            """)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.file == "streaks.lua", "\(problems)")
        #expect(problems.first?.message.contains("a rule file may keep") == true, "\(problems)")
    }

}
