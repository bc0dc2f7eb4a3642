import Foundation
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

/// A simulation's path (`Engine.recordingBatch`: each user's rows in memory, then `BulkWriter`)
/// decides and stores exactly what applying every event on its own, through the store, does.
@Suite struct RecordingBatchTests {
    @Test func recordedHistoriesGiveTheDatabaseOfEventsAppliedOneByOne() throws {
        let rules = try RuleSet.load(Repository.rules.path)
        let generator = HistoryGenerator(seed: 0x5EC_0D, days: 20...40, freshStart: true)
        let scripts = (0..<12).map { ReplayScript(generator.history(case: $0), user: "u\($0 + 1)") }
        let alone = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: rules)
        let recording = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: rules)
        recording.userID = { name in Int64(name.dropFirst()).map { UserID($0) } }
        func outcome(_ body: () throws(EngineError) -> JSONOut) -> String {
            do { return try body().description } catch { return "refused: \(error)" }
        }
        var records: [UserRecords] = []
        for script in scripts {
            let events = try script.lines.map { try EngineEvent.parse($0) }
            let expected = events.map { event in outcome { () throws(EngineError) in try alone.apply(event).decisions } }
            let (got, user) = try recording.recordingBatch {
                events.map { event in outcome { () throws(EngineError) in try recording.step(event).decisions } }
            }
            #expect(got == expected)
            records += user
        }
        #expect(try recording.store.users().isEmpty)   // nothing reaches the store before the bulk write
        try BulkWriter(store: recording.store).write(records)
        #expect(try recording.store.dump() == alone.store.dump())
        #expect(try recording.store.checkInvariants() == [])
    }
}
