import RulesModel
import RulesStore

/// The user's state after an event, with the seeds' field names.
extension Engine {
    /// (It fills the context's cache: the habit streaks it asked the rules for are kept.)
    func state(of context: inout UserContext, at now: EpochMillis) throws -> JSONValue {
        let e = context.escalation
        var fields: [(String, JSONValue)] = [
            ("current_tier", .int(e.currentTier.rawValue)),
            ("consecutive_misses", .int(e.consecutiveMisses)),
            ("consecutive_successes", .int(e.consecutiveSuccesses)),
            ("current_streak", .int(e.currentStreak)),
            ("longest_streak", .int(e.longestStreak)),
            ("restart_shields_remaining", .int(e.restartShieldsRemaining)),
            ("subscription_tier", .string(context.settings.subscriptionTier.rawValue)),
        ]
        if let today = context.book.today {
            let commitment = try context.storage.commitment(context.userID, on: today.day)
            let checkedIn = commitment.map { $0.status == .yes || $0.status == .no } ?? false
            // Tier 3: "Persistent — does not clear until YES or NO is submitted".
            fields.append(
                ("persistent_badge", .bool(e.currentTier.rawValue >= rules.escalationKnobs.persistentBadgeFromTier && !checkedIn)))
            var day: [(String, JSONValue)] = [
                ("day", .string(today.day.rawValue)),
                ("status", .string(commitment?.status.rawValue ?? (today.counts ? "NO_COMMITMENT_YET" : "NOT_COUNTED"))),
            ]
            if let text = commitment?.text, !text.isEmpty { day.append(("commitment", .string(text))) }
            day.append(("deadline", .string(today.open.text)))
            day.append(("window_close", .string(today.closeTime.text)))
            day.append(("reminders", .array(today.reminders.map { .string($0.time.text) })))
            fields.append(("today", .object(day)))
        }
        var apps: [(String, JSONValue)] = []
        let (habits, refused) = try habitStreaks(&context, at: now)
        if !habits.isEmpty { apps += HabitStreak.stateFields(habits) }
        if !refused.isEmpty { apps.append(("habit_streak_errors", .object(refused.map { ($0, .string($1)) }))) }
        if try context.storage.usageEvents(context.userID, from: 0, to: now + 1).isEmpty == false {
            apps.append(("miga_streak", .int(try migaStreak(context, at: now))))
        }
        if let earned = context.book.earned { apps.append(("earned", try earnedState(earned, context, at: now))) }
        // A user of other apps who takes no part in Pressure: Pressure's fields, which could only
        // show its initial state, are left out.
        let noPressure = context.book.today == nil && e == .initial && context.settings.subscriptionTier == .free
        // The exposures last, when there are any: not an app (a user with only exposures shows Pressure's fields).
        let exposures = try exposuresState(&context).map { [("exposures", $0)] } ?? []
        return .object((noPressure && !apps.isEmpty ? [] : fields) + apps + exposures)
    }

    /// Earned's part of the state: the economy, what is open, and the grants running.
    private func earnedState(_ earned: EarnedBook, _ context: UserContext, at now: EpochMillis) throws -> JSONValue {
        let clock = try clock(context)
        let (economy, grants) = (
            try context.storage.economyState(context.userID), try context.storage.activeGrants(context.userID, at: now)
        )
        var fields: [(String, JSONValue)] = [
            ("day_id", .string(earned.day.rawValue)),
            ("credit_balance", .int(economy.creditBalance)),
            ("streak_count", .int(economy.streakCount)),
            ("today_qualified", .bool(economy.todayQualified)),
        ]
        var copy = context
        if let mode = try effectiveMode(&copy, at: now)?.mode {
            fields.append(("mode_in_force", .object([("mode", .string(mode.name)), ("strictness", .string(mode.strictness.rawValue))])))
        }
        if let until = economy.habitAwardsSuspendedUntilDayID, until >= earned.day {
            fields.append(("habit_awards_suspended_until_day_id", .string(until.rawValue)))
        }
        if let focus = earned.focus { fields.append(("focus_until", .string(clock.describe(focus.ends)))) }
        if !earned.attempts.isEmpty { fields.append(("attempts_open", .array(earned.attempts.keys.sorted().map { .string($0) }))) }
        if !earned.quests.isEmpty {
            fields.append(("quests_running", .object(earned.quests.keys.sorted().map { ($0, .string(earned.quests[$0]!.type.rawValue)) })))
        }
        if !grants.isEmpty {
            fields.append(("unlocked_until", .object(grants.map { ($0.appID.rawValue, .string(clock.describe($0.endsAt))) })))
        }
        return .object(fields)
    }
}

extension Engine {
    /// The state of the user named `name` as its last applied event left it (what a refused event
    /// leaves unchanged), or nil when no event created the user (or the state cannot be computed:
    /// a rule failing on it). Reads only; in a store batch, nil (the batch's contexts are its own);
    /// in a recording batch, from the user's context there.
    public func state(ofUser name: String) -> JSONValue? {
        if case .recording(let batch) = mode {
            guard let user = batch.user(named: name) else { return nil }
            return try? state(of: &user.context, at: user.context.processedUntil)
        }
        guard case .single(let store) = mode else { return nil }
        let nested = store.isInTransaction
        return try? store.transaction { () -> JSONValue? in
            // The context the user's last applied event left, when kept (``KeptContexts``), else
            // read; kept with what this state adds to its cache (reading writes nothing).
            let stamp = try store.changeStamp()
            var context: UserContext
            if let known = kept.context(of: name, current: stamp) {
                context = known
            } else {
                guard let row = try store.read({ try $0.engineState(named: name) }) else { return nil }
                context = try UserContext.load(name, store: store, now: row.processedUntil)
            }
            let state = try state(of: &context, at: context.processedUntil)
            if !nested { kept.keep(context, stamp: stamp) }
            return state
        }
    }
}
