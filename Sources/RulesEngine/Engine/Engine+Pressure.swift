import RulesModel
import RulesStore

/// Pressure's events: commitments, check-ins, the restart shield, settings and subscription.
extension Engine {
    /// The escalation state after a day's result: the rules' transition and streak, checked.
    func nextEscalation(_ before: EscalationState, day: PressureDay) throws -> EscalationState {
        let result = day.result
        let counters = try asked.transition(EscalationCounters(before), result)
        let streak = try asked.pressureStreak(PressureStreak(current: before.currentStreak, longest: before.longestStreak), day: day)
        let maxTier = min(rules.escalationKnobs.maxTier, PressureLimits.maxTier)
        // Only for a message: built when a rule's answer is refused.
        var input: String {
            "tier \(before.currentTier.rawValue), misses \(before.consecutiveMisses), successes \(before.consecutiveSuccesses), result \(result.rawValue)"
        }
        guard (0...maxTier).contains(counters.tier), let tier = EscalationTier(rawValue: counters.tier) else {
            throw EngineError(.ruleViolation, "transition(\(input)) returned tier \(counters.tier), outside 0–\(maxTier)")
        }
        guard counters.misses >= 0, counters.successes >= 0 else {
            throw EngineError(
                .ruleViolation,
                "transition(\(input)) returned negative counters (misses \(counters.misses), successes \(counters.successes))")
        }
        guard streak.current >= 0, streak.current <= before.currentStreak + 1, streak.longest >= max(streak.current, before.longestStreak)
        else {
            throw EngineError(
                .ruleViolation,
                "pressure.next(current \(before.currentStreak), longest \(before.longestStreak), \(day.text)) returned current \(streak.current), longest \(streak.longest)"
            )
        }
        var after = before
        after.currentTier = tier
        after.consecutiveMisses = counters.misses
        after.consecutiveSuccesses = counters.successes
        after.currentStreak = streak.current
        after.longestStreak = streak.longest
        return after
    }

    func dayDecision(
        _ day: DayID, _ result: CommitmentStatus, reason: String, before: EscalationState, after: EscalationState
    ) -> Decision.Day {
        Decision.Day(
            day: day, result: result, reason: reason, tierBefore: before.currentTier.rawValue,
            tierAfter: after.currentTier.rawValue, currentStreak: after.currentStreak)
    }

    func commit(_ text: String, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        let today = context.book.today!
        let candidate = Commitment(
            id: DeterministicID.uuid("commitment", context.name, today.day.rawValue), userID: context.userID,
            day: today.day, text: text)
        do { try candidate.validate() } catch { throw EngineError(.invalidEvent, error, fields: ["text": "text"]) }
        let clock = try clock(context)
        guard today.counts, now < today.deadline else {
            throw EngineError(
                .deadlinePassed,
                "today's commitment deadline (\(today.open), \(clock.describe(today.deadline))) has passed; the day is locked")
        }
        if try commitment(&context, on: today.day) != nil {
            context.cache.commitments[today.day] = nil  // read it again when needed
            try context.storage.editCommitmentText(context.userID, on: today.day, text: text)
            decisions.set(.commitment(day: today.day, text: text, edited: true))
        } else {
            context.cache.commitments[today.day] = nil  // read it again when needed
            try context.storage.addCommitment(candidate)
            decisions.set(.commitment(day: today.day, text: text, edited: false))
        }
    }

    func checkIn(_ result: CommitmentStatus, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        let today = context.book.today!
        guard let commitment = try commitment(&context, on: today.day) else {
            throw EngineError(.noCommitment, "there is no commitment for \(today.day) to check in")
        }
        guard commitment.status == .pending else {
            throw EngineError(
                .alreadyCheckedIn, "\(today.day) is already \(commitment.status.rawValue); a check-in is final and irreversible")
        }
        guard now >= today.deadline else {
            throw EngineError(.windowNotOpen, "the check-in window opens at the commitment deadline, \(today.open)")
        }
        guard now < today.close else {
            throw EngineError(.windowClosed, "the check-in window closed at \(today.closeTime)")
        }
        let before = context.escalation
        let after = try nextEscalation(before, day: PressureDay(result: result, date: today.day, committed: true))
        context.cache.commitments[today.day] = .some(
            try context.storage.recordCheckIn(
                context.userID, on: today.day, status: result, at: now,
                escalation: after))
        context.escalation = after
        let cancelled = today.reminders.filter { !$0.done && $0.at > now }.map(\.time)
        markDayDone(&context)
        if result == .no {
            offerShield(&context, day: today.day, result: .no, at: now, before: before)
        } else {
            context.book.shieldable = nil  // a newer result: the previous day can no longer be shielded
        }
        var decision = dayDecision(today.day, result, reason: "check_in", before: before, after: after)
        decision.remindersCancelled = cancelled
        decisions.append(.day(decision))
    }

