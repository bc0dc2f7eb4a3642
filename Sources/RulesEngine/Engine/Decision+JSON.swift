import RulesModel
import RulesStore

/// Decisions as `apply` and `replay` print them: each under its key, its fields in a fixed order.
extension Decision {
    /// The decision's value under its key (for a list's element, the element).
    package var json: JSONValue {
        switch self {
        case .commitment(let day, let text, let edited):
            return .object([("day", .string(day.rawValue)), ("text", .string(text)), ("edited", .bool(edited))])
        case .day(let d):
            var fields: [(String, JSONValue)] = [
                ("day", .string(d.day.rawValue)), ("result", .string(d.result.rawValue)), ("reason", .string(d.reason)),
                ("tier_before", .int(d.tierBefore)), ("tier_after", .int(d.tierAfter)), ("current_streak", .int(d.currentStreak)),
            ]
            if !d.remindersCancelled.isEmpty {
                fields.append(("reminders_cancelled", .array(d.remindersCancelled.map { .string($0.text) })))
            }
            return .object(fields)
        case .reminderSent(let time):
            return .string(time.text)
        case .shield(let s):
            return .object([
                ("day", .string(s.day.rawValue)), ("tier_before", .int(s.tierBefore)), ("tier_after", .int(s.tierAfter)),
                ("current_streak", .int(s.currentStreak)), ("restart_shields_remaining", .int(s.restartShieldsRemaining)),
            ])
        case .unlockGate(let app, nil):
            return .object([("app", .string(app.rawValue)), ("blocked", .bool(false))])
        case .unlockGate(let app, let attempt?):
            return .object([
                ("app", .string(app.rawValue)), ("blocked", .bool(true)), ("attempt_id", .string(attempt.attemptID)),
                ("available_options", JSONValue(attempt.options)),
            ])
        case .attemptExpired(let app, let attemptID):
            return .object([("app", .string(app)), ("attempt_id", .string(attemptID))])
        case .unlockCancelled(let app, let attemptID):
            return .object([("app", .string(app.rawValue)), ("attempt_id", .string(attemptID))])
        case .questExpired(let app, let questSessionID, let attemptID):
            return .object([("app", .string(app)), ("quest_session_id", .string(questSessionID)), ("attempt_id", .string(attemptID))])
        case .unlock(let u):
            return .object(u.fields)
        case .quest(let q):
            var fields: [(String, JSONValue)] = [
                ("app", .string(q.app.rawValue)), ("quest_session_id", .string(q.questSessionID)), ("state", .string(q.state.rawValue)),
            ]
            if let reason = q.reason { fields.append(("reason", .string(reason.rawValue))) }
            if let grant = q.grant { fields += grant.fields }
            return .object(fields)
        case .earnedDay(let e):
            var fields: [(String, JSONValue)] = [
                ("from_day_id", .string(e.from.rawValue)), ("to_day_id", .string(e.to.rawValue)),
                ("carried_credits", .int(e.carriedCredits)), ("forfeited_credits", .int(e.forfeitedCredits)),
                ("streak_count", .int(e.streakCount)),
            ]
            if let freezes = e.freezes {
                if freezes.used { fields.append(("freeze_used", .bool(true))) }
                fields.append(("freezes", .int(freezes.count)))
            }
            return .object(fields)
        case .focusStarted(let sessionID, let plannedMinutes, let ends, let clock):
            return .object([
                ("session_id", .string(sessionID)), ("planned_minutes", .int(plannedMinutes)), ("ends", .string(clock.describe(ends))),
            ])
        case .focusEnded(let f):
            return .object(
                [
                    ("session_id", .string(f.sessionID)), ("completed", .bool(f.completed)), ("actual_minutes", .int(f.actualMinutes)),
                    ("credits_earned", .int(f.creditsEarned)), ("qualifies", .bool(f.qualifies)),
                ] + Self.fields(f.streak))
        case .earnedHabitCompletion(let h):
            var fields: [(String, JSONValue)] = [
                ("habit", .string(h.habit)), ("day_id", .string(h.day.rawValue)), ("credits_earned", .int(h.creditsEarned)),
                ("award_suspended", .bool(h.awardSuspended)),
            ]
            if let until = h.awardsSuspendedUntil { fields.append(("awards_suspended_until", .string(until.rawValue))) }
            return .object(fields + Self.fields(h.streak))
        case .habitCompletion(let task, let period, let completions, let streak):
            return .object(
                [("task", .string(task)), ("period", .string(period)), ("completions_in_period", .int(completions))]
                    + streak.decisionFields)
        case .miga(let event, let app, let streak):
            return .object([("event", .string(event.rawValue)), ("app", .string(app)), ("current_streak", .int(streak))])
        case .other(_, let value):
            return value
        }
    }

    /// The day's streak qualification, when there is one.
    private static func fields(_ streak: StreakUpdate?) -> [(String, JSONValue)] {
        guard let streak else { return [] }
        return [
            ("streak_qualified", .string(streak.method.rawValue)), ("streak_count", .int(streak.newStreakCount)),
            ("streak_bonus", .int(streak.bonusCredits)),
        ]
    }
}

extension Decision.Grant {
    /// `extended` when the attempt extended a grant another attempt made.
    var fields: [(String, JSONValue)] {
        [
            ("grant_id", .string(grantID)), ("extended", .bool(extended)),
            ("starts", .string(clock.describe(starts))), ("ends", .string(clock.describe(ends))),
        ]
    }
}

extension Decision.Unlock {
    /// The choice, what it asked for, then what it led to.
    var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("app", .string(app.rawValue)), ("attempt_id", .string(attemptID)), ("option", .string(option.rawValue)),
        ]
        if let minutes { fields.append(("minutes", .int(minutes))) }
        if let questType { fields.append(("quest_type", .string(questType.rawValue))) }
        switch outcome {
        case .granted(let grant, let cost):
            if let cost { fields.append(("cost_credits", .int(cost))) }
            fields.append(("outcome", .string("GRANTED")))
            fields += grant.fields
        case .questStarted(let id, let expires, let clock):
            fields += [
                ("outcome", .string("QUEST_STARTED")), ("quest_session_id", .string(id)), ("expires", .string(clock.describe(expires))),
            ]
        case .denied(let reason):
            fields += [("outcome", .string("DENIED")), ("reason", .string(reason.rawValue))]
        }
        return fields
    }
}
