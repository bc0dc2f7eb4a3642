import LuaHost
import RulesModel

// The model's dates and enumerations as rule arguments, without a Swift string each time: a date's
// text is written in place and pushed from its bytes, an enumeration's value is its raw value
// interned once per host (as keys are). A simulation fills about 80,000 habit periods per 200 users,
// each with two dates and a status; as Swift strings those texts were a quarter of filling them.

extension LuaTableWriter {
    /// Names the texts of days, numbered by their ordinal (`set(_:day:)`).
    private static let dayTexts = LuaKey("YYYY-MM-DD")

    /// Sets `key` to the day's `YYYY-MM-DD` text, kept by the host once written (a habit period
    /// sends two dates, and a streak call 90 periods).
    package mutating func set(_ key: LuaKey, day: DayID) {
        set(key, text: day.ordinal, of: Self.dayTexts) { buffer in
            var count = 0
            day.withText { text in
                buffer.copyMemory(from: text)
                count = text.count
            }
            return count
        }
    }
}

extension HabitPeriod.Status {
    private enum Texts {
        static let done = LuaKey("done")
        static let partial = LuaKey("partial")
        static let skipped = LuaKey("skipped")
        static let frozen = LuaKey("frozen")
        static let missed = LuaKey("missed")
        static let open = LuaKey("open")
    }

    /// The raw value as an interned Lua string.
    var luaText: LuaKey {
        switch self {
        case .done: Texts.done
        case .partial: Texts.partial
        case .skipped: Texts.skipped
        case .frozen: Texts.frozen
        case .missed: Texts.missed
        case .open: Texts.open
        }
    }
}

extension Strictness {
    private enum Texts {
        static let gentle = LuaKey("GENTLE")
        static let strict = LuaKey("STRICT")
        static let hard = LuaKey("HARD")
    }

    /// The raw value as an interned Lua string.
    var luaText: LuaKey {
        switch self {
        case .gentle: Texts.gentle
        case .strict: Texts.strict
        case .hard: Texts.hard
        }
    }
}

extension ManualOverrideState {
    private enum Texts {
        static let auto = LuaKey("AUTO")
        static let forcedOn = LuaKey("FORCED_ON")
        static let forcedOff = LuaKey("FORCED_OFF")
    }

    /// The raw value as an interned Lua string.
    var luaText: LuaKey {
        switch self {
        case .auto: Texts.auto
        case .forcedOn: Texts.forcedOn
        case .forcedOff: Texts.forcedOff
        }
    }
}
