import LuaHost

// The records the economy's small rule functions receive (modes.lua's `effective_mode`, quests.lua's
// gates, pricing.lua's `focus_credits`; `price`'s is `PriceContext`), written straight into tables
// through interned keys: every unlock asks them, and building them as `LuaValue` dictionaries
// (hashing every key) cost more than the calls.

/// `modes.effective_mode(modes, now)`: the modes.
extension ModeCandidate: LuaKeptRecord {
    static let priorityKey = LuaKey("priority")
    static let strictnessKey = LuaKey("strictness")
    static let manualStateKey = LuaKey("manual_state")
    static let overrideInForceKey = LuaKey("override_in_force")
    static let windowsKey = LuaKey("windows")
    package static var luaFieldCount: Int { 5 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.priorityKey, priority)
        t.set(Self.strictnessKey, text: strictness.luaText)
        t.set(Self.manualStateKey, text: manualState.luaText)
        t.set(Self.overrideInForceKey, overrideInForce)
        t.set(Self.windowsKey, records: windows)
    }
}

extension ModeCandidate.Window: LuaTableEncodable {
    static let daysMaskKey = LuaKey("days_mask")
    static let startMinutesKey = LuaKey("start_minutes")
    static let endMinutesKey = LuaKey("end_minutes")
    package static var luaFieldCount: Int { 3 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.daysMaskKey, daysMask)
        t.set(Self.startMinutesKey, startMinutes)
        t.set(Self.endMinutesKey, endMinutes)
    }
}

/// `modes.effective_mode(modes, now)`: now.
extension LocalMoment: LuaTableEncodable {
    static let weekdayKey = LuaKey("weekday")
    static let minutesKey = LuaKey("minutes")
    package static var luaFieldCount: Int { 2 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.weekdayKey, weekday)
        t.set(Self.minutesKey, minutes)
    }
}

/// `quests.quest_blocked(gate)`: `minutes_since_last_quest_unlock` is nil before the first quest unlock.
extension QuestGate: LuaTableEncodable {
    static let strictnessKey = LuaKey("strictness")
    static let questTypeKey = LuaKey("quest_type")
    static let questUnlocksTodayKey = LuaKey("quest_unlocks_today")
    static let qrKeySetKey = LuaKey("qr_key_set")
    static let minutesSinceKey = LuaKey("minutes_since_last_quest_unlock")
    package static var luaFieldCount: Int { 5 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.strictnessKey, text: strictness.luaText)
        t.set(Self.questTypeKey, questType.rawValue)
        t.set(Self.questUnlocksTodayKey, questUnlocksToday)
        t.set(Self.qrKeySetKey, qrKeySet)
        t.set(Self.minutesSinceKey, minutesSinceLastQuestUnlock)
    }
}

/// `quests.emergency_blocked(gate)`.
extension EmergencyGate: LuaTableEncodable {
    static let usedTodayKey = LuaKey("emergency_used_today")
    static let sameAppKey = LuaKey("same_app_as_last_emergency")
    package static var luaFieldCount: Int { 2 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.usedTodayKey, usedToday)
        t.set(Self.sameAppKey, sameAppAsLast)
    }
}

/// `pricing.focus_credits(session)`.
extension FocusOutcome: LuaTableEncodable {
    static let actualKey = LuaKey("actual_minutes")
    static let plannedKey = LuaKey("planned_minutes")
    static let completedKey = LuaKey("completed")
    static let endedEarlyKey = LuaKey("ended_early")
    package static var luaFieldCount: Int { 4 }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.actualKey, actualMinutes)
        t.set(Self.plannedKey, plannedMinutes)
        t.set(Self.completedKey, completed)
        t.set(Self.endedEarlyKey, !completed)
    }
}
