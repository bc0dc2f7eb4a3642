import RulesModel

/// Time passing: everything that happens at a fixed instant, in order, up to an event.
extension Engine {
    enum Step: Int {
        case deadline = 0, reminder, close, subscriptionExpiry, dayEnd
        case focusEnd, questExpiry, attemptExpiry, earnedDayEnd
    }

    /// The earliest of the steps considered: at the same instant in `Step` order, the first of
    /// equals. A value passed `inout`, not a variable captured by a closure (which Swift boxes
    /// and checks for exclusive access at run time, twice per event).
    struct DueStep {
        private(set) var next: (at: EpochMillis, step: Step, index: Int)?

        mutating func consider(_ at: EpochMillis, _ step: Step, _ index: Int = 0) {
            if let n = next, (at, step.rawValue) >= (n.at, n.step.rawValue) { return }
            next = (at, step, index)
        }
    }

    /// The most time one event may let pass for a user: every day in it is applied in the event's
    /// one transaction.
    static let maxTimePassing: EpochMillis = 3 * 366 * Millis.day

    /// Applies every instant ≤ `time` not yet applied.
    func advance(_ context: inout UserContext, to time: EpochMillis, _ decisions: inout Decisions) throws {
        guard time - context.processedUntil <= Engine.maxTimePassing else {
            throw EngineError(
                .outOfOrder, "this event is more than 3 years after the previous one of this user; send a tick at least every 3 years")
        }
        while let (instant, step, index) = nextStep(&context), instant <= time {
            switch step {
            case .deadline: try passDeadline(&context, &decisions)
            case .reminder: try sendReminder(index, &context, &decisions)
            case .close: try closeWindow(&context, &decisions)
            case .subscriptionExpiry: try expireSubscription(&context, at: instant, &decisions)
            case .dayEnd: try startNextDay(&context, &decisions)
            case .focusEnd, .questExpiry, .attemptExpiry, .earnedDayEnd: try applyEarnedStep(step, index, &context, &decisions)
            }
        }
        context.processedUntil = max(context.processedUntil, time)
    }

    /// (`context` is `inout` only to be read in place: a copy of it, passed by value, cost a copy of
    /// all of it and a retain of each of its references, at every step of every event.)
    private func nextStep(_ context: inout UserContext) -> (at: EpochMillis, step: Step, index: Int)? {
        var due = DueStep()
        earnedSteps(&context, &due)
        if let today = context.book.today {
            due.consider(today.end, .dayEnd)
            if !today.deadlinePassed { due.consider(today.deadline, .deadline) }
            for i in today.reminders.indices where !today.reminders[i].done { due.consider(today.reminders[i].at, .reminder, i) }
            if !today.closed { due.consider(today.close, .close) }
            if context.settings.subscriptionTier == .paid, let expiry = context.settings.subscriptionExpiry {
                due.consider(max(expiry, context.processedUntil), .subscriptionExpiry)
            }
        }
        return due.next
    }

    /// The schedule of the day the user is created in; a day whose deadline is already past does not count.
    func startFirstDay(_ context: inout UserContext) throws {
        let clock = try clock(context)
        let now = context.processedUntil
        let day = clock.day(of: now)
        context.book.today = try schedule(day, start: clock.start(of: day), context)
        if context.book.today!.deadline <= now { context.book.today!.counts = false }
    }

    /// The schedule of `day`, from the settings and the tier in force now.
    func schedule(_ day: DayID, start: EpochMillis, _ context: UserContext) throws -> DaySchedule {
        let clock = try clock(context)
        let open = context.settings.commitmentDeadline, closeTime = context.settings.checkinWindowClose
        var deadline = clock.instant(in: day, at: open)
        var close = clock.instant(in: day, at: closeTime)
        var end = clock.start(of: day.adding(days: 1)!)
        // A time-zone change can shift the new day's instants; keep them in order.
        deadline = max(deadline, start)
        close = max(close, deadline + Millis.minute)
        end = max(end, close + Millis.minute)
        let times = try reminderTimes(tier: context.escalation.currentTier.rawValue, open: open, close: closeTime)
        let reminders = times.map { DaySchedule.Reminder(at: clock.instant(in: day, at: $0), time: $0) }
        return DaySchedule(
            day: day, start: start, end: end, deadline: deadline, close: close, open: open, closeTime: closeTime,
            counts: true, reminders: reminders)
    }

    /// The rules' reminders for a tier, checked against the document's hard constraints.
    func reminderTimes(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime] {
        let times = try asked.reminderTimes(tier: tier, open: open, close: close).sorted()
        let spacing = PressureLimits.minReminderSpacingMinutes
        if times.count > PressureLimits.maxRemindersPerDay
            || times.contains(where: { $0 < open || $0 >= close })
            || zip(times, times.dropFirst()).contains(where: { $1.minutes - $0.minutes < spacing })
        {
            throw EngineError(
                .ruleViolation,
                "reminder_times(tier \(tier), window \(open)–\(close)) returned \(times.map(\.text)); at most \(PressureLimits.maxRemindersPerDay) a day, \(spacing) minutes apart, inside the window"
            )
        }
        return times
    }

