import LuaHost
import RulesModel

extension RuleSet {
    /// Every field of every record each proved rule function receives, with how its proof covers
    /// it: enumerated (the proof tries every class of values the engine can pass) or named in the
    /// function's `not proved` line by the words given. The engine's records (their writers:
    /// `PriceContext`, `HabitTaskRecord`, …) and the proofs' are checked against it field by field.
    package var recordFields: [RuleRecordFields] {
        typealias F = RecordField
        let results = ValueClasses.texts([CommitmentStatus.yes, .no, .missed].map(\.rawValue))
        let strictness = ValueClasses.texts(Strictness.allCases.map(\.rawValue))
        let windows = EscalationPolicy.allWindows
        func times(_ list: [LocalTime]) -> (minutes: ValueClasses, texts: ValueClasses) {
            let distinct = list.reduce(into: [LocalTime]()) { if !$0.contains($1) { $0.append($1) } }
            return (.integers(distinct.map(\.minutes)), .texts(distinct.map(\.text)))
        }
        let (opens, closes) = (times(windows.map(\.open)), times(windows.map(\.close)))
        return [
            RuleRecordFields(
                "transition", ["state", "check_in"],
                [
                    .enumerated("state.current_tier", .integers(0...PressureLimits.maxTier)),
                    .notProved("state.consecutive_misses", "states reached after day"),
                    .notProved("state.consecutive_successes", "states reached after day"),
                    .enumerated("check_in.result", results),
                ]),
            RuleRecordFields(
                "reminder_times", ["tier", "window"],
                [
                    .enumerated("tier", .integers(0...min(escalation.maxTier, PressureLimits.maxTier))),
                    .enumerated("window.open_minutes", opens.minutes), .enumerated("window.open", opens.texts),
                    .enumerated("window.close_minutes", closes.minutes), .enumerated("window.close", closes.texts),
                ]),
            RuleRecordFields(
                "pressure.next", ["streak", "day"],
                [
                    .notProved("streak.current_streak", "streaks reached after day"),
                    .notProved("streak.longest_streak", "streaks reached after day"),
                    .enumerated("day.result", results), .enumerated("day.shield_used", .booleans),
                    .enumerated("day.date", .days), .enumerated("day.weekday", .weekdays),
                    .enumerated("day.committed", .booleans),
                ]),
            RuleRecordFields(
                "habit.streak", ["periods", "task", "user"],
                [
                    .enumerated("periods[].start_date", .days), .enumerated("periods[].end_date", .days),
                    .enumerated("periods[].weekday", .values((1...7).map { .integer(Int64($0)) } + [.nil])),
                    .enumerated("periods[].scheduled", .booleans),
                    .notProved("periods[].completions", "periods of more than 2 completions"),
                    .notProved("periods[].value", "other values"),
                    .enumerated("periods[].status", .texts(HabitPeriod.Status.allCases.map(\.rawValue))),
                    .notProved("periods[].freezes_equipped", "more than 1 freeze equipped"),
                ] + (streaks.habit.knobs.trackAppOpens ? [.notProved("periods[].opened", "days the app was opened or not")] : []) + [
                    .notProved("task.name", "names"),
                    .enumerated("task.measurement", .texts(MeasurementDuration.allCases.map(\.rawValue))),
                    .enumerated("task.frequency.kind", .texts(FrequencyType.allCases.map { HabitTaskRecord.frequencyKind(of: $0) })),
                    .notProved("task.frequency.weekdays", "other schedules"), .notProved("task.frequency.times", "other schedules"),
                    .notProved("task.frequency.days", "other schedules"), .notProved("task.frequency.every", "other schedules"),
                    .notProved("task.frequency.days_of_month", "other schedules"), .notProved("task.window", "other schedules"),
                    .notProved("task.times_per_day", "times_per_day"), .notProved("task.goal.type", "goals"),
                    .notProved("task.goal.target", "goals"),
                    .enumerated("task.goal.direction", .texts(GoalDirection.allCases.map(\.eventName))),
                    .notProved("task.start_date", "start dates"), .enumerated("task.params", .params(streaks.params)),
                    .notProved("user.timezone", "time zones other than UTC"),
                    .notProved("user.day_starts_at", "days starting at other times than"),
                ]),
            RuleRecordFields("miga.current_streak", ["days"], [.notProved("days[].exits", "days of more than 1 exit")]),
            RuleRecordFields(
                "earned.qualifies", ["day"],
                [
                    .notProved("day.focus_minutes", "more than \(StreakPolicy.earnedProofFocusMinutes.upperBound) focus minutes"),
                    .notProved("day.habit_completions", "\(StreakPolicy.earnedProofHabitCompletions.upperBound) habit completions"),
                ]),
            RuleRecordFields("earned.bonus", ["streak"], [.notProved("streak", "streaks above")]),
            RuleRecordFields(
                "earned.day_ends", ["day"],
                [
                    .enumerated("day.date", .days), .enumerated("day.weekday", .weekdays),
                    .enumerated("day.qualified", .texts(StreakQualificationMethod.allCases.map(\.rawValue), orNil: true)),
                    .notProved("day.streak_count", "streaks other than"), .notProved("day.freezes", "more than 5 freezes"),
                ]),
            RuleRecordFields(
                "focus_credits", ["session"],
                [
                    .notProved("session.actual_minutes", "sessions longer than"),
                    .notProved("session.planned_minutes", "planned_minutes other than"),
                    .enumerated("session.completed", .booleans), .enumerated("session.ended_early", .booleans),
                ]),
            RuleRecordFields("carried_credits", ["balance"], [.notProved("balance", "balances above")]),
            RuleRecordFields(
                "habit_award", ["completion"],
                [
                    .notProved("completion.reward_credits", "rewards other than"),
                    .notProved("completion.completions_in_window", "completions in the window"),
                ]),
            RuleRecordFields(
                "price", ["ctx"],
                [
                    .enumerated("ctx.minutes", .integers(pricing.creditCosts.map(\.minutes))),
                    .enumerated("ctx.app", .appPlatforms),
                    .notProved("ctx.unlocks_today", "more than \(PricingPolicy.proofMaxUnlocks) unlocks today"),
                    .notProved("ctx.unlocks_today_app", "more than \(PricingPolicy.proofMaxUnlocks) unlocks today"),
                    .enumerated("ctx.hour", .integers(0...23)), .notProved("ctx.minute", "minutes other than :00"),
                    .enumerated("ctx.weekday", .weekdays), .notProved("ctx.mode", "mode names other than"),
                    .enumerated("ctx.strictness", strictness), .notProved("ctx.streak", "streaks other than"),
                    .notProved("ctx.balance", "balances other than"), .enumerated("ctx.params", .params(pricing.params)),
                ]),
            RuleRecordFields(
                "quest_blocked", ["gate"],
                [
                    .enumerated("gate.strictness", strictness),
                    .enumerated("gate.quest_type", .texts(QuestType.allCases.map(\.rawValue))),
                    .notProved("gate.quest_unlocks_today", "quest unlocks a day"), .enumerated("gate.qr_key_set", .booleans),
                    .notProved("gate.minutes_since_last_quest_unlock", "minutes since the last"),
                ]),
            RuleRecordFields(
                "emergency_blocked", ["gate"],
                [
                    .notProved("gate.emergency_used_today", "emergency unlocks a day"),
                    .enumerated("gate.same_app_as_last_emergency", .booleans),
                ]),
            RuleRecordFields(
                "window_active", ["window", "now"],
                [
                    .notProved("window.days_mask", "day masks other than"),
                    .notProved("window.start_minutes", "windows not on 4-hour bounds"),
                    .notProved("window.end_minutes", "windows not on 4-hour bounds"),
                    .enumerated("now.weekday", .weekdays), .notProved("now.minutes", "other times of day"),
                ]),
            RuleRecordFields(
                "effective_mode", ["modes", "now"],
                [
                    .notProved("modes[].priority", "priorities above"), .enumerated("modes[].strictness", strictness),
                    .enumerated("modes[].manual_state", .texts(ManualOverrideState.allCases.map(\.rawValue))),
                    .enumerated("modes[].override_in_force", .booleans),
                    .notProved("modes[].windows", "windows other than none or always open"),
                    .notProved("now.weekday", "instants other than"), .notProved("now.minutes", "instants other than"),
                ]),
        ]
    }
}
