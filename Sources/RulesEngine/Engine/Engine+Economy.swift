import RulesModel
import RulesStore

/// Earned's day cycle: the economy starts at a user's first Earned event; from then on the day
/// rolls over at `earned.day_starts_at` local (04:00) in the user's time zone, open attempts and
/// quests expire, and focus sessions end at their planned length.
extension Engine {
    /// Earned's clock: the user's time zone, days starting at `earned.day_starts_at`.
    @inline(__always)  // not called: a call copies the whole context (see nextStep)
    func earnedClock(_ context: UserContext) throws -> LocalClock {
        try clock(context, dayStartsAt: rules.streakKnobs.earned.dayStartsAt)
    }

    /// Starts the user's economy on the Earned day of `now`, with the user's time zone in its
    /// settings; returns its book (also in `context`).
    @discardableResult
    func startEarned(_ context: inout UserContext, at now: EpochMillis) throws -> EarnedBook {
        let clock = try earnedClock(context)
        let day = clock.day(of: now)
        var settings = try earnedSettings(&context)
        if settings.timezoneID != context.settings.timezoneIdentifier {
            settings.timezoneID = context.settings.timezoneIdentifier
            try context.storage.saveEarnedSettings(context.userID, settings, now: now)
            context.cache.earnedSettings = settings
        }
        try context.storage.startEconomy(
            context.userID, day: day, timezoneID: context.settings.timezoneIdentifier,
            rolloverCap: asked.pricingKnobs.rolloverCap, resetHour: rules.streakKnobs.earned.dayStartsAt.minutes / 60, at: now)
        var earned = EarnedBook(day: day, dayEnds: try end(of: day, context, notBefore: now))
        // The first Earned event is the app's first start: its cleanup has nothing to delete.
        earned.cleanup = EarnedBook.Cleanup(at: now, wholeFrom: 0)
        context.book.earned = earned
        return earned
    }

    /// Offers Earned's next steps to `due`, in `Step` order: the day's end, the focus session's
    /// end, then the earliest quest expiry and the earliest attempt expiry, each with its index
    /// among the apps in key order (`applyEarnedStep` finds the app again by it); of equal expiries
    /// the first app in key order. Allocates nothing (it runs twice per event).
    func earnedSteps(_ context: inout UserContext, _ due: inout DueStep) {
        guard let earned = context.book.earned else { return }
        due.consider(earned.dayEnds, .earnedDayEnd, 0)
        if let focus = earned.focus { due.consider(focus.ends, .focusEnd, 0) }
        if let (at, index) = Self.earliest(earned.quests, \.expires) { due.consider(at, .questExpiry, index) }
        if let (at, index) = Self.earliest(earned.attempts, \.expires) { due.consider(at, .attemptExpiry, index) }
    }

    /// The earliest instant of `open`'s values, and the index of its app among the apps in key
    /// order (of equal instants, the first app in that order).
    private static func earliest<V>(_ open: [String: V], _ instant: (V) -> EpochMillis) -> (EpochMillis, Int)? {
        // Most of the time there is none (asked twice per event): no iteration set up for nothing.
        if open.isEmpty { return nil }
        var best: (at: EpochMillis, app: String)?
        for (app, value) in open {
            let at = instant(value)
            if let b = best, (at, app) >= (b.at, b.app) { continue }
            best = (at, app)
        }
        guard let best else { return nil }
        var index = 0
        for app in open.keys where app < best.app { index += 1 }
        return (best.at, index)
    }

    /// Applies one of the steps `earnedSteps` offered (none is offered before Earned starts).
    func applyEarnedStep(_ step: Step, _ index: Int, _ context: inout UserContext, _ decisions: inout Decisions) throws {
        guard var earned = context.book.earned else { return }
        // The book is out of the context while the step changes it (in place), and back after.
        context.book.earned = nil
        defer { context.book.earned = earned }
        switch step {
        case .focusEnd:
            try endFocus(&earned, &context, at: earned.focus!.ends, completed: true, &decisions)
        case .questExpiry:
            let app = earned.quests.keys.sorted()[index]
            let quest = earned.quests[app]!
            try context.storage.endQuest(context.userID, questSessionID: quest.id, state: .expired, at: quest.expires)
            try context.storage.closeUnlockAttempt(context.userID, attemptID: quest.attemptID, outcome: .expired, at: quest.expires)
            earned.quests[app] = nil
            decisions.append(.questExpired(app: app, questSessionID: quest.id, attemptID: quest.attemptID))
        case .attemptExpiry:
            let app = earned.attempts.keys.sorted()[index]
            let attempt = earned.attempts[app]!
            try context.storage.closeUnlockAttempt(context.userID, attemptID: attempt.id, outcome: .expired, at: attempt.expires)
            earned.attempts[app] = nil
            decisions.append(.attemptExpired(app: app, attemptID: attempt.id))
        default:
            try rollOverEarnedDay(&earned, &context, &decisions)
        }
    }

