import LuaHost
import RulesModel

/// What pricing.lua's `price(ctx)` knows when the unlock gate opens (issue 17, design §4): the
/// length asked about and the situation of the user at that instant.
///
/// Decision: there is no `category`: Earned's data model (A3) knows an app only by its id, so no
/// category is passed (a rule that reads `ctx.category` sees nil).
package struct PriceContext: Hashable, Sendable {
    /// The unlock length priced (one of `credit_costs`' lengths).
    package var minutes: Int
    package var app: AppID
    /// Unlocks granted today (Earned's day, from `day_starts_at`) for every app, by any method
    /// (credits, quest, emergency); an unlock that extends a running grant counts.
    package var unlocksToday: Int
    /// The same, for this app only.
    package var unlocksTodayApp: Int
    /// The user's local time: hour 0…23, minute 0…59, ISO weekday 1 (Monday) … 7 (Sunday).
    package var hour: Int
    package var minute: Int
    package var weekday: Int
    /// The name of the mode in force, nil when the app is blocked as a distracting app with no mode.
    package var mode: String?
    /// The strictness the gate opened under.
    package var strictness: Strictness
    /// economy_state.streak_count and credit_balance when the gate opened.
    package var streak: Int
    package var balance: Int
    /// pricing.lua's declared params at their defaults (`ctx.params`): no event sets a price's
    /// params, so an extending folder changes them by their `default`.
    package var params: ResolvedParams = .empty

    package init(
        minutes: Int, app: AppID, unlocksToday: Int = 0, unlocksTodayApp: Int = 0, hour: Int = 12, minute: Int = 0,
        weekday: Int = 1, mode: String? = nil, strictness: Strictness = .gentle, streak: Int = 0, balance: Int = 0
    ) {
        self.minutes = minutes
        self.app = app
        self.unlocksToday = unlocksToday
        self.unlocksTodayApp = unlocksTodayApp
        self.hour = hour
        self.minute = minute
        self.weekday = weekday
        self.mode = mode
        self.strictness = strictness
        self.streak = streak
        self.balance = balance
    }

    /// The context without its length, as messages name it: `app com.x, 2 unlocks today (1 of
    /// this app), Monday 09:30, mode Work STRICT, streak 3, balance 40`.
    package var situation: String {
        let day = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][(weekday - 1 + 7) % 7]
        let time = (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        return
            "app \(app.rawValue), \(unlocksToday) unlock\(unlocksToday == 1 ? "" : "s") today (\(unlocksTodayApp) of this app), \(day) \(time), "
            + (mode.map { "mode \($0) \(strictness.rawValue)" } ?? "no mode, \(strictness.rawValue)")
            + ", streak \(streak), balance \(balance)" + (params.values.isEmpty ? "" : ", params \(params)")
    }
}

/// The record `price` receives, written straight into a view (no intermediate LuaValue: the gate
/// asks one price per unlock length each time it opens). The host learns which fields the rule
/// read (`LuaFieldReads`, by position in `luaViewKeys`), and remembers the price for every context
/// that agrees on them (`RuleMemo`).
extension PriceContext: LuaTableViewable {
    static let minutesKey = LuaKey("minutes")
    static let appKey = LuaKey("app")
    static let unlocksTodayKey = LuaKey("unlocks_today")
    static let unlocksTodayAppKey = LuaKey("unlocks_today_app")
    static let hourKey = LuaKey("hour")
    static let minuteKey = LuaKey("minute")
    static let weekdayKey = LuaKey("weekday")
    static let modeKey = LuaKey("mode")
    static let strictnessKey = LuaKey("strictness")
    static let streakKey = LuaKey("streak")
    static let balanceKey = LuaKey("balance")
    static let paramsKey = LuaKey("params")
    /// The one declaration of the fields a rule may read: a field's bit in `LuaFieldReads` is its
    /// position here (`bit(_:)`), for the view as for `read(_:)`.
    package static let luaViewKeys: [LuaKey] = [
        minutesKey, appKey, unlocksTodayKey, unlocksTodayAppKey, hourKey, minuteKey, weekdayKey, modeKey, strictnessKey,
        streakKey, balanceKey, paramsKey,
    ]
    package static var luaFieldCount: Int { luaViewKeys.count }

    /// The bit of the field `key` (one of `luaViewKeys`).
    package static func bit(_ key: LuaKey) -> LuaFieldReads { .field(luaViewKeys.firstIndex(of: key)!) }

    /// The fields of a context that a rule read (`reads`), the others nil: two contexts with the
    /// same `Read` get the same price from a rule that read those fields only.
    package struct Read: Hashable {
        var reads: LuaFieldReads
        var minutes: Int?, app: AppID?, unlocksToday: Int?, unlocksTodayApp: Int?, hour: Int?, minute: Int?, weekday: Int?
        var mode: String??, strictness: Strictness?, streak: Int?, balance: Int?, params: ResolvedParams?
    }

    package func read(_ reads: LuaFieldReads) -> Read {
        func field<T>(_ key: LuaKey, _ value: T) -> T? { reads.contains(Self.bit(key)) ? value : nil }
        return Read(
            reads: reads, minutes: field(Self.minutesKey, minutes), app: field(Self.appKey, app),
            unlocksToday: field(Self.unlocksTodayKey, unlocksToday), unlocksTodayApp: field(Self.unlocksTodayAppKey, unlocksTodayApp),
            hour: field(Self.hourKey, hour), minute: field(Self.minuteKey, minute), weekday: field(Self.weekdayKey, weekday),
            mode: field(Self.modeKey, mode), strictness: field(Self.strictnessKey, strictness), streak: field(Self.streakKey, streak),
            balance: field(Self.balanceKey, balance), params: field(Self.paramsKey, params))
    }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.minutesKey, minutes)
        t.set(Self.appKey, app.rawValue)
        t.set(Self.unlocksTodayKey, unlocksToday)
        t.set(Self.unlocksTodayAppKey, unlocksTodayApp)
        t.set(Self.hourKey, hour)
        t.set(Self.minuteKey, minute)
        t.set(Self.weekdayKey, weekday)
        t.set(Self.modeKey, mode)
        t.set(Self.strictnessKey, text: strictness.luaText)
        t.set(Self.streakKey, streak)
        t.set(Self.balanceKey, balance)
        t.set(Self.paramsKey, params: params)
    }
}
