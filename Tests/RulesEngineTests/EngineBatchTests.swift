import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// `Engine.batch`: one transaction, a savepoint per event, contexts kept in memory; the same
/// decisions and the same database as applying each event on its own.
@Suite struct EngineBatchTests {
    static let events = [
        #"{"at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris", "notifications_enabled": true}"#,
        #"{"at": "2026-03-02T07:01:00+01:00", "type": "subscription", "tier": "PAID"}"#,
        #"{"at": "2026-03-02T07:02:00+01:00", "type": "habit_task", "task": "read"}"#,
        #"{"at": "2026-03-02T08:15:00+01:00", "type": "commitment", "text": "Ship it"}"#,
        #"{"at": "2026-03-02T12:00:00+01:00", "type": "habit_completion", "task": "read"}"#,
        #"{"at": "2026-03-02T13:00:00+01:00", "type": "miga", "event": "exit_to_focus", "app": "X"}"#,
        #"{"at": "2026-03-02T13:00:00+01:00", "type": "miga", "event": "proceed_to_app", "app": "X"}"#,
        #"{"at": "2026-03-02T18:40:00+01:00", "type": "check_in", "result": "NO"}"#,
        #"{"at": "2026-03-02T18:50:00+01:00", "type": "shield"}"#,
        #"{"at": "2026-03-02T18:55:00+01:00", "type": "shield"}"#,
        #"{"at": "2026-03-03T08:00:00+01:00", "type": "commitment", "text": "Run"}"#,
        #"{"at": "2026-03-03T07:00:00+01:00", "type": "tick"}"#,
        #"{"at": "2026-03-03T23:30:00+01:00", "type": "tick"}"#,
        #"{"at": "2026-03-04T09:30:00+01:00", "type": "check_in", "result": "YES"}"#,
        #"{"at": "2026-03-04T10:00:00+01:00", "type": "habit_completion", "task": "walk"}"#,
        #"{"at": "2026-03-05T10:00:00+01:00", "type": "miga", "event": "exit_to_focus", "app": "X"}"#,
        #"{"at": "2026-03-05T10:00:00+01:00", "type": "habit_completion", "task": "read"}"#,
    ]

    @Test func aBatchDecidesAndStoresWhatEventsOnTheirOwnDo() throws {
        let rules = try RuleSet.load(RuleFixture.rulesFolder.path)
        let alone = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: rules)
        let batched = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: rules)
        let parsed = try Self.events.map { try EngineEvent.parse($0) }
        func outcome(_ body: () throws(EngineError) -> JSONValue) -> String {
            do { return try body().description } catch { return "refused: \(error)" }
        }
        let expected = parsed.map { event in outcome { () throws(EngineError) in try alone.apply(event).decisions } }
        let got = try batched.batch {
            parsed.map { event in outcome { () throws(EngineError) in try batched.applySummarized(event).decisions.json } }
        }
        #expect(got == expected)
        #expect(expected.contains { $0.hasPrefix("refused: ") })  // refused events roll back only themselves
        #expect(try batched.store!.dump() == alone.store!.dump())
    }

    /// The simulation's path: the user's rows in memory, written by `BulkWriter` afterwards. Refused
    /// events roll back only themselves there too (the records' savepoint).
    @Test func aRecordingBatchDecidesAndStoresWhatEventsOnTheirOwnDo() throws {
        let rules = try RuleSet.load(RuleFixture.rulesFolder.path)
        let alone = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: rules)
        let recording = Engine(rules: rules)  // no store: the rows stay in the records
        let store = try Store.inMemory(options: StoreOptions(deviceID: "x"))
        recording.userID = { _ in UserID(1) }
        let parsed = try Self.events.map { try EngineEvent.parse($0) }
        func outcome(_ body: () throws(EngineError) -> JSONValue) -> String {
            do { return try body().description } catch { return "refused: \(error)" }
        }
        let expected = parsed.map { event in outcome { () throws(EngineError) in try alone.apply(event).decisions } }
        let (got, records) = try recording.recordingBatch {
            parsed.map { event in outcome { () throws(EngineError) in try recording.applySummarized(event).decisions.json } }
        }
        #expect(got == expected)
        #expect(expected.contains { $0.hasPrefix("refused: ") })
        // The recording engine has no store to write to, and applies nothing outside a recording batch.
        #expect(recording.store == nil)
        #expect(throws: EngineError.self) { try recording.applySummarized(parsed[0]) }
        #expect(try store.users().isEmpty)  // nothing reaches the store before the bulk write
        try BulkWriter(store: store).write(records)
        #expect(try store.dump() == alone.store!.dump())
    }

    @Test func aFailedBatchKeepsNothing() throws {
        let engine = Engine(store: try Store.inMemory(), rules: try RuleSet.load(RuleFixture.rulesFolder.path))
        struct Stop: Error {}
        let before = try engine.store!.dump()
        #expect(throws: Stop.self) {
            try engine.batch {
                _ = try engine.applySummarized(try EngineEvent.parse(Self.events[0]))
                throw Stop()
            }
        }
        #expect(try engine.store!.dump() == before)
        // The engine is usable afterwards, from the store's state.
        #expect(try engine.apply(try EngineEvent.parse(Self.events[0])).state["current_tier"] == .int(0))
    }
}
