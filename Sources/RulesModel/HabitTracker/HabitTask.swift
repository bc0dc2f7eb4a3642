import Foundation

/// A habit the user tracks (habit-tracker-data-model.md §2.2).
///
/// Decisions on the seed:
/// - `title` is 1–100 characters; `iconName` (an SF Symbol name) 1–100; `goalUnit` must be one
///   of the goal type's compatible units (§3.2); `colorToken` is a palette key of 1–32 lowercase
///   letters and digits (the palette itself is a UI concern).
/// - `goalType == .none` ⇒ `goalValue` and `goalUnit` are nil. For other goal types the unit is
///   required and the value, when set, is finite and > 0 (a preset pre-fills the unit only).
/// - `isPreset` ⇔ `presetIdentifier` is set, and the identifier is in ``PresetCatalog``.
/// - `timesPerDay` is 1–100. `scheduledDays` is a non-empty set of weekdays, stored sorted.
/// - `notificationTime` is set exactly when `notificationEnabled` (the seed: "nil when
///   notificationEnabled == false"; a reminder without a time cannot be scheduled).
/// - `category` may be nil: deleting a category nullifies it (§2.1 delete rule).
///
/// Issue 17 (decisions):
/// - `frequencyType` ``FrequencyType/timesInDays`` sets `frequencyTimes` (x, 1…y) and
///   `frequencyDays` (y, 2…365); ``FrequencyType/everyNDays`` sets `frequencyDays` (n, 2…365) and
///   no `frequencyTimes`; ``FrequencyType/daysOfMonth`` sets `daysOfMonth` (1…31, at least one,
///   stored sorted; 31 means a shorter month's last day). Other frequencies set none of them.
/// - A weekly or monthly target ("3 times a week") is `measurementDuration` weekly/monthly with
///   `timesPerDay` read as the period's target: no second field for the same count.
/// - `startDate` (optional) is the first day the task counts from (every-n-days is anchored on it);
///   nil means the day it was created. `goalDirection` says whether `goalValue` is a floor or a
///   ceiling (``GoalDirection/atMost`` needs a goal value).
/// - `params`: at most 32 names (`[a-z][a-z0-9_]*`, ≤ 40 bytes) with scalar values (strings ≤ 40
///   bytes, numbers finite); the rule set's declared params check them when the engine uses them.
public struct HabitTask: Hashable, Sendable, Codable, Validatable {
    public static let maxTitleLength = 100

    public var id: UUID
    public var userID: UserID
    public var categoryID: UUID?
    public var title: String
    public var iconName: String?
    public var isPreset: Bool
    public var presetIdentifier: String?
    public var measurementDuration: MeasurementDuration
    public var goalType: GoalType
    public var goalValue: Double?
    public var goalUnit: String?
    public var frequencyType: FrequencyType
    public var timesPerDay: Int
    public var scheduledDays: [Weekday]
    public var notificationEnabled: Bool
    public var notificationTime: LocalTime?
    public var colorToken: String
    public var sortOrder: Int
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis
    public var frequencyTimes: Int?
    public var frequencyDays: Int?
    public var daysOfMonth: [Int]
    public var startDate: DayID?
    public var goalDirection: GoalDirection
    public var params: [String: ParamValue]

    public init(
        id: UUID = UUID(), userID: UserID, categoryID: UUID? = nil, title: String, iconName: String? = nil,
        isPreset: Bool = false, presetIdentifier: String? = nil,
        measurementDuration: MeasurementDuration = .daily, goalType: GoalType = .none,
        goalValue: Double? = nil, goalUnit: String? = nil, frequencyType: FrequencyType = .daily,
        timesPerDay: Int = 1, scheduledDays: [Weekday] = Weekday.allCases,
        notificationEnabled: Bool = false, notificationTime: LocalTime? = nil,
        colorToken: String = "blue", sortOrder: Int = 0, createdAt: EpochMillis, updatedAt: EpochMillis,
        frequencyTimes: Int? = nil, frequencyDays: Int? = nil, daysOfMonth: [Int] = [], startDate: DayID? = nil,
        goalDirection: GoalDirection = .atLeast, params: [String: ParamValue] = [:]
    ) {
        self.id = id
        self.userID = userID
        self.categoryID = categoryID
        self.title = title
        self.iconName = iconName
        self.isPreset = isPreset
        self.presetIdentifier = presetIdentifier
        self.measurementDuration = measurementDuration
        self.goalType = goalType
        self.goalValue = goalValue
        self.goalUnit = goalUnit
        self.frequencyType = frequencyType
        self.timesPerDay = timesPerDay
        self.scheduledDays = scheduledDays
        self.notificationEnabled = notificationEnabled
        self.notificationTime = notificationTime
        self.colorToken = colorToken
        self.sortOrder = sortOrder
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.frequencyTimes = frequencyTimes
        self.frequencyDays = frequencyDays
        self.daysOfMonth = daysOfMonth
        self.startDate = startDate
        self.goalDirection = goalDirection
        self.params = params
    }

