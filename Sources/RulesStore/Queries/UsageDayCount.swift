import RulesModel

/// MIGA usage events of one local day, per event type and target app.
public struct UsageDayCount: Hashable, Sendable {
    public var day: DayID
    public var eventType: UsageEventType
    public var targetAppName: String
    public var count: Int
    /// Sum of `pauseDuration` in seconds.
    public var pauseSeconds: Double

    public init(day: DayID, eventType: UsageEventType, targetAppName: String, count: Int, pauseSeconds: Double) {
        self.day = day
        self.eventType = eventType
        self.targetAppName = targetAppName
        self.count = count
        self.pauseSeconds = pauseSeconds
    }
}
