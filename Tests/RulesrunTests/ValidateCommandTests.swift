import Foundation
import Testing

@Suite struct ValidateCommandTests {
    @Test func theDefaultRuleSetIsValid() throws {
        let result = try CLI.run(["validate", "rules"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("rules: valid (escalation.lua, streaks.lua, pricing.lua, quests.lua, modes.lua; 14 rule functions proved on "))
    }

    @Test func everyProblemIsPrintedWithFileAndLine() throws {
        let source = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/escalation.lua"), encoding: .utf8)
        let broken = source
            .replacingOccurrences(of: "M.max_tier = 3", with: "M.max_tier = \"three\"")
            .replacingOccurrences(of: "M.max_reminders_per_day = 3 ", with: "M.max_reminders_per_dya = 3 ")
        var files = ["escalation.lua": broken, "escalaton.lua": "return {}"]
        for name in ["streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            files[name] = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/\(name)"), encoding: .utf8)
        }
        let dir = try CLI.folder(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["validate", dir.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains("escalaton.lua: not a file of a rule set (expected escalation.lua, streaks.lua, pricing.lua, quests.lua, modes.lua); did you mean 'escalation.lua'?"))
        // The decoder stops at the first bad field of a file; each file reports its own.
        #expect(lines.contains { $0.hasPrefix("escalation.lua:") && ($0.contains("max_tier") || $0.contains("max_reminders_per_dya")) })
        #expect(result.stderr.contains("2 problems"))
    }

    @Test func aMissingFolderIsAnError() throws {
        let result = try CLI.run(["validate", "/nonexistent/rules"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("no such rule folder"))
    }
}
