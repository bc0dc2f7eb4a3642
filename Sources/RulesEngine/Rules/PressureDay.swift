import LuaHost
import RulesModel

/// One Pressure day's final result, as `pressure.next(streak, day)` receives it:
/// `{ result, shield_used, date = "YYYY-MM-DD", weekday = 1…7, committed }` (docs/rules.md).
package struct PressureDay: Hashable, Sendable {
    package var result: CommitmentStatus
    /// A restart shield was used on the day.
    package var shieldUsed: Bool
    /// The local day of the result.
    package var date: DayID
    /// Whether the user set a commitment that day (false: the deadline passed without one).
    package var committed: Bool

    package init(result: CommitmentStatus, shieldUsed: Bool = false, date: DayID, committed: Bool) {
        self.result = result
        self.shieldUsed = shieldUsed
        self.date = date
        self.committed = committed
    }

    /// How calls and counterexamples name the day: `result NO, shield_used false, 2026-03-02 (weekday 1), committed true`.
    package var text: String {
        "result \(result.rawValue), shield_used \(shieldUsed), \(date.rawValue) (weekday \(date.isoWeekday)), committed \(committed)"
    }
}

extension PressureDay: LuaTableEncodable {
    static let resultKey = LuaKey("result")
    static let shieldKey = LuaKey("shield_used")
    static let dateKey = LuaKey("date")
    static let weekdayKey = LuaKey("weekday")
    static let committedKey = LuaKey("committed")
    package static var luaFieldCount: Int { 5 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.resultKey, result.rawValue)
        t.set(Self.shieldKey, shieldUsed)
        t.set(Self.dateKey, day: date)
        t.set(Self.weekdayKey, date.isoWeekday)
        t.set(Self.committedKey, committed)
    }
}
