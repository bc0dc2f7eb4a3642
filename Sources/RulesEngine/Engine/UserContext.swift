import Foundation
import RulesModel
import RulesStore

/// One user's state while the engine applies an event, and where its rows are (`storage`): read
/// at the start of the event (or of the batch), written back through the storage's operations.
struct UserContext {
    let userID: UserID
    let name: String
    var settings: UserSettings
    var escalation: EscalationState
    var book: EngineState
    var processedUntil: EpochMillis
    /// The first event of a user creates it.
    private(set) var isNew: Bool
    /// What this context has read from its storage, kept while it lives: for one event, or for a
    /// whole `Engine.batch`, in which only this engine writes the user's rows (so the engine's
    /// own writes keep these up to date). Never persisted.
    var cache = ReadCache()
    /// Where the user's rows are read and written: the store, or, in a recording batch
    /// (`Engine.recordingBatch`), the user's `UserRecords` in memory. Shared by the copies of this
    /// context. The engine reaches the rows only through it, so that a recording batch, which has
    /// no store, cannot write to one.
    let storage: any UserStorage

    /// The context as the next event of the same batch starts from it.
    func reopened() -> UserContext {
        var copy = self
        copy.reopen()
        return copy
    }

    /// Makes this context the one the next event of the same batch starts from.
    mutating func reopen() {
        isNew = false  // the cache stays: the batch's writes went through this engine
    }

    /// What an event may change in a context besides its records and cache (see `restore(_:)`).
    struct Saved {
        let settings: UserSettings
        let escalation: EscalationState
        let book: EngineState
        let processedUntil: EpochMillis
    }

    var saved: Saved { Saved(settings: settings, escalation: escalation, book: book, processedUntil: processedUntil) }

    /// Back to `saved` after a refused event whose records were rolled back: the cache, which may
    /// hold what the event read or wrote, is dropped (it fills again from the records).
    mutating func restore(_ saved: Saved) {
        settings = saved.settings
        escalation = saved.escalation
        book = saved.book
        processedUntil = saved.processedUntil
        cache = ReadCache()
    }

    /// Loads the user named `name`, creating it (with the default settings) at `now` if needed,
    /// with the id `id` when given (else the next free one).
    static func load(_ name: String, store: Store, now: EpochMillis, id: UserID? = nil) throws -> UserContext {
        if let row = try store.read({ try $0.engineState(named: name) }) {
            let book = try JSONDecoder().decode(EngineState.self, from: Data(row.stateJSON.utf8))
            let (settings, escalation) = try store.read { (try $0.pressureSettings(row.userID), try $0.escalationState(row.userID)) }
            return UserContext(
                userID: row.userID, name: name, settings: settings, escalation: escalation, book: book,
                processedUntil: row.processedUntil, isNew: false, storage: store)
        }
        let userID = try id ?? store.read { try $0.nextUserID() }
        try store.createUser(userID, day: DayID(utcMillis: now), timezoneID: "UTC", now: now, makeUUID: presetIDs(name))
        let (settings, escalation) = try store.read { (try $0.pressureSettings(userID), try $0.escalationState(userID)) }
        return UserContext(
            userID: userID, name: name, settings: settings, escalation: escalation, book: EngineState(),
            processedUntil: now, isNew: true, storage: store)
    }

    /// A new user named `name` with the id `id`, created at `now` with the default settings, its
    /// rows held in memory (its `storage`), and those rows.
    static func new(_ name: String, id: UserID, now: EpochMillis) throws -> (context: UserContext, records: UserRecords) {
        let records = try UserRecords(id, day: DayID(utcMillis: now), timezoneID: "UTC", now: now, makeUUID: presetIDs(name))
        let context = UserContext(
            userID: id, name: name, settings: records.pressureSettings, escalation: records.escalationState,
            book: EngineState(), processedUntil: now, isNew: true, storage: records)
        return (context, records)
    }

    /// The ids of a new user's preset categories.
    private static func presetIDs(_ name: String) -> () -> UUID {
        var counter = 0
        return {
            counter += 1
            return DeterministicID.uuid("user", name, "preset", String(counter))
        }
    }

    /// Writes the engine's bookkeeping of the user (`engine_state`) to its storage.
    func save() throws {
        // `JSONEncoder` with sorted keys, as the rows always had it: the model's encoder writes the
        // same text except for the slashes, which `JSONEncoder` escapes (a slash can only be in a
        // string). Several times faster than `JSONEncoder` (2 % of an in-memory simulation).
        // The slashes escaped byte by byte (Foundation's `replacingOccurrences` bridged to NSString:
        // 7 % of a replay's time, which saves at every event).
        var json: [UInt8] = []
        for byte in try ModelJSON.encode(book).utf8 {
            if byte == UInt8(ascii: "/") { json.append(UInt8(ascii: "\\")) }
            json.append(byte)
        }
        try storage.saveEngineState(
            EngineStateRow(userID: userID, name: name, processedUntil: processedUntil, stateJSON: String(decoding: json, as: UTF8.self)))
    }
}
