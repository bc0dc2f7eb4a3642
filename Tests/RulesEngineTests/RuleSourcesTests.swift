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
            "base/streaks.lua": base.replacingOccurrences(of: "bonus_credits = 10,", with: "bonus_credits = -1,"),
            "child/extends": "../base",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("child").path) }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.file == "base/streaks.lua")
        #expect(error.problems.first?.line == (try RuleFixture.line(of: "bonus_credits = 10,", in: "streaks.lua")))
    }

    @Test func cyclesAndMissingBasesAreErrors() throws {
        let dir = try folder(["a/extends": "../b", "b/extends": "../a", "c/extends": "../nowhere", "d/extends": "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let cycle = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("a").path) }
        #expect(cycle.problems.first?.message.contains("cycle") == true)
        let missing = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("c").path) }
        #expect(missing.problems.first?.file == "extends")
        #expect(missing.problems.first?.message.contains("no such rule folder") == true)
        let empty = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("d").path) }
        #expect(empty.problems.first?.message.contains("names no folder") == true)
    }

    /// A file that extends another sees it as `base`: it changes a knob or a function and returns it.
    @Test func aFileChangesTheFileItExtendsThroughBase() throws {
        let dir = try folder([
            "child/extends": RuleFixture.rulesFolder.path,
            "child/pricing.lua": "local M = base\nM.rollover_cap = 25\nfunction M.carried_credits(balance) return math.min(balance, 3) end\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try RuleSet.load(dir.appendingPathComponent("child").path)
        #expect(rules.pricing.rolloverCap == 25)
        #expect(rules.pricing.creditCosts.map(\.credits) == [10, 25, 45])   // inherited
        #expect(try rules.carriedCredits(balance: 40) == 3)
        #expect(try rules.focusCredits(FocusOutcome(actualMinutes: 50, plannedMinutes: 50, completed: true)) == 10)
    }

    @Test func problemsOfAnExtendingFileNameTheFileThatWritesTheKnob() throws {
        let dir = try folder([
            "child/extends": RuleFixture.rulesFolder.path,
            "child/pricing.lua": "local M = base\n\nM.rollover_cap = -1\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("child").path) }
        #expect(error.problems.map(\.file) == ["pricing.lua"])
        #expect(error.problems.first?.line == 3)
        // An inherited knob is reported in the file that writes it.
        let broken = try folder([
            "base/extends": RuleFixture.rulesFolder.path,
            "base/quests.lua": try String(contentsOf: RuleFixture.rulesFolder.appendingPathComponent("quests.lua"), encoding: .utf8)
                .replacingOccurrences(of: "session_minutes = 10,", with: "session_minutes = 0,"),
            "child/extends": "../base",
            "child/quests.lua": "local M = base\nM.quest.cooldown_minutes_per_app = 15\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: broken) }
        let inherited = try #require(throws: RuleSetError.self) { try RuleSet.load(broken.appendingPathComponent("child").path) }
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
        let a = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("a").path) }
        #expect(a.problems.contains { $0.file == "pricing.lua" && $0.message.contains("cannot") }, "\(a.problems)")
        let b = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("b").path) }
        #expect(b.problems.first?.message.contains("must return a table") == true)
    }
}
