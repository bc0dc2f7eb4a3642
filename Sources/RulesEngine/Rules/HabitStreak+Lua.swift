import LuaHost
import RulesModel

/// The tables of `habit.streak(periods, task, user)` (docs/rules.md).
extension HabitPeriod: LuaKeptRecord {
    static let startKey = LuaKey("start_date")
    static let endKey = LuaKey("end_date")
    static let weekdayKey = LuaKey("weekday")
    static let scheduledKey = LuaKey("scheduled")
    static let completionsKey = LuaKey("completions")
    static let valueKey = LuaKey("value")
    static let statusKey = LuaKey("status")
    static let freezesKey = LuaKey("freezes_equipped")
    static let openedKey = LuaKey("opened")
    package static var luaFieldCount: Int { 9 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.startKey, day: start)
        t.set(Self.endKey, day: isDay ? start : end)
        t.set(Self.weekdayKey, weekday)
        t.set(Self.scheduledKey, scheduled)
        t.set(Self.completionsKey, completions)
        t.set(Self.valueKey, value)
        t.set(Self.statusKey, text: status.luaText)
        t.set(Self.freezesKey, freezesEquipped)
        if let opened { t.set(Self.openedKey, opened) }
    }
}

extension HabitTaskRecord: LuaKeptRecord {
    static let nameKey = LuaKey("name")
    static let measurementKey = LuaKey("measurement")
    static let frequencyKey = LuaKey("frequency")
    static let timesKey = LuaKey("times_per_day")
    static let goalKey = LuaKey("goal")
    static let startKey = LuaKey("start_date")
    static let paramsKey = LuaKey("params")
    static let windowKey = LuaKey("window")
    package static var luaFieldCount: Int { 8 }

    struct Frequency: LuaTableEncodable {
        static let kindKey = LuaKey("kind")
        static let weekdaysKey = LuaKey("weekdays")
        static let timesKey = LuaKey("times")
        static let daysKey = LuaKey("days")
        static let everyKey = LuaKey("every")
        static let daysOfMonthKey = LuaKey("days_of_month")
        static var luaFieldCount: Int { 6 }
        var task: HabitTaskRecord
        /// `weekdays` and `days_of_month` are lists (empty when the kind has none); `times`,
        /// `days` and `every` are nil unless the kind sets them.
        func encode(to t: inout LuaTableWriter) {
            t.set(Self.kindKey, task.frequencyKind)
            t.set(Self.weekdaysKey, list: task.weekdays)
            t.set(Self.timesKey, task.times)
            t.set(Self.daysKey, task.days)
            t.set(Self.everyKey, task.every)
            t.set(Self.daysOfMonthKey, list: task.daysOfMonth)
        }
    }

    struct Goal: LuaTableEncodable {
        static let typeKey = LuaKey("type")
        static let targetKey = LuaKey("target")
        static let directionKey = LuaKey("direction")
        static var luaFieldCount: Int { 3 }
        var type: GoalType
        var target: Double?
        var direction: GoalDirection
        func encode(to t: inout LuaTableWriter) {
            t.set(Self.typeKey, type.rawValue)
            t.set(Self.targetKey, target)
            t.set(Self.directionKey, direction.eventName)
        }
    }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.nameKey, name)
        t.set(Self.measurementKey, measurement.rawValue)
        t.set(Self.frequencyKey, record: Frequency(task: self))
        t.set(Self.timesKey, timesPerDay)
        t.set(Self.goalKey, record: Goal(type: goalType, target: goalTarget, direction: goalDirection))
        t.set(Self.startKey, day: startDate)
        t.set(Self.paramsKey, params: params)
        t.set(Self.windowKey, openWindow)
    }
}

extension HabitUserRecord: LuaKeptRecord {
    static let timezoneKey = LuaKey("timezone")
    static let dayStartKey = LuaKey("day_starts_at")
    package static var luaFieldCount: Int { 2 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.timezoneKey, timezone)
        t.set(Self.dayStartKey, dayStartsAt.text)
    }
}

extension HabitStreak: LuaTableDecodable {
    static let currentKey = LuaKey("current")
    static let bestKey = LuaKey("best")
    static let scoreKey = LuaKey("score")

    package init(from t: inout LuaTableReader) throws {
        current = try t.int(Self.currentKey)
        best = try t.optionalRecords(Self.bestKey, Interval.self)
        score = try t.optionalDouble(Self.scoreKey)
    }
}

extension HabitStreak.Interval: LuaTableDecodable {
    static let firstKey = LuaKey("first")
    static let lastKey = LuaKey("last")
    static let lengthKey = LuaKey("length")

    package init(from t: inout LuaTableReader) throws {
        first = try Self.day(&t, Self.firstKey)
        last = try Self.day(&t, Self.lastKey)
        length = try t.int(Self.lengthKey)
    }

    private static func day(_ t: inout LuaTableReader, _ key: LuaKey) throws -> DayID {
        let text = try t.string(key)
        guard let day = try? DayID(text) else {
            throw LuaError(
                kind: .decoding, path: t.path.isEmpty ? key.name : "\(t.path).\(key.name)",
                message: "expected a date \"YYYY-MM-DD\", found \"\(SourceFile.excerpt(text, limit: 40))\"")
        }
        return day
    }
}
