/// The `event_log.payload_json` of each event type (A7), as Codable values with the seed's keys.
///
/// Decisions: `CREDITS_EARNED.focus_session_id`/`habit_id` and `UNLOCK_ATTEMPT_CREATED.mode_id`
/// are written as explicit `null` when absent, as A7 shows them; `UNLOCK_OPTION_SELECTED.option_payload`
/// is any JSON object; `QUEST_STARTED`, `QUEST_COMPLETED`, `QUEST_CANCELLED` and `QUEST_EXPIRED`
/// share one shape. Amounts are > 0 (an event that moves no credits is not logged).
public enum EventPayload: Hashable, Sendable {
    case dayRollover(DayRollover)
    case creditsEarned(CreditsEarned)
    case creditsSpent(CreditsSpent)
    case streakQualified(StreakQualified)
    case streakBonusAwarded(StreakBonusAwarded)
    case habitAwardSuspended(HabitAwardSuspended)
    case unlockAttemptCreated(UnlockAttemptCreated)
    case unlockOptionSelected(UnlockOptionSelected)
    case unlockGranted(UnlockGranted)
    case unlockDenied(UnlockDenied)
    case questStarted(QuestRef)
    case questCompleted(QuestRef)
    case questFailed(QuestFailed)
    case questCancelled(QuestRef)
    case questExpired(QuestRef)
    case emergencyUsed(EmergencyUsed)
    case focusStarted(FocusStarted)
    case focusEnded(FocusEnded)

    public struct DayRollover: Hashable, Sendable, Codable {
        public var fromDayID: DayID, toDayID: DayID, carriedCredits: Int
        public init(fromDayID: DayID, toDayID: DayID, carriedCredits: Int) {
            self.fromDayID = fromDayID; self.toDayID = toDayID; self.carriedCredits = carriedCredits
        }
        enum CodingKeys: String, CodingKey { case fromDayID = "from_day_id", toDayID = "to_day_id", carriedCredits = "carried_credits" }
    }

