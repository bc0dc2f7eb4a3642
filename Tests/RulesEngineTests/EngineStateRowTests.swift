import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// The engine's bookkeeping row (`engine_state.state_json`): the text `JSONEncoder` writes with
/// sorted keys (slashes escaped), whichever encoder makes it, and read back by another engine.
@Suite struct EngineStateRowTests {
    func line(_ at: String, _ fields: String) -> String { #"{"at": "\#(at)", \#(fields)}"# }

    @Test func theStateIsJSONEncodersTextWithSlashesEscapedAndReadsBack() throws {
        let store = try Store.inMemory()
        let first = Replay(engine: try Engine(store: store, ruleFolder: RuleFixture.rulesFolder.path))
        let defined = first.output(forLine: line("2026-03-02T07:01:00Z", #""type": "habit_task", "task": "read/write""#), number: 1)
        #expect(defined["ok"] == .bool(true), "\(defined)")
        let row = try #require(try store.read { try $0.engineState(named: "u1") })
        let text = row.stateJSON
        #expect(text.contains(#""tasks":{"read\/write":""#), "\(text)")
        #expect(!text.contains("read/write"))
        // JSONEncoder's own text for the same value (the user has only a task), keys sorted: byte for byte.
        struct TasksOnly: Codable { var tasks: [String: UUID] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let decoded = try JSONDecoder().decode(TasksOnly.self, from: Data(text.utf8))
        #expect(decoded.tasks.keys.sorted() == ["read/write"])
        #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == text)

        // Another engine on the same database finds the task by its name in the row.
        let second = Replay(engine: try Engine(store: store, ruleFolder: RuleFixture.rulesFolder.path))
        let done = second.output(forLine: line("2026-03-02T08:00:00Z", #""type": "habit_completion", "task": "read/write""#), number: 2)
        #expect(done["ok"] == .bool(true), "\(done)")
        #expect(done["decisions"]?["habit_completion"]?["current_streak"] == .int(1), "\(done)")
    }
}
