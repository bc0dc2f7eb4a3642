/// MIGA's "Streak": consecutive local days with at least one `exit_to_focus` event
/// (miga-data-model.md, "Streak").
///
/// Decision: the seed says the streak is "calculated on-demand from UsageEvent records" and also
/// that it "persists across app launches via Core Data". It is derived, not stored: the store keeps
/// the usage events (90 days) and a rule computes the streak from them; this type is the value a
/// rule returns, with the seed's validation rules.
public struct ExitStreak: Hashable, Sendable, Codable, Validatable {
    public var startDate: DayID
    public var currentDayCount: Int
    public var lastActivityDate: DayID

    public init(startDate: DayID, currentDayCount: Int, lastActivityDate: DayID) {
        self.startDate = startDate
        self.currentDayCount = currentDayCount
        self.lastActivityDate = lastActivityDate
    }

    public func validate() throws {
        let check = FieldCheck("ExitStreak")
        try check.atLeast("currentDayCount", currentDayCount, 1)
        try check.require(
            startDate <= lastActivityDate, "startDate", "not later than lastActivityDate (\(lastActivityDate))", startDate.rawValue)
        try check.require(
            startDate.days(to: lastActivityDate) + 1 == currentDayCount, "currentDayCount",
            "the number of days from startDate to lastActivityDate (\(startDate.days(to: lastActivityDate) + 1))",
            "\(currentDayCount)")
    }
}
