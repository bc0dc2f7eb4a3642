import RulesModel
import RulesStore

/// Earned's ways to earn credits: focus sessions (A6.6) and habit completions (A6.7), each with
/// the day's streak qualification and bonus.
extension Engine {
    func startFocus(
        _ start: FocusStart, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        if let running = earned.focus {
            throw EngineError(.focusActive, "a focus session is running until \(try clock(context).describe(running.ends)); end it first")
        }
        let id = earned.nextID("focus", of: context.name)
        let strict = start.strict ?? true
        let blocked = Set(start.blockedApps ?? []).sorted()
        let session = FocusSession(
            userID: context.userID, sessionID: id, startedAt: now, timezoneID: context.settings.timezoneIdentifier,
            dayID: earned.day, plannedDurationMinutes: start.minutes, strict: strict, taskLabel: start.label,
            createdAt: now, updatedAt: now)
        do { try session.validate() } catch {
            throw EngineError(.invalidEvent, error, fields: ["planned_duration_minutes": "minutes", "task_label": "label"])
        }
        try context.storage.startFocusSession(session, blockedApps: blocked)
        earned.focus = EarnedBook.OpenFocus(
            id: id, started: now, plannedMinutes: start.minutes, day: earned.day,
            strict: strict, blockedApps: blocked)
        decisions.set(
            .focusStarted(
                sessionID: id, plannedMinutes: start.minutes, ends: now + Int64(start.minutes) * Millis.minute,
                clock: try clock(context)))
    }

    /// Ends the running session: completed at its planned end, else ended early at `now`.
    func endFocus(
        _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis, completed: Bool, _ decisions: inout Decisions
    ) throws {
        guard let focus = earned.focus else { throw EngineError(.noActiveFocus, "no focus session is running") }
        let actual = completed ? focus.plannedMinutes : Int((now - focus.started) / Millis.minute)
        let outcome = FocusOutcome(actualMinutes: actual, plannedMinutes: focus.plannedMinutes, completed: completed)
        let credits = try asked.focusCredits(outcome)
        guard (0...10_000).contains(credits) else {
            throw EngineError(
                .ruleViolation,
                "focus_credits(\(actual) of \(focus.plannedMinutes) minutes) returned \(credits); credits are between 0 and 10000")
        }
        let qualifies = actual >= asked.pricingKnobs.focus.minMinutesToQualify
        var streak: StreakUpdate?
        if qualifies && focus.day == earned.day {
            earned.focusMinutesToday += actual
            let economy = try context.storage.economyState(context.userID)
            streak = try streakUpdate(
                economy, focusMinutes: earned.focusMinutesToday,
                habitCompletions: economy.todayHabitQualifiedCount)
        }
        try context.storage.completeFocusSession(
            FocusCompletion(
                userID: context.userID, sessionID: focus.id, endedAt: now, actualMinutes: actual,
                completed: completed, awardedCredits: credits, qualifies: qualifies, streak: streak))
        earned.focus = nil
        if let streak { earned.qualifiedBy = streak.method }
        decisions.set(
            .focusEnded(
                Decision.FocusEnded(
                    sessionID: focus.id, completed: completed, actualMinutes: actual, creditsEarned: credits,
                    qualifies: qualifies, streak: streak)))
    }

    func defineEarnedHabit(
        _ definition: EarnedHabitDefinition, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        let id =
            earned.habits[definition.habit]
            ?? DeterministicID.text("earned-habit", context.name, definition.habit)
        let existing = try context.storage.habit(context.userID, id: id)
        var habit =
            existing
            ?? Habit(
                userID: context.userID, habitID: id, name: definition.habit, rewardCredits: asked.pricingKnobs.habits.defaultRewardCredits,
                sortOrder: earned.habits.count, createdAt: now, updatedAt: now)
        if let name = definition.name { habit.name = name }
        if let reward = definition.rewardCredits { habit.rewardCredits = reward }
        if let active = definition.active { habit.active = active }
        habit.updatedAt = now
        do { try habit.validate() } catch {
            throw EngineError(
                .invalidEvent, error, fields: ["name": definition.name == nil ? "habit" : "name", "reward_credits": "reward_credits"])
        }
        try context.storage.saveHabit(habit)
        earned.habits[definition.habit] = id
        decisions.set(
            .other(
                key: "earned_habit",
                .object([
                    ("habit", .string(definition.habit)), ("created", .bool(existing == nil)),
                    ("reward_credits", .int(habit.rewardCredits)), ("active", .bool(habit.active)),
                ])))
    }

    /// A6.7: at most one completion per habit and Earned day; during a suspension it earns nothing;
    /// otherwise `habit_award` decides its credits and whether it starts a suspension.
    func completeEarnedHabit(
        _ name: String, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        guard let id = earned.habits[name], let habit = try context.storage.habit(context.userID, id: id),
            habit.deletedAt == nil
        else {
            throw EngineError(
                .unknownHabit, Engine.unknown("habit", name, known: earned.habits.keys, definedBy: "an earned_habit"))
        }
        guard habit.active else { throw EngineError(.habitInactive, "the habit \"\(name)\" is inactive") }
        let day = earned.day
        let economy = try context.storage.economyState(context.userID)
        let today = try context.storage.habitCompletions(context.userID, fromDay: day, toDay: day)
        let recent = try context.storage.habitCompletions(
            context.userID, from: now - Int64(asked.pricingKnobs.habits.suspension.windowMinutes) * Millis.minute + 1,
            to: now + 1)
        if today.contains(where: { $0.habitID == id }) {
            throw EngineError(
                .habitAlreadyCompleted, "the habit \"\(name)\" is already completed on \(day) (one completion per habit and day, A5.4)")
        }
        var credits = 0, suspended = false
        var suspendUntil: DayID?
        var streak: StreakUpdate?
        if let until = economy.habitAwardsSuspendedUntilDayID, day <= until {
            suspended = true
        } else {
            let award = try asked.habitAward(rewardCredits: habit.rewardCredits, completionsInWindow: recent.count)
            guard (0...habit.rewardCredits).contains(award.credits), !(award.suspend && award.credits > 0) else {
                throw EngineError(
                    .ruleViolation,
                    "habit_award(reward \(habit.rewardCredits), \(recent.count) in the window) returned \(award.credits) credits\(award.suspend ? " and a suspension" : ""); credits are between 0 and the reward, none when suspending"
                )
            }
            if award.suspend {
                suspended = true
                suspendUntil = day.adding(days: asked.pricingKnobs.habits.suspension.suspendDays)
            } else {
                credits = award.credits
                streak = try streakUpdate(
                    economy, focusMinutes: earned.focusMinutesToday,
                    habitCompletions: economy.todayHabitQualifiedCount + 1)
            }
        }
        let completion = HabitCompletion(
            userID: context.userID,
            completionID: DeterministicID.text("earned-habit-completion", context.name, id, day.rawValue),
            habitID: id, timestamp: now, timezoneID: context.settings.timezoneIdentifier, dayID: day,
            awardedCredits: credits, awardSuspended: suspended, createdAt: now)
        try context.storage.recordHabitCompletion(
            HabitCompletionRecord(completion: completion, streak: streak, suspendAwardsUntil: suspendUntil))
        if let streak { earned.qualifiedBy = streak.method }
        decisions.set(
            .earnedHabitCompletion(
                Decision.EarnedHabitCompletion(
                    habit: name, day: day, creditsEarned: credits, awardSuspended: suspended,
                    awardsSuspendedUntil: suspendUntil, streak: streak)))
    }
}
