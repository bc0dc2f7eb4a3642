import LuaHost
import RulesEngine
import RulesModel

/// What a persona's `day(d)` function sees about a user-day, and the overrides it may return.
struct PersonaDay {
    /// `d`: `{ day = 1…, date = "2026-01-05", weekday = 1 (Monday)…7, tier = 0…3, current_streak,
    /// longest_streak, days_since_streak_lost (nil if none), paid }`.
    struct Argument: LuaTableEncodable {
        static let keys = (
            day: LuaKey("day"), date: LuaKey("date"), weekday: LuaKey("weekday"), tier: LuaKey("tier"),
            currentStreak: LuaKey("current_streak"), longestStreak: LuaKey("longest_streak"), paid: LuaKey("paid"),
            daysSinceStreakLost: LuaKey("days_since_streak_lost")
        )
        static var luaFieldCount: Int { 8 }

        var index: Int
        var date: DayID
        var view: UserSummary
        var daysSinceStreakLost: Int?

        func encode(to t: inout LuaTableWriter) {
            let k = Self.keys
            t.set(k.day, index + 1)
            t.set(k.date, day: date)
            t.set(k.weekday, date.isoWeekday)
            t.set(k.tier, view.tier)
            t.set(k.currentStreak, view.currentStreak)
            t.set(k.longestStreak, view.longestStreak)
            t.set(k.paid, view.isPaid)
            t.set(k.daysSinceStreakLost, daysSinceStreakLost)
        }
    }

    /// What `day(d)` may return (nil: the day as the file's data says). Probabilities replace the
    /// file's; `habit_scale` multiplies every habit's rate (the habit tracker's and Earned's);
    /// `miga_opens` replaces `miga.opens_per_day`, `urges` `earned.urges.per_day` and
    /// `focus_sessions` `earned.focus.sessions_per_day`.
    struct Override: Decodable, Equatable {
        var commit: Double?
        var yes: Double?
        var no: Double?
        var habitScale: Double?
        var migaOpens: Double?
        var urges: Double?
        var focusSessions: Double?
        enum CodingKeys: String, CodingKey {
            case commit, yes, no, habitScale = "habit_scale", migaOpens = "miga_opens", urges, focusSessions = "focus_sessions"
        }

        func problems() -> [String] {
            var out: [String] = []
            for (name, value) in [("commit", commit), ("yes", yes), ("no", no)] {
                if let value, !(0...1).contains(value) { out.append("\(name): expected a probability between 0 and 1, found \(value)") }
            }
            if let yes, let no, (0...1).contains(yes), (0...1).contains(no), yes + no > 1 + 1e-9 {
                out.append("yes + no must be at most 1 (the rest is no answer), found \(yes + no)")
            }
            if let habitScale, !(0...10).contains(habitScale) { out.append("habit_scale: expected 0…10, found \(habitScale)") }
            if let migaOpens, !(0...50).contains(migaOpens) { out.append("miga_opens: expected 0…50, found \(migaOpens)") }
            if let urges, !(0...100).contains(urges) { out.append("urges: expected 0…100, found \(urges)") }
            if let focusSessions, !(0...10).contains(focusSessions) { out.append("focus_sessions: expected 0…10, found \(focusSessions)") }
            return out
        }
    }
}
