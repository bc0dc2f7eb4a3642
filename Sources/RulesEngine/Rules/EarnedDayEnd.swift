import LuaHost
import RulesModel

/// Earned's day as it ends, as `earned.day_ends(day)` receives it:
/// `{ date = "YYYY-MM-DD", weekday = 1…7, qualified = "FOCUS"|"HABITS"|nil, streak_count, freezes }`
/// (docs/rules.md).
package struct EarnedDayEnd: Hashable, Sendable {
    /// The Earned day that ends (economy_state.current_day_id).
    package var date: DayID
    /// How the day qualified for the streak (the STREAK_QUALIFIED method), nil when it did not.
    package var qualified: StreakQualificationMethod?
    /// The streak count at the day's end: counting the day when it qualified, else the last
    /// qualified day's.
    package var streakCount: Int
    /// The streak freezes the user holds.
    package var freezes: Int

    package init(date: DayID, qualified: StreakQualificationMethod?, streakCount: Int, freezes: Int) {
        self.date = date
        self.qualified = qualified
        self.streakCount = streakCount
        self.freezes = freezes
    }

    /// How calls and counterexamples name the day: `2026-03-02 (weekday 1), qualified nil, streak_count 3, freezes 1`.
    package var text: String {
        "\(date.rawValue) (weekday \(date.isoWeekday)), qualified \(qualified?.rawValue ?? "nil"), streak_count \(streakCount), freezes \(freezes)"
    }

    /// The host's checks of what the rule returned (nil: accepted): a qualified day keeps its
    /// count, a day that did not qualify keeps it or resets it to 0 (it never grows the streak),
    /// and the freezes held are 0…`StreakPolicy.maxEarnedFreezes`.
    package func problem(with next: EarnedStreak) -> String? {
        if qualified != nil, next.streakCount != streakCount {
            return "streak_count \(next.streakCount) (a qualified day keeps its count, \(streakCount))"
        }
        if qualified == nil, next.streakCount != 0, next.streakCount != streakCount {
            return "streak_count \(next.streakCount) (a day that did not qualify keeps the count, \(streakCount), or resets it to 0)"
        }
        if !(0...StreakPolicy.maxEarnedFreezes).contains(next.freezes) {
            return "freezes \(next.freezes), outside 0…\(StreakPolicy.maxEarnedFreezes)"
        }
        return nil
    }
}

/// What `earned.day_ends` returns: `{ streak_count = n, freezes = m }`, the streak carried into
/// the next day and the freezes the user then holds.
package struct EarnedStreak: Hashable, Sendable {
    package var streakCount: Int
    package var freezes: Int

    package init(streakCount: Int, freezes: Int) {
        self.streakCount = streakCount
        self.freezes = freezes
    }
}

extension EarnedDayEnd: LuaTableEncodable {
    static let dateKey = LuaKey("date")
    static let weekdayKey = LuaKey("weekday")
    static let qualifiedKey = LuaKey("qualified")
    static let streakCountKey = LuaKey("streak_count")
    static let freezesKey = LuaKey("freezes")
    package static var luaFieldCount: Int { 5 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.dateKey, day: date)
        t.set(Self.weekdayKey, date.isoWeekday)
        t.set(Self.qualifiedKey, qualified?.rawValue)
        t.set(Self.streakCountKey, streakCount)
        t.set(Self.freezesKey, freezes)
    }
}

extension EarnedStreak: LuaTableDecodable {
    package init(from t: inout LuaTableReader) throws {
        streakCount = try t.int(EarnedDayEnd.streakCountKey)
        freezes = try t.int(EarnedDayEnd.freezesKey)
    }
}
