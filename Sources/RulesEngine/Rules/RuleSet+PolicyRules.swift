import LuaHost
import RulesModel

/// The Lua rule set answers the engine's questions by calling its rule functions.
extension RuleSet: PolicyRules {
    package var streakParams: RuleParams { streaks.params }
    package var priceParams: RuleParams { pricing.params }

    package var escalationKnobs: EscalationPolicy.Knobs { escalation.knobs }
    package var streakKnobs: StreakPolicy.Knobs { streaks.knobs }

    package func transition(_ state: EscalationCounters, _ result: CommitmentStatus) throws -> EscalationCounters {
        try host.call(escalation.transition, Pooled(state), Pooled(CheckInArgument(result: result)), returning: EscalationCounters.self)
    }

    package func reminderTimes(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime] {
        let function = escalation.reminderTimes
        /// The time a list item gives, or the error naming it.
        func time(_ text: String?, item: @autoclosure () -> LuaValue, at i: Int) throws -> LocalTime {
            guard let text, let time = try? LocalTime(text) else {
                throw LuaError(
                    kind: .decoding, file: function.source, line: function.line,
                    path: "[\(i + 1)]", message: "expected a time \"HH:MM\", found \(item().errorDescription)")
            }
            return time
        }
        switch try host.call(function, Int64(tier), Pooled(ReminderWindow(open: open, close: close)), returning: LuaStringsResult.self) {
        case .strings(let texts):
            var times: [LocalTime] = []
            times.reserveCapacity(texts.count)
            for i in texts.indices { times.append(try time(texts[i], item: .string(texts[i]), at: i)) }
            return times
        case .other(let result):
            guard let list = result.tableValue, list.isSequence else {
                throw LuaError(
                    kind: .decoding, file: function.source, line: function.line,
                    message: "reminder_times returned \(result.errorDescription), expected a list of \"HH:MM\" times")
            }
            return try list.sequence.enumerated().map { i, item in try time(item.stringValue, item: item, at: i) }
        }
    }

    package func pressureStreak(_ streak: PressureStreak, day: PressureDay) throws -> PressureStreak {
        try host.call(streaks.pressure.next, Pooled(streak), Pooled(day), returning: PressureStreak.self)
    }

    package func habitStreak(_ periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord) throws -> HabitStreak {
        try host.call(
            streaks.habit.streak, History(periods, key: task.name), Kept(task, key: task.name), Kept(user), returning: HabitStreak.self)
    }

    package func migaStreak(_ exitsPerDay: [Int]) throws -> Int {
        try integer(
            try host.call(streaks.miga.currentStreak, FieldRecords(exitsPerDay, field: MigaDay.exitsKey), returning: [LuaValue].self).first,
            from: streaks.miga.currentStreak)
    }

    package func earnedQualification(focusMinutes: Int, habitCompletions: Int) throws -> StreakQualificationMethod? {
        let out =
            try host.call(
                streaks.earned.qualifies,
                [
                    "focus_minutes": .integer(Int64(focusMinutes)),
                    "habit_completions": .integer(Int64(habitCompletions)),
                ]
            ).first ?? .nil
        if out.isNil { return nil }
        guard let text = out.stringValue, let method = StreakQualificationMethod(rawValue: text) else {
            throw LuaError(
                kind: .decoding, file: streaks.earned.qualifies.source, line: streaks.earned.qualifies.line,
                message: "earned.qualifies returned \(out.errorDescription), expected \"FOCUS\", \"HABITS\" or nil")
        }
        return method
    }

    package func earnedBonus(streakCount: Int) throws -> Int {
        try integer(try host.call(streaks.earned.bonus, .integer(Int64(streakCount))).first, from: streaks.earned.bonus)
    }

    package func earnedDayEnds(_ day: EarnedDayEnd) throws -> EarnedStreak {
        try host.call(streaks.earned.dayEnds, Pooled(day), returning: EarnedStreak.self)
    }

    func integer(_ value: LuaValue?, from function: LuaFunction) throws -> Int {
        guard let value, let n = value.integerValue, value.doubleValue == Double(n), let int = Int(exactly: n) else {
            throw LuaError(
                kind: .decoding, file: function.source, line: function.line,
                message: "the function returned \((value ?? .nil).errorDescription), expected an integer")
        }
        return int
    }
}

extension PressureStreak: LuaTableEncodable, LuaTableDecodable {
    static let currentKey = LuaKey("current_streak")
    static let longestKey = LuaKey("longest_streak")
    package static var luaFieldCount: Int { 2 }

    package init(from t: inout LuaTableReader) throws {
        current = try t.int(Self.currentKey)
        longest = try t.int(Self.longestKey)
    }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.currentKey, current)
        t.set(Self.longestKey, longest)
    }
}

/// The days of `miga.current_streak`'s list: `{ exits = n }` each.
enum MigaDay {
    static let exitsKey = LuaKey("exits")
}

/// `reminder_times`' second argument, the check-in window: `{open_minutes, close_minutes, open, close}`.
package struct ReminderWindow: LuaTableEncodable, Hashable, Sendable {
    static let openMinutesKey = LuaKey("open_minutes")
    static let closeMinutesKey = LuaKey("close_minutes")
    static let openKey = LuaKey("open")
    static let closeKey = LuaKey("close")
    package static var luaFieldCount: Int { 4 }
    package var open: LocalTime
    package var close: LocalTime

    package init(open: LocalTime, close: LocalTime) {
        self.open = open
        self.close = close
    }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.openMinutesKey, open.minutes)
        t.set(Self.closeMinutesKey, close.minutes)
        t.set(Self.openKey, open.text)
        t.set(Self.closeKey, close.text)
    }
}