    public func validate() throws {
        let check = FieldCheck("HabitTask")
        try check.text("title", title, max: HabitTask.maxTitleLength)
        try check.optionalText("iconName", iconName, max: 100)
        if goalType == .none {
            try check.require(goalValue == nil, "goalValue", "nil when goalType is none", "\(goalValue ?? 0)")
            try check.require(goalUnit == nil, "goalUnit", "nil when goalType is none", quoted(goalUnit ?? ""))
        } else {
            let units = goalType.compatibleUnits
            try check.require(
                goalUnit.map(units.contains) ?? false, "goalUnit",
                "one of \(units.joined(separator: ", ")) for goalType \(goalType.rawValue)",
                goalUnit.map(quoted) ?? "nil")
            if let goalValue {
                try check.finite("goalValue", goalValue)
                try check.require(goalValue > 0, "goalValue", "greater than 0", "\(goalValue)")
            }
        }
        if isPreset {
            try check.require(presetIdentifier != nil, "presetIdentifier", "set when isPreset is true", "nil")
        } else {
            try check.require(presetIdentifier == nil, "presetIdentifier", "nil when isPreset is false", quoted(presetIdentifier ?? ""))
        }
        if let presetIdentifier {
            try check.require(
                PresetCatalog.preset(presetIdentifier) != nil, "presetIdentifier",
                "an identifier of the preset catalog", quoted(presetIdentifier))
        }
        try check.range("timesPerDay", timesPerDay, 1...100)
        try check.require(!scheduledDays.isEmpty, "scheduledDays", "at least one weekday", "[]")
        try check.require(
            Set(scheduledDays).count == scheduledDays.count, "scheduledDays", "no repeated weekday",
            "\(scheduledDays.map(\.rawValue))")
        if notificationEnabled {
            try check.require(notificationTime != nil, "notificationTime", "set when notificationEnabled is true", "nil")
        } else {
            try check.require(
                notificationTime == nil, "notificationTime", "nil when notificationEnabled is false",
                notificationTime?.text ?? "")
        }
        try check.require(
            !colorToken.isEmpty && colorToken.utf8.count <= 32
                && colorToken.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) },
            "colorToken", "a palette key of 1–32 lowercase letters and digits", quoted(colorToken))
        try check.atLeast("sortOrder", sortOrder, 0)
        try validateFrequency(check)
        if goalDirection == .atMost {
            try check.require(goalValue != nil, "goalValue", "set when goalDirection is atMost (a ceiling needs a value)", "nil")
        }
        try check.require(params.count <= ParamValue.maxCount, "params", "at most \(ParamValue.maxCount) names", "\(params.count)")
        for (name, value) in params.sorted(by: { $0.key < $1.key }) {
            try check.require(
                ParamValue.isName(name), "params", "names of [a-z][a-z0-9_]*, at most \(ParamValue.maxNameBytes) bytes",
                quoted(name))
            switch value {
            case .number(let number):
                try check.finite("params.\(name)", number)
                try check.require(
                    number.rounded() != number, "params.\(name)", "a number with a fraction (a whole number is an integer)", "\(number)")
            case .string(let text):
                try check.require(
                    text.utf8.count <= ParamValue.maxStringBytes, "params.\(name)",
                    "a string of at most \(ParamValue.maxStringBytes) bytes", "\(text.utf8.count) bytes")
            case .integer, .boolean: break
            }
        }
        try check.timestamp("createdAt", createdAt)
        try check.notBefore("updatedAt", updatedAt, "createdAt", createdAt)
    }

    private func validateFrequency(_ check: FieldCheck) throws {
        let kind = frequencyType.rawValue
        switch frequencyType {
        case .timesInDays:
            try check.require(frequencyDays != nil, "frequencyDays", "set when frequencyType is \(kind)", "nil")
            try check.range("frequencyDays", frequencyDays!, 2...365)
            try check.require(frequencyTimes != nil, "frequencyTimes", "set when frequencyType is \(kind)", "nil")
            try check.range("frequencyTimes", frequencyTimes!, 1...frequencyDays!)
        case .everyNDays:
            try check.require(frequencyDays != nil, "frequencyDays", "set when frequencyType is \(kind)", "nil")
            try check.range("frequencyDays", frequencyDays!, 2...365)
            try check.require(frequencyTimes == nil, "frequencyTimes", "nil when frequencyType is \(kind)", "\(frequencyTimes ?? 0)")
        default:
            try check.require(frequencyDays == nil, "frequencyDays", "nil when frequencyType is \(kind)", "\(frequencyDays ?? 0)")
            try check.require(frequencyTimes == nil, "frequencyTimes", "nil when frequencyType is \(kind)", "\(frequencyTimes ?? 0)")
        }
        if frequencyType == .daysOfMonth {
            try check.require(!daysOfMonth.isEmpty, "daysOfMonth", "at least one day of the month when frequencyType is \(kind)", "[]")
            for day in daysOfMonth { try check.range("daysOfMonth", day, 1...31) }
            try check.require(Set(daysOfMonth).count == daysOfMonth.count, "daysOfMonth", "no repeated day", "\(daysOfMonth)")
        } else {
            try check.require(daysOfMonth.isEmpty, "daysOfMonth", "empty when frequencyType is \(kind)", "\(daysOfMonth)")
        }
    }

    /// Whether the task is due on a weekday (daily tasks are due every day).
    public func isScheduled(on weekday: Weekday) -> Bool {
        frequencyType == .daily || scheduledDays.contains(weekday)
    }
}
