import RulesModel

/// The seeds' defaults in plain Swift: the same decisions as the default rule set (`rules/`), with
/// no Lua. Property tests and `rulesrun … --reference` compare a rule set against it.
///
/// It follows `rules/escalation.lua` and `rules/streaks.lua` knob for knob, reading the documents
/// the same way (the escalation document's transition pseudo-code, literally; the decisions
/// written next to the streak knobs where a seed is silent). The knobs are the static constants
/// below, with the text each one comes from: escalation.lua's, streaks.lua's, pricing.lua's and
/// quests.lua's as the values of their decoded policies (`EscalationPolicy.Knobs`,
/// `StreakPolicy.Knobs`, `PricingPolicy.Knobs`, `QuestPolicy.Knobs`), which the tests compare with
/// the default rules'; the engine reads them as it reads a rule set's. The functions are in
/// `NativeReference+Escalation.swift`, `NativeReference+Streaks.swift` and `NativeReference+Economy.swift`.
///
/// Every method is a pure function of its arguments; the class holds no state.
package final class NativeReference: PolicyRules {
    package init() {}

    // MARK: Pressure escalation (pressure-escalation-engine.md)

    /// escalation.lua's values, from the document:
    /// - `tier_for_misses`: misses in a row (NO or MISSED) that set tier 1, 2, 3: "IF
    ///   consecutive_misses >= 3: tier 3, ELSE IF == 2: tier 2, ELSE IF == 1: tier 1";
    /// - `recover_after`: consecutive YES days needed to leave tier 1, 2, 3; the pseudo-code then
    ///   drops straight to tier 0;
    /// - `max_tier`: "Max escalation tier: 3";
    /// - `reminders` per tier relative to the check-in window. Tier 0: "1 reminder at check-in
    ///   window midpoint"; tier 1: "window midpoint + 1 hour before window close"; tiers 2 and 3:
    ///   "window midpoint, 2 hours before close, 30 minutes before close";
    /// - `persistent_badge_from_tier`: tier 3's badge is "persistent until check-in";
    /// - `max_reminders_per_day`: "Max notifications per day: 3"; `min_reminder_spacing_minutes`:
    ///   "Min notification spacing: 30 min";
    /// - `shield`: "Restart shields per month (paid): 1", "(free): 0"; "Shield must be activated
    ///   within 1 hour of NO check-in";
    /// - `no_commitment_counts_as`: "No commitment set by deadline: Day treated as MISSED;
    ///   escalation advances".
    package static let escalation = EscalationPolicy.Knobs(
        tierForMisses: [1, 2, 3], recoverAfter: [1, 2, 3], maxTier: 3,
        reminders: [
            0: [.midpoint],
            1: [.midpoint, .beforeClose(minutes: 60)],
            2: [.midpoint, .beforeClose(minutes: 120), .beforeClose(minutes: 30)],
            3: [.midpoint, .beforeClose(minutes: 120), .beforeClose(minutes: 30)],
        ],
        persistentBadgeFromTier: 3, maxRemindersPerDay: 3, minReminderSpacingMinutes: 30,
        shield: EscalationPolicy.ShieldPolicy(perMonthPaid: 1, perMonthFree: 0, activationWindowMinutes: 60),
        noCommitmentCountsAs: .missed)

    // MARK: Streaks (streaks.lua)

    /// streaks.lua's values, from the documents (a decision where a seed is silent):
    /// - `pressure.extends`: the results that extend the streak, consecutive YES days;
    ///   `pressure.shield_resets_streak`: "streak = 0 // streak always resets" when a restart shield is used;
    /// - `habit.min_completions`: "at least one completion" makes a period count;
    ///   `habit.require_times_per_day`, decision: a daily task with timesPerDay > 1 still needs one
    ///   completion; `habit.skip_unscheduled_days`, decision: a day a specific-days task is not
    ///   scheduled on neither counts nor breaks the streak; `habit.current_period_grace`: "Starting
    ///   from the current (or most recent completed) period": an empty running period does not break
    ///   the streak; `habit.day_starts_at`: days start at midnight; `habit.max_backfill_days`: today
    ///   only; no `best_order`, `max_completions_per_day` nor `track_app_opens` (the defaults);
    /// - `miga.counting_event`: "Exit to Focus"; `miga.day_starts_at`: "Day boundary uses device local
    ///   timezone", local midnight; `miga.current_day_grace`: "Streak breaks if no 'Exit to Focus'
    ///   events for a full calendar day": today, still running, does not break it;
    /// - `earned.day_starts_at`: "current_day_id … (04:00 boundary)", daily_reset_hour_local = 4;
    ///   `earned.focus_minutes_to_qualify`: focus.min_minutes_to_qualify = 20;
    ///   `earned.habits_to_qualify`, decision: one completed habit qualifies the day;
    ///   `earned.bonus_every_days`, `earned.bonus_credits`, decision: 10 credits each day the streak
    ///   reaches a multiple of 3, from the STREAK_BONUS_AWARDED example (amount 10 at streak_count 3);
    ///   `earned.freeze_max`, decision: no streak freezes (0): a day that does not qualify resets the
    ///   streak, as the document's rollover does (`freeze_every_days` is then not used).
    package static let streaks = StreakPolicy.Knobs(
        pressure: StreakPolicy.Pressure.Knobs(extends: [.yes], shieldResetsStreak: true),
        habit: StreakPolicy.Habit.Knobs(
            minCompletions: 1, requireTimesPerDay: false, skipUnscheduledDays: true, currentPeriodGrace: true,
            dayStartsAt: LocalTime(hour: 0, minute: 0), maxBackfillDays: 0),
        miga: StreakPolicy.Miga.Knobs(countingEvent: .exitToFocus, dayStartsAt: LocalTime(hour: 0, minute: 0), currentDayGrace: true),
        earned: StreakPolicy.Earned.Knobs(
            dayStartsAt: LocalTime(hour: 4, minute: 0), focusMinutesToQualify: 20, habitsToQualify: 1, bonusEveryDays: 3,
            bonusCredits: 10, freezeMax: 0, freezeEveryDays: 7))

    // MARK: PolicyRules

    /// The seeds' defaults declare no params.
    package var streakParams: RuleParams { RuleParams() }
    package var priceParams: RuleParams { RuleParams() }

    package var escalationKnobs: EscalationPolicy.Knobs { Self.escalation }
    package var streakKnobs: StreakPolicy.Knobs { Self.streaks }
}