    private func passDeadline(_ context: inout UserContext, _ decisions: inout Decisions) throws {
        var today = context.book.today!
        today.deadlinePassed = true
        context.book.today = today
        guard today.counts else { return }
        if let commitment = try commitment(&context, on: today.day) {
            if commitment.lockedAt == nil {
                context.cache.commitments[today.day] = .some(
                    try context.storage.lockCommitment(context.userID, on: today.day, at: today.deadline))
            }
            return
        }
        // "No commitment set by deadline: Day treated as MISSED; escalation advances."
        let result = rules.escalationKnobs.noCommitmentCountsAs
        let before = context.escalation
        let after = try nextEscalation(before, day: PressureDay(result: result, date: today.day, committed: false))
        context.cache.commitments[today.day] = .some(
            try context.storage.lockCommitment(
                context.userID, on: today.day, at: today.deadline,
                ifMissing: (DeterministicID.uuid("commitment", context.name, today.day.rawValue), after)))
        context.escalation = after
        markDayDone(&context)
        offerShield(&context, day: today.day, result: .missed, at: today.deadline, before: before)
        decisions.append(.day(dayDecision(today.day, .missed, reason: "no_commitment", before: before, after: after)))
    }

    private func sendReminder(_ index: Int, _ context: inout UserContext, _ decisions: inout Decisions) throws {
        var today = context.book.today!
        today.reminders[index].done = true
        context.book.today = today
        guard today.counts, context.settings.notificationsEnabled,
            let commitment = try commitment(&context, on: today.day),
            commitment.status == .pending
        else { return }
        let reminder = today.reminders[index]
        try context.storage.logNotification(
            NotificationLogEntry(
                id: DeterministicID.uuid("notification", context.name, String(reminder.at)), userID: context.userID,
                scheduledFor: reminder.at, tier: context.escalation.currentTier, personality: context.settings.personalityMode))
        decisions.append(.reminderSent(reminder.time))
    }

    private func closeWindow(_ context: inout UserContext, _ decisions: inout Decisions) throws {
        var today = context.book.today!
        today.closed = true
        context.book.today = today
        guard today.counts, let commitment = try commitment(&context, on: today.day),
            commitment.status == .pending
        else { return }
        // "PENDING ──► MISSED (window closes with no action)"
        let before = context.escalation
        let after = try nextEscalation(before, day: PressureDay(result: .missed, date: today.day, committed: true))
        context.cache.commitments[today.day] = .some(
            try context.storage.recordCheckIn(
                context.userID, on: today.day, status: .missed,
                at: today.close, escalation: after))
        context.escalation = after
        markDayDone(&context)
        offerShield(&context, day: today.day, result: .missed, at: today.close, before: before)
        decisions.append(.day(dayDecision(today.day, .missed, reason: "window_closed", before: before, after: after)))
    }

    private func startNextDay(_ context: inout UserContext, _ decisions: inout Decisions) throws {
        let previous = context.book.today!
        let day = try clock(context).day(after: previous.day)!
        context.cache.commitments.removeAll(keepingCapacity: true)  // the engine reads only the day in progress
        if day.month != previous.day.month { try replenishShields(&context, on: day, at: previous.end, &decisions) }
        if let shieldable = context.book.shieldable, shieldable.until < previous.end { context.book.shieldable = nil }
        context.book.today = try schedule(day, start: previous.end, context)
    }

    /// "1 per month replenished on the first of the month" (paid); free users have none.
    func replenishShields(_ context: inout UserContext, on day: DayID, at time: EpochMillis, _ decisions: inout Decisions) throws {
        let shield = rules.escalationKnobs.shield
        var state = context.escalation
        state.restartShieldsRemaining =
            context.settings.subscriptionTier == .paid ? shield.perMonthPaid : shield.perMonthFree
        state.shieldResetDate = Engine.firstOfNextMonth(after: day)
        try context.storage.saveEscalationState(context.userID, state, now: time)
        context.escalation = state
        decisions.set(.other(key: "shields_replenished", .int(state.restartShieldsRemaining)))
    }

    static func firstOfNextMonth(after day: DayID) -> DayID {
        var d = day.adding(days: 1)!
        while d.day != 1 { d = d.adding(days: 1)! }
        return d
    }

    /// Once the day has its result, its remaining reminders are cancelled.
    func markDayDone(_ context: inout UserContext) {
        guard var today = context.book.today else { return }
        for i in today.reminders.indices { today.reminders[i].done = true }
        context.book.today = today
    }

    func offerShield(_ context: inout UserContext, day: DayID, result: CommitmentStatus, at time: EpochMillis, before: EscalationState) {
        let window = Int64(rules.escalationKnobs.shield.activationWindowMinutes) * Millis.minute
        context.book.shieldable = ShieldableDay(day: day, result: result, until: time + window, before: before)
    }

    /// The user's commitment on `day`, from the context's cache or the store.
    func commitment(_ context: inout UserContext, on day: DayID) throws -> Commitment? {
        if let known = context.cache.commitments[day] { return known }
        let commitment = try context.storage.commitment(context.userID, on: day)
        context.cache.commitments[day] = .some(commitment)
        return commitment
    }
}