    /// "IF restart_shields_remaining > 0 AND user activates shield: streak = 0, escalation_tier
    /// unchanged, consecutive_misses unchanged, restart_shields_remaining -= 1" — within the
    /// activation window after the NO or the miss, for paid users.
    func activateShield(_ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        guard context.settings.subscriptionTier == .paid else {
            throw EngineError(.shieldNotAvailable, "the restart shield is for paid subscribers")
        }
        guard let shieldable = context.book.shieldable, now <= shieldable.until else {
            let minutes = rules.escalationKnobs.shield.activationWindowMinutes
            throw EngineError(
                .shieldWindowPassed,
                "a shield must be activated within \(minutes) minutes of a NO check-in or a missed day; there is no such day now")
        }
        guard context.escalation.restartShieldsRemaining > 0 else {
            throw EngineError(
                .noShieldsLeft,
                "no restart shield left this month (next on \(context.escalation.shieldResetDate?.rawValue ?? "the first of next month"))")
        }
        let before = shieldable.before
        let committed = try commitment(&context, on: shieldable.day).map { !$0.isNoCommitmentDay } ?? false
        let streak = try asked.pressureStreak(
            PressureStreak(current: before.currentStreak, longest: before.longestStreak),
            day: PressureDay(result: shieldable.result, shieldUsed: true, date: shieldable.day, committed: committed))
        guard streak.current >= 0, streak.longest >= max(streak.current, before.longestStreak) else {
            throw EngineError(.ruleViolation, "pressure.next with a shield returned current \(streak.current), longest \(streak.longest)")
        }
        var after = context.escalation
        after.currentTier = before.currentTier
        after.consecutiveMisses = before.consecutiveMisses
        after.consecutiveSuccesses = before.consecutiveSuccesses
        after.currentStreak = streak.current
        after.longestStreak = max(streak.longest, context.escalation.longestStreak)
        after.restartShieldsRemaining -= 1
        context.cache.commitments[shieldable.day] = .some(
            try context.storage.useRestartShield(
                context.userID, on: shieldable.day, at: now,
                escalation: after))
        let tierBefore = context.escalation.currentTier
        context.escalation = after
        context.book.shieldable = nil
        context.book.shields = (context.book.shields ?? []) + [now]
        try replanReminders(&context, after: now)
        decisions.set(
            .shield(
                Decision.Shield(
                    day: shieldable.day, tierBefore: tierBefore.rawValue, tierAfter: after.currentTier.rawValue,
                    currentStreak: after.currentStreak, restartShieldsRemaining: after.restartShieldsRemaining)))
    }

    /// Today's reminders not yet due follow the tier after a change made during the day.
    /// A day that already has its result (a check-in, or a miss for want of a commitment) keeps
    /// its cancelled reminders: a shield for that very day plans none.
    func replanReminders(_ context: inout UserContext, after now: EpochMillis) throws {
        guard var today = context.book.today, !today.closed else { return }
        if let commitment = try commitment(&context, on: today.day), commitment.status != .pending { return }
        let clock = try clock(context)
        let kept = today.reminders.filter { $0.done || $0.at <= now }
        let fresh = try reminderTimes(tier: context.escalation.currentTier.rawValue, open: today.open, close: today.closeTime)
            .map { DaySchedule.Reminder(at: clock.instant(in: today.day, at: $0), time: $0) }
            .filter { $0.at > now }
        today.reminders = kept + fresh
        context.book.today = today
    }

