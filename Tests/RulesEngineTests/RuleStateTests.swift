import Foundation
import RulesEngine
import Testing

/// Rules keep no state in Lua between calls: `validate` refuses a rule file whose function assigns
/// a local of the file, at the line of the assignment; every shipped rule set still loads.
@Suite struct RuleStateTests {
    @Test func aCounterInTransitionIsRefusedAtItsLine() throws {
        let problems = try RuleFixture.problems(edits: [
            ("local M = {}\n", "local M = {}\nlocal calls = 0\n"),
            ("function M.transition(state, check_in)\n", "function M.transition(state, check_in)\n  calls = calls + 1\n"),
        ])
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.file == "escalation.lua")
        #expect(problem.line == (try RuleFixture.line(of: "function M.transition(")) + 2)
        #expect(
            problem.message == "function 'transition' assigns to 'calls', a local of the file: "
                + "rules keep no state between calls (use a local inside the function)", "\(problem)")
    }

    @Test func aRuleReadingLocalsOfTheFileIsFine() throws {
        let source = try RuleFixture.edited([
            ("local M = {}\n", "local M = {}\nlocal zero = 0\n"),
            (
                "  local result = check_in.result\n",
                "  local result = check_in.result\n  local local_count = zero\n  local_count = local_count + 1\n"
            ),
        ])
        let dir = try RuleFixture.folder(with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try RuleSet.load(dir.path, proving: false)
    }

    @Test func everyShippedRuleSetLoads() throws {
        let root = RuleFixture.rulesFolder.deletingLastPathComponent()
        let examples = root.appendingPathComponent("examples")
        let folders = try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted().filter { name in
            FileManager.default.fileExists(atPath: examples.appendingPathComponent(name).appendingPathComponent("extends").path)
                || (try? FileManager.default.contentsOfDirectory(atPath: examples.appendingPathComponent(name).path))?
                    .contains { RuleSet.fileNames.contains($0) } == true
        }
        #expect(folders.count >= 4, "\(folders)")
        _ = try RuleSet.load(RuleFixture.rulesFolder.path, proving: false)
        for name in folders { _ = try RuleSet.load(examples.appendingPathComponent(name).path, proving: false) }
    }
}
