extension EventPayload: Validatable {
    /// The `event_log.type` of the payload.
    public var type: EventType {
        switch self {
        case .dayRollover: .dayRollover
        case .creditsEarned: .creditsEarned
        case .creditsSpent: .creditsSpent
        case .streakQualified: .streakQualified
        case .streakBonusAwarded: .streakBonusAwarded
        case .habitAwardSuspended: .habitAwardSuspended
        case .unlockAttemptCreated: .unlockAttemptCreated
        case .unlockOptionSelected: .unlockOptionSelected
        case .unlockGranted: .unlockGranted
        case .unlockDenied: .unlockDenied
        case .questStarted: .questStarted
        case .questCompleted: .questCompleted
        case .questFailed: .questFailed
        case .questCancelled: .questCancelled
        case .questExpired: .questExpired
        case .emergencyUsed: .emergencyUsed
        case .focusStarted: .focusStarted
        case .focusEnded: .focusEnded
        }
    }

    /// The `payload_json` text (sorted keys).
    public func json() throws -> String { try JSONWriter.text(of: body) }

    /// The value of the payload's case, as it is encoded.
    var body: any JSONWritable {
        switch self {
        case .dayRollover(let p): p
        case .creditsEarned(let p): p
        case .creditsSpent(let p): p
        case .streakQualified(let p): p
        case .streakBonusAwarded(let p): p
        case .habitAwardSuspended(let p): p
        case .unlockAttemptCreated(let p): p
        case .unlockOptionSelected(let p): p
        case .unlockGranted(let p): p
        case .unlockDenied(let p): p
        case .questStarted(let p), .questCompleted(let p), .questCancelled(let p), .questExpired(let p): p
        case .questFailed(let p): p
        case .emergencyUsed(let p): p
        case .focusStarted(let p): p
        case .focusEnded(let p): p
        }
    }

    /// Parses the `payload_json` of an event of type `type`; the error names the JSON path.
    public static func decode(type: EventType, json: String) throws -> EventPayload {
        func d<T: Decodable>(_: T.Type) throws -> T {
            try ModelJSON.decode(T.self, from: json, entity: "EventLogEntry", field: "payload_json")
        }
        let payload: EventPayload =
            switch type {
            case .dayRollover: .dayRollover(try d(DayRollover.self))
            case .creditsEarned: .creditsEarned(try d(CreditsEarned.self))
            case .creditsSpent: .creditsSpent(try d(CreditsSpent.self))
            case .streakQualified: .streakQualified(try d(StreakQualified.self))
            case .streakBonusAwarded: .streakBonusAwarded(try d(StreakBonusAwarded.self))
            case .habitAwardSuspended: .habitAwardSuspended(try d(HabitAwardSuspended.self))
            case .unlockAttemptCreated: .unlockAttemptCreated(try d(UnlockAttemptCreated.self))
            case .unlockOptionSelected: .unlockOptionSelected(try d(UnlockOptionSelected.self))
            case .unlockGranted: .unlockGranted(try d(UnlockGranted.self))
            case .unlockDenied: .unlockDenied(try d(UnlockDenied.self))
            case .questStarted: .questStarted(try d(QuestRef.self))
            case .questCompleted: .questCompleted(try d(QuestRef.self))
            case .questFailed: .questFailed(try d(QuestFailed.self))
            case .questCancelled: .questCancelled(try d(QuestRef.self))
            case .questExpired: .questExpired(try d(QuestRef.self))
            case .emergencyUsed: .emergencyUsed(try d(EmergencyUsed.self))
            case .focusStarted: .focusStarted(try d(FocusStarted.self))
            case .focusEnded: .focusEnded(try d(FocusEnded.self))
            }
        try payload.validate()
        return payload
    }

    public func validate() throws {
        let check = FieldCheck("EventPayload", member: type.rawValue)
        switch self {
        case .dayRollover(let p):
            try check.require(p.toDayID > p.fromDayID, "to_day_id", "after from_day_id (\(p.fromDayID))", p.toDayID.rawValue)
            try check.atLeast("carried_credits", p.carriedCredits, 0)
        case .creditsEarned(let p):
            try check.atLeast("amount", p.amount, 1)
            try check.optionalIdentifier("focus_session_id", p.focusSessionID)
            try check.optionalIdentifier("habit_id", p.habitID)
            try check.require(p.source != .focus || p.focusSessionID != nil, "focus_session_id", "set when source is FOCUS", "null")
            try check.require(p.source != .habit || p.habitID != nil, "habit_id", "set when source is HABIT", "null")
        case .creditsSpent(let p):
            try check.atLeast("amount", p.amount, 1)
            try check.atLeast("unlock_minutes", p.unlockMinutes, 1)
            try check.identifier("attempt_id", p.attemptID)
        case .streakQualified(let p):
            try check.atLeast("streak_count_new", p.streakCountNew, 1)
            try check.timestamp("first_qualified_ts_utc_ms", p.firstQualifiedAt)
        case .streakBonusAwarded(let p):
            try check.atLeast("amount", p.amount, 1)
            try check.atLeast("streak_count", p.streakCount, 1)
        case .habitAwardSuspended:
            break
        case .unlockAttemptCreated(let p):
            try check.identifier("attempt_id", p.attemptID)
            try check.optionalIdentifier("mode_id", p.modeID)
        case .unlockOptionSelected(let p):
            try check.identifier("attempt_id", p.attemptID)
            try check.require(p.optionPayload.isObject, "option_payload", "a JSON object", "\(p.optionPayload)")
        case .unlockGranted(let p):
            try check.identifier("grant_id", p.grantID)
            try check.identifier("attempt_id", p.attemptID)
            try check.require(p.endsAt > p.startsAt, "ends_ts_utc_ms", "after starts_ts_utc_ms (\(p.startsAt))", "\(p.endsAt)")
        case .unlockDenied(let p):
            try check.identifier("attempt_id", p.attemptID)
        case .questStarted(let p), .questCompleted(let p), .questCancelled(let p), .questExpired(let p):
            try check.identifier("quest_session_id", p.questSessionID)
            try check.identifier("attempt_id", p.attemptID)
        case .questFailed(let p):
            try check.identifier("quest_session_id", p.questSessionID)
            try check.identifier("attempt_id", p.attemptID)
        case .emergencyUsed(let p):
            try check.identifier("attempt_id", p.attemptID)
            try check.atLeast("delay_seconds", p.delaySeconds, 0)
            try check.atLeast("unlock_minutes", p.unlockMinutes, 1)
        case .focusStarted(let p):
            try check.identifier("session_id", p.sessionID)
            try check.atLeast("planned_minutes", p.plannedMinutes, 1)
        case .focusEnded(let p):
            try check.identifier("session_id", p.sessionID)
            try check.atLeast("actual_minutes", p.actualMinutes, 0)
            try check.require(!(p.completed && p.endedEarly), "ended_early", "false when completed", "true")
        }
    }
}
