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
}