    public struct CreditsEarned: Hashable, Sendable, Codable {
        public var source: CreditSource, amount: Int, focusSessionID: String?, habitID: String?
        public init(source: CreditSource, amount: Int, focusSessionID: String? = nil, habitID: String? = nil) {
            self.source = source; self.amount = amount; self.focusSessionID = focusSessionID; self.habitID = habitID
        }
        enum CodingKeys: String, CodingKey { case source, amount, focusSessionID = "focus_session_id", habitID = "habit_id" }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(source, forKey: .source)
            try c.encode(amount, forKey: .amount)
            try c.encode(focusSessionID, forKey: .focusSessionID)
            try c.encode(habitID, forKey: .habitID)
        }
    }

    public struct CreditsSpent: Hashable, Sendable, Codable {
        public var appID: AppID, amount: Int, unlockMinutes: Int, attemptID: String
        public init(appID: AppID, amount: Int, unlockMinutes: Int, attemptID: String) {
            self.appID = appID; self.amount = amount; self.unlockMinutes = unlockMinutes; self.attemptID = attemptID
        }
        enum CodingKeys: String, CodingKey { case appID = "app_id", amount, unlockMinutes = "unlock_minutes", attemptID = "attempt_id" }
    }

    public struct StreakQualified: Hashable, Sendable, Codable {
        public var dayID: DayID, method: StreakQualificationMethod, streakCountNew: Int, firstQualifiedAt: EpochMillis
        public init(dayID: DayID, method: StreakQualificationMethod, streakCountNew: Int, firstQualifiedAt: EpochMillis) {
            self.dayID = dayID; self.method = method; self.streakCountNew = streakCountNew; self.firstQualifiedAt = firstQualifiedAt
        }
        enum CodingKeys: String, CodingKey {
            case dayID = "day_id", method, streakCountNew = "streak_count_new", firstQualifiedAt = "first_qualified_ts_utc_ms"
        }
    }

    public struct StreakBonusAwarded: Hashable, Sendable, Codable {
        public var dayID: DayID, amount: Int, streakCount: Int
        public init(dayID: DayID, amount: Int, streakCount: Int) {
            self.dayID = dayID; self.amount = amount; self.streakCount = streakCount
        }
        enum CodingKeys: String, CodingKey { case dayID = "day_id", amount, streakCount = "streak_count" }
    }

    public struct HabitAwardSuspended: Hashable, Sendable, Codable {
        public var untilDayID: DayID, reason: HabitSuspensionReason
        public init(untilDayID: DayID, reason: HabitSuspensionReason = .tooManyCompletionsInWindow) {
            self.untilDayID = untilDayID; self.reason = reason
        }
        enum CodingKeys: String, CodingKey { case untilDayID = "until_day_id", reason }
    }

    public struct UnlockAttemptCreated: Hashable, Sendable, Codable {
        public var attemptID: String, appID: AppID, modeID: String?, strictness: Strictness
        public init(attemptID: String, appID: AppID, modeID: String?, strictness: Strictness) {
            self.attemptID = attemptID; self.appID = appID; self.modeID = modeID; self.strictness = strictness
        }
        enum CodingKeys: String, CodingKey { case attemptID = "attempt_id", appID = "app_id", modeID = "mode_id", strictness }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(attemptID, forKey: .attemptID)
            try c.encode(appID, forKey: .appID)
            try c.encode(modeID, forKey: .modeID)
            try c.encode(strictness, forKey: .strictness)
        }
    }

    public struct UnlockOptionSelected: Hashable, Sendable, Codable {
        public var attemptID: String, optionType: UnlockOptionType, optionPayload: JSONValue
        public init(attemptID: String, optionType: UnlockOptionType, optionPayload: JSONValue = .emptyObject) {
            self.attemptID = attemptID; self.optionType = optionType; self.optionPayload = optionPayload
        }
        enum CodingKeys: String, CodingKey { case attemptID = "attempt_id", optionType = "option_type", optionPayload = "option_payload" }
    }

    public struct UnlockGranted: Hashable, Sendable, Codable {
        public var grantID: String, appID: AppID, method: UnlockGrantMethod, startsAt: EpochMillis, endsAt: EpochMillis, attemptID: String
        public init(grantID: String, appID: AppID, method: UnlockGrantMethod, startsAt: EpochMillis, endsAt: EpochMillis, attemptID: String)
        {
            self.grantID = grantID; self.appID = appID; self.method = method; self.startsAt = startsAt; self.endsAt = endsAt;
            self.attemptID = attemptID
        }
        enum CodingKeys: String, CodingKey {
            case grantID = "grant_id", appID = "app_id", method, startsAt = "starts_ts_utc_ms", endsAt = "ends_ts_utc_ms", attemptID =
                "attempt_id"
        }
    }

    public struct UnlockDenied: Hashable, Sendable, Codable {
        public var attemptID: String, reason: UnlockDenialReason
        public init(attemptID: String, reason: UnlockDenialReason) { self.attemptID = attemptID; self.reason = reason }
        enum CodingKeys: String, CodingKey { case attemptID = "attempt_id", reason }
    }

    public struct QuestRef: Hashable, Sendable, Codable {
        public var questSessionID: String, attemptID: String, questType: QuestType
        public init(questSessionID: String, attemptID: String, questType: QuestType) {
            self.questSessionID = questSessionID; self.attemptID = attemptID; self.questType = questType
        }
        enum CodingKeys: String, CodingKey { case questSessionID = "quest_session_id", attemptID = "attempt_id", questType = "quest_type" }
    }

    public struct QuestFailed: Hashable, Sendable, Codable {
        public var questSessionID: String, attemptID: String, questType: QuestType, reason: QuestFailureReason
        public init(questSessionID: String, attemptID: String, questType: QuestType, reason: QuestFailureReason) {
            self.questSessionID = questSessionID; self.attemptID = attemptID; self.questType = questType; self.reason = reason
        }
        enum CodingKeys: String, CodingKey {
            case questSessionID = "quest_session_id", attemptID = "attempt_id", questType = "quest_type", reason
        }
    }

    public struct EmergencyUsed: Hashable, Sendable, Codable {
        public var attemptID: String, appID: AppID, delaySeconds: Int, unlockMinutes: Int
        public init(attemptID: String, appID: AppID, delaySeconds: Int, unlockMinutes: Int) {
            self.attemptID = attemptID; self.appID = appID; self.delaySeconds = delaySeconds; self.unlockMinutes = unlockMinutes
        }
        enum CodingKeys: String, CodingKey {
            case attemptID = "attempt_id", appID = "app_id", delaySeconds = "delay_seconds", unlockMinutes = "unlock_minutes"
        }
    }

    public struct FocusStarted: Hashable, Sendable, Codable {
        public var sessionID: String, plannedMinutes: Int
        public init(sessionID: String, plannedMinutes: Int) { self.sessionID = sessionID; self.plannedMinutes = plannedMinutes }
        enum CodingKeys: String, CodingKey { case sessionID = "session_id", plannedMinutes = "planned_minutes" }
    }

    public struct FocusEnded: Hashable, Sendable, Codable {
        public var sessionID: String, completed: Bool, endedEarly: Bool, actualMinutes: Int
        public init(sessionID: String, completed: Bool, endedEarly: Bool, actualMinutes: Int) {
            self.sessionID = sessionID; self.completed = completed; self.endedEarly = endedEarly; self.actualMinutes = actualMinutes
        }
        enum CodingKeys: String, CodingKey {
            case sessionID = "session_id", completed, endedEarly = "ended_early", actualMinutes = "actual_minutes"
        }
    }
}