    func changeSettings(
        _ change: SettingsChange, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions,
        initial: Bool
    ) throws {
        var settings = context.settings
        var changed: [(String, JSONValue)] = []
        if let v = change.commitmentDeadline { settings.commitmentDeadline = v; changed.append(("commitment_deadline", .string(v.text))) }
        if let v = change.checkinWindowClose { settings.checkinWindowClose = v; changed.append(("checkin_window_close", .string(v.text))) }
        if let v = change.timezone {
            do { _ = try LocalClock(timeZoneID: v) } catch { throw EngineError(.invalidSettings, error, fields: ["timezone": "timezone"]) }
            settings.timezoneIdentifier = v
            changed.append(("timezone", .string(v)))
        }
        if let v = change.personalityMode { settings.personalityMode = v; changed.append(("personality_mode", .string(v.rawValue))) }
        if let v = change.notificationsEnabled { settings.notificationsEnabled = v; changed.append(("notifications_enabled", .bool(v))) }
        if let v = change.dayStartsAt { changed.append(("day_starts_at", .string(v.text))) }
        do { try settings.validate() } catch {
            throw EngineError(
                .invalidSettings, error,
                fields: [
                    "commitment_deadline": "commitment_deadline", "checkin_window_close": "checkin_window_close",
                    "timezone_identifier": "timezone",
                ])
        }
        try context.storage.savePressureSettings(context.userID, settings, now: now)
        context.settings = settings
        if let v = change.dayStartsAt {
            context.book.habitDayStartsAt = v
            context.cache.timeZoneChanged()  // the habit days' boundaries moved
        }
        if change.timezone != nil {
            context.cache.timeZoneChanged()
            try earnedTimeZoneChanged(&context, at: now)
        }
        if !initial, let today = context.book.today {
            changed.append(("effective_from", .string(today.day.adding(days: 1)!.rawValue)))
        }
        decisions.set(.other(key: "settings", .object(changed)))
    }

    func changeSubscription(
        _ tier: SubscriptionTier, expiresAt: EpochMillis?, _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        var settings = context.settings
        let wasPaid = settings.subscriptionTier == .paid
        settings.subscriptionTier = tier
        settings.subscriptionExpiry = tier == .paid ? expiresAt : nil
        if let expiresAt, expiresAt <= now, tier == .paid {
            let clock = try clock(context)
            throw EngineError(
                .invalidSettings,
                "expires_at: expected a time after the event's (\(clock.describe(now)) local), found \(clock.describe(expiresAt)) local")
        }
        try context.storage.savePressureSettings(context.userID, settings, now: now)
        context.settings = settings
        try updateShieldsForSubscription(&context, wasPaid: wasPaid, at: now)
        context.book.subscriptions =
            (context.book.subscriptions ?? [])
            + [SubscriptionChange(at: now, tier: tier, expires: settings.subscriptionExpiry)]
        var fields: [(String, JSONValue)] = [("tier", .string(tier.rawValue))]
        if let expiresAt, tier == .paid { fields.append(("expires_at", .string(try clock(context).describe(expiresAt)))) }
        fields.append(("restart_shields_remaining", .int(context.escalation.restartShieldsRemaining)))
        decisions.set(.other(key: "subscription", .object(fields)))
    }

    func expireSubscription(_ context: inout UserContext, at time: EpochMillis, _ decisions: inout Decisions) throws {
        var settings = context.settings
        settings.subscriptionTier = .free
        settings.subscriptionExpiry = nil
        try context.storage.savePressureSettings(context.userID, settings, now: time)
        context.settings = settings
        try updateShieldsForSubscription(&context, wasPaid: true, at: time)
        decisions.set(
            .other(
                key: "subscription",
                .object([
                    ("tier", .string("FREE")), ("reason", .string("expired")),
                    ("restart_shields_remaining", .int(context.escalation.restartShieldsRemaining)),
                ])))
    }

    /// Paid users get this month's shields (less those already used this month); free users none.
    private func updateShieldsForSubscription(_ context: inout UserContext, wasPaid: Bool, at time: EpochMillis) throws {
        let shield = rules.escalationKnobs.shield
        let isPaid = context.settings.subscriptionTier == .paid
        guard isPaid != wasPaid, let today = context.book.today else { return }
        var state = context.escalation
        if isPaid {
            var first = today.day
            while first.day != 1 { first = first.adding(days: -1)! }
            let used = try context.storage.commitmentHistory(context.userID, lastDays: first.days(to: today.day) + 1, endingOn: today.day)
                .filter(\.shieldUsed).count
            state.restartShieldsRemaining = max(0, shield.perMonthPaid - used)
            state.shieldResetDate = Engine.firstOfNextMonth(after: today.day)
        } else {
            state.restartShieldsRemaining = shield.perMonthFree
        }
        try context.storage.saveEscalationState(context.userID, state, now: time)
        context.escalation = state
    }
}
