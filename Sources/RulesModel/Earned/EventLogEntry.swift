/// One row of Earned's append-only `event_log` (A3, A7).
public struct EventLogEntry: Hashable, Sendable, Validatable {
    public var userID: UserID
    public var eventID: String
    public var timestamp: EpochMillis
    public var timezoneID: String
    public var dayID: DayID
    public var payload: EventPayload
    public var createdAt: EpochMillis
    public var syncStatus: SyncStatus

    public init(
        userID: UserID, eventID: String, timestamp: EpochMillis, timezoneID: String, dayID: DayID, payload: EventPayload,
        createdAt: EpochMillis, syncStatus: SyncStatus = .localOnly
    ) {
        self.userID = userID
        self.eventID = eventID
        self.timestamp = timestamp
        self.timezoneID = timezoneID
        self.dayID = dayID
        self.payload = payload
        self.createdAt = createdAt
        self.syncStatus = syncStatus
    }

    public var type: EventType { payload.type }

    public func validate() throws {
        let check = FieldCheck("EventLogEntry")
        try check.identifier("event_id", eventID, maxBytes: 200)
        try check.timestamp("ts_utc_ms", timestamp)
        try check.timeZone("timezone_id", timezoneID)
        try check.timestamp("created_ts_utc_ms", createdAt)
        try payload.validate()
    }
}