    /// A6.1: the day ends; credits are carried up to the rules' cap, and `earned.day_ends` says what
    /// the streak and the freezes held become (the default: kept only when the day qualified).
    private func rollOverEarnedDay(_ book: inout EarnedBook, _ context: inout UserContext, _ decisions: inout Decisions) throws {
        // Changed on a copy: the book changes only when the whole rollover succeeds.
        var earned = book
        let at = earned.dayEnds
        let from = earned.day
        let to = try earnedClock(context).day(after: from)!
        let economy = try context.storage.economyState(context.userID)
        let carried = try asked.carriedCredits(balance: economy.creditBalance)
        guard (0...economy.creditBalance).contains(carried) else {
            throw EngineError(
                .ruleViolation,
                "carried_credits(\(economy.creditBalance)) returned \(carried); the carried credits are between 0 and the balance")
        }
        let held = earned.freezes ?? 0
        let ended = EarnedDayEnd(
            date: from, qualified: economy.todayQualified ? earned.qualifiedBy ?? Self.method(of: economy) : nil,
            streakCount: economy.streakCount, freezes: held)
        let next = try asked.earnedDayEnds(ended)
        if let problem = ended.problem(with: next) {
            throw EngineError(.ruleViolation, "earned.day_ends(\(ended.text)) returned \(problem)")
        }
        let streak = next.streakCount
        try context.storage.rollOverDay(
            DayRollover(
                userID: context.userID, toDayID: to, carriedCredits: carried, streakCount: streak,
                timezoneID: context.settings.timezoneIdentifier, at: at))
        earned.day = to
        earned.focusMinutesToday = 0
        earned.unlocksToday = nil
        earned.qualifiedBy = nil
        earned.freezes = next.freezes == 0 ? nil : next.freezes
        earned.dayEnds = try end(of: to, context, notBefore: at)
        book = earned
        // The freezes show only under a freeze policy (or while the user holds some), so that the
        // default rules' decisions stay as they were.
        let freezes = rules.streakKnobs.earned.freezesOn || held > 0 || next.freezes > 0
        decisions.append(
            .earnedDay(
                Decision.EarnedDay(
                    from: from, to: to, carriedCredits: carried, forfeitedCredits: economy.creditBalance - carried,
                    streakCount: streak, freezes: freezes ? (next.freezes, next.freezes < held) : nil)))
    }

    /// How a day qualified, read from the economy, for a state saved before the engine kept the
    /// method: FOCUS when its focus qualified, else HABITS.
    private static func method(of economy: EconomyState) -> StreakQualificationMethod {
        economy.todayFocusQualified ? .focus : .habits
    }

    /// After a time-zone change: settings_json carries the new zone (for every user, so that a
    /// user's two settings rows agree before Earned starts), and Earned's day in progress ends at
    /// the next day start in the new zone (at once when that is already past).
    func earnedTimeZoneChanged(_ context: inout UserContext, at now: EpochMillis) throws {
        var settings = try earnedSettings(&context)
        if settings.timezoneID != context.settings.timezoneIdentifier {
            settings.timezoneID = context.settings.timezoneIdentifier
            try context.storage.saveEarnedSettings(context.userID, settings, now: now)
            context.cache.earnedSettings = settings
        }
        guard var earned = context.book.earned else { return }
        earned.dayEnds = try end(of: earned.day, context, notBefore: now)
        context.book.earned = earned
    }

    /// The end of Earned's `day`: the start of the next one in the user's current time zone, or
    /// `instant` when that is already past (a time-zone change can move it there).
    private func end(of day: DayID, _ context: UserContext, notBefore instant: EpochMillis) throws -> EpochMillis {
        max(try earnedClock(context).start(of: day.adding(days: 1)!), instant)
    }

    /// The streak update of today when it qualifies now (and had not yet), with its bonus.
    func streakUpdate(_ economy: EconomyState, focusMinutes: Int, habitCompletions: Int) throws -> StreakUpdate? {
        guard !economy.todayQualified,
            let method = try asked.earnedQualification(focusMinutes: focusMinutes, habitCompletions: habitCompletions)
        else { return nil }
        let count = economy.streakCount + 1
        let bonus = try asked.earnedBonus(streakCount: count)
        guard (0...StreakPolicy.maxBonusCredits).contains(bonus) else {
            throw EngineError(
                .ruleViolation, "earned.bonus(\(count)) returned \(bonus); a bonus is between 0 and \(StreakPolicy.maxBonusCredits) credits"
            )
        }
        return StreakUpdate(method: method, newStreakCount: count, bonusCredits: bonus)
    }
}
