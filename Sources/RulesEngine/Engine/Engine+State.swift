import RulesModel
import RulesStore

/// The user's state after an event, with the seeds' field names.
extension Engine {
    func state(of context: UserContext, at now: EpochMillis) throws -> JSONOut {
        let e = context.escalation
        var fields: [(String, JSONOut)] = [
            ("current_tier", .int(e.currentTier.rawValue)),
            ("consecutive_misses", .int(e.consecutiveMisses)),
            ("consecutive_successes", .int(e.consecutiveSuccesses)),
            ("current_streak", .int(e.currentStreak)),
            ("longest_streak", .int(e.longestStreak)),
            ("restart_shields_remaining", .int(e.restartShieldsRemaining)),
            ("subscription_tier", .string(context.settings.subscriptionTier.rawValue)),
        ]
        if let today = context.book.today {
            let commitment = try storage(context).commitment(context.userID, on: today.day)
            let checkedIn = commitment.map { $0.status == .yes || $0.status == .no } ?? false
            // Tier 3: "Persistent — does not clear until YES or NO is submitted".
            fields.append(("persistent_badge", .bool(e.currentTier.rawValue >= rules.parameters.persistentBadgeFromTier && !checkedIn)))
            var day: [(String, JSONOut)] = [("day", .string(today.day.rawValue)),
                                           ("status", .string(commitment?.status.rawValue ?? (today.counts ? "NO_COMMITMENT_YET" : "NOT_COUNTED")))]
            if let text = commitment?.text, !text.isEmpty { day.append(("commitment", .string(text))) }
            day.append(("deadline", .string(today.open.text)))
            day.append(("window_close", .string(today.closeTime.text)))
            day.append(("reminders", .array(today.reminders.map { .string($0.time.text) })))
            fields.append(("today", .object(day)))
        }
        let habits = try habitStreaks(context, at: now)
        if !habits.isEmpty { fields.append(("habit_streaks", .object(habits.map { ($0.0, JSONOut.int($0.1)) }))) }
        if try storage(context).usageEvents(context.userID, from: 0, to: now + 1).isEmpty == false {
            fields.append(("miga_streak", .int(try migaStreak(context, at: now))))
        }
        return .object(fields)
    }
}
