import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

@Suite struct EngineReloadTests {
    @Test func aValidChangeIsSwappedInAndABrokenOneKeepsThePreviousSet() throws {
        let source = try RuleFixture.defaultSource()
        let dir = try RuleFixture.folder(with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = try Engine(store: Store.inMemory(), ruleFolder: dir.path)
        let replay = Replay(engine: engine)
        func tier(_ line: String) -> JSONValue? { replay.output(forLine: line, number: 1).at("state", "current_tier") }

        #expect(tier(Ev.commit(2)) == .int(0))
        #expect(tier(Ev.checkIn(2, "NO")) == .int(1))

        // A broken edit: reload fails with every problem, and the previous rules stay in force.
        try RuleFixture.edit(source, [("M.max_tier = 3", "M.max_tier = 9")])
            .write(to: dir.appendingPathComponent("escalation.lua"), atomically: true, encoding: .utf8)
        let error = try #require(throws: RuleSetError.self) { try engine.reload() }
        #expect(error.problems.first?.message.contains("max_tier") == true)
        #expect(tier(Ev.commit(3)) == .int(1))
        #expect(tier(Ev.checkIn(3, "NO")) == .int(2))

        // A valid edit (two misses for tier 1): swapped in at once for the next event.
        try RuleFixture.edit(source, [("M.tier_for_misses = { 1, 2, 3 }", "M.tier_for_misses = { 2, 3, 4 }")])
            .write(to: dir.appendingPathComponent("escalation.lua"), atomically: true, encoding: .utf8)
        try engine.reload()
        #expect(tier(Ev.commit(4)) == .int(2))
        #expect(tier(Ev.checkIn(4, "NO")) == .int(2))  // 3 misses: tier 2 under the new thresholds
    }
}
