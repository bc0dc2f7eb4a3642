import Foundation
import RulesEngine
import Testing

/// A rule set validated once is loaded again from the bytes it was validated from (`RuleSnapshot`):
/// what `rulesrun watch` gives its tests and its simulation, so that a cycle validates once and
/// runs what it validated even when a file is saved meanwhile.
@Suite struct RuleSnapshotTests {
    static let knob = (old: "M.recover_after = { 1, 2, 3 }", new: "M.recover_after = { 2, 2, 3 }")

    @Test func aSnapshotLoadsTheBytesValidatedNotTheFileSavedSince() throws {
        let dir = try RuleFixture.folder(with: RuleFixture.edited([Self.knob]))
        defer { try? FileManager.default.removeItem(at: dir) }
        let validated = try RuleSet.load(dir.path)
        #expect(validated.escalation.recoverAfter == [2, 2, 3])
        // Saved after validation: the default knob, then a file that does not even load.
        let escalation = dir.appendingPathComponent("escalation.lua")
        try RuleFixture.defaultSource().write(to: escalation, atomically: true, encoding: .utf8)
        #expect(try validated.snapshot.load().escalation.recoverAfter == [2, 2, 3])
        #expect(try RuleSet.load(dir.path, proving: false).escalation.recoverAfter == [1, 2, 3])
        try "local = 1".write(to: escalation, atomically: true, encoding: .utf8)
        let again = try validated.snapshot.load()
        #expect(again.escalation.recoverAfter == [2, 2, 3])
        #expect(again.host !== validated.host)
    }

    @Test func theTestRunnerGivenASnapshotRunsTheTestsAgainstItScenariosIncluded() throws {
        let dir = try RuleFixture.folder(with: RuleFixture.edited([Self.knob]))
        defer { try? FileManager.default.removeItem(at: dir) }
        let tests = dir.appendingPathComponent(RuleSet.testFolder)
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try """
        function test_one_yes_is_not_enough_to_leave_tier_1()
          local after = escalation.transition({ current_tier = 1, consecutive_misses = 1, consecutive_successes = 0 }, { result = "YES" })
          expect_eq(after.current_tier, 1)
        end
        """.write(to: tests.appendingPathComponent("recovery_test.lua"), atomically: true, encoding: .utf8)
        // A NO (tier 1), then a YES that leaves tier 1 only with the edited knob's two YES days.
        try """
        {"at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}
        {"at": "2026-03-02T08:00:00+01:00", "type": "commitment", "text": "Run 5 km"}
        {"at": "2026-03-02T20:00:00+01:00", "type": "check_in", "result": "NO"}
        {"at": "2026-03-03T08:00:00+01:00", "type": "commitment", "text": "Run 5 km"}
        {"at": "2026-03-03T20:00:00+01:00", "type": "check_in", "result": "YES", "expect": {"state.current_tier": 1}}
        """.write(to: tests.appendingPathComponent("recovery.jsonl"), atomically: true, encoding: .utf8)
        let validated = try RuleSet.load(dir.path)
        try RuleFixture.defaultSource().write(to: dir.appendingPathComponent("escalation.lua"), atomically: true, encoding: .utf8)

        let results = try RuleTestRunner.run(dir.path, validated: validated.snapshot)
        #expect(results.map(\.name) == ["recovery", "test_one_yes_is_not_enough_to_leave_tier_1"])
        #expect(results.allSatisfy { $0.outcome == .passed }, "\(results.map(\.failure))")
        // Without it, the runner validates the folder as it is now, where both fail.
        let now = try RuleTestRunner.run(dir.path)
        #expect(now.allSatisfy { $0.outcome == .failed })
    }

    @Test func anExtendsFileChangedSinceTheSnapshotNamesFilesItDoesNotHold() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let variant = root.appendingPathComponent("variant")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try RuleFixture.rulesFolder.path.write(to: variant.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        let validated = try RuleSet.load(variant.path)
        // Now its base is a copy of the default rules elsewhere: files the snapshot never read.
        let other = try RuleFixture.folder(with: RuleFixture.defaultSource())
        defer { try? FileManager.default.removeItem(at: other) }
        try other.path.write(to: variant.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        #expect {
            _ = try validated.snapshot.load()
        } throws: { error in
            let problems = (error as? RuleSetError)?.problems ?? []
            return problems.first?.description.contains("not part of the rule set as it was validated") == true
        }
    }
}
