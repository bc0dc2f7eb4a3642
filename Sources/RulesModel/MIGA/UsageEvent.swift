import Foundation

/// One interaction with MIGA's Gateway Screen (miga-data-model.md, "UsageEvent").
///
/// The seed's validation rules: the event type is one of three values; the timestamp is set;
/// `targetAppName` is not empty for `proceed_to_app`; `0 ≤ pauseDuration ≤ timerDuration`.
/// Decisions: durations are finite seconds; `timerDuration` is the configured timer at the time
/// of the event, so it is in the settings' range 15–45 s; `targetAppName` is at most 100
/// characters and may be empty for the other two event types.
public struct UsageEvent: Hashable, Sendable, Codable, Validatable {
    public var id: UUID
    public var userID: UserID
    public var eventType: UsageEventType
    public var timestamp: EpochMillis
    public var targetAppName: String
    /// Seconds on the Gateway Screen before the action.
    public var pauseDuration: Double
    /// The configured timer, in seconds, at the time of the event.
    public var timerDuration: Double

    public init(
        id: UUID = UUID(), userID: UserID, eventType: UsageEventType, timestamp: EpochMillis,
        targetAppName: String, pauseDuration: Double, timerDuration: Double
    ) {
        self.id = id
        self.userID = userID
        self.eventType = eventType
        self.timestamp = timestamp
        self.targetAppName = targetAppName
        self.pauseDuration = pauseDuration
        self.timerDuration = timerDuration
    }

    public func validate() throws {
        let check = FieldCheck("UsageEvent")
        try check.timestamp("timestamp", timestamp)
        if eventType == .proceedToApp || !targetAppName.isEmpty {
            try check.text("targetAppName", targetAppName, max: 100)
        }
        try check.finite("timerDuration", timerDuration)
        try check.range("timerDuration", timerDuration, MigaSettings.timerRange)
        try check.finite("pauseDuration", pauseDuration)
        try check.require(
            pauseDuration >= 0 && pauseDuration <= timerDuration, "pauseDuration",
            "between 0 and timerDuration (\(timerDuration))", "\(pauseDuration)")
    }
}
