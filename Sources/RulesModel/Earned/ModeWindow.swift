/// A weekly schedule window of an Earned mode (`mode_window`, A3).
///
/// Decisions: bit 0 of `days_of_week_mask` is Monday … bit 6 Sunday (ISO order; the seed does
/// not say). A window whose end is before its start runs overnight. start == end is stored as
/// given: what it means (the whole day, or nothing) is policy, decided by the rules (modes.lua
/// `equal_bounds_mean_all_day`).
public struct ModeWindow: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var windowID: String
    public var modeID: String
    public var daysOfWeekMask: Int
    public var startLocal: LocalTime
    public var endLocal: LocalTime
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, windowID: String, modeID: String, daysOfWeekMask: Int, startLocal: LocalTime, endLocal: LocalTime,
        createdAt: EpochMillis, updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.windowID = windowID
        self.modeID = modeID
        self.daysOfWeekMask = daysOfWeekMask
        self.startLocal = startLocal
        self.endLocal = endLocal
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func includes(_ weekday: Weekday) -> Bool { daysOfWeekMask & (1 << (weekday.rawValue - 1)) != 0 }

    public func validate() throws {
        let check = FieldCheck("ModeWindow")
        try check.identifier("window_id", windowID)
        try check.identifier("mode_id", modeID)
        try check.range("days_of_week_mask", daysOfWeekMask, 0...127)
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
    }
}
