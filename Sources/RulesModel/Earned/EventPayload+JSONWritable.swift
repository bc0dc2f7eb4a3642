// Each payload's JSON written directly (see `JSONWritable`), keys in sorted order; the `null`s
// are those the types' `encode(to:)` write.

extension EventPayload.DayRollover: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("carried_credits", carriedCredits); $0.member("from_day_id", fromDayID); $0.member("to_day_id", toDayID)
        }
    }
}

extension EventPayload.CreditsEarned: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("amount", amount); $0.member("focus_session_id", focusSessionID); $0.member("habit_id", habitID)
            $0.member("source", source)
        }
    }
}

extension EventPayload.CreditsSpent: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("amount", amount); $0.member("app_id", appID); $0.member("attempt_id", attemptID)
            $0.member("unlock_minutes", unlockMinutes)
        }
    }
}

extension EventPayload.StreakQualified: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("day_id", dayID); $0.member("first_qualified_ts_utc_ms", firstQualifiedAt); $0.member("method", method)
            $0.member("streak_count_new", streakCountNew)
        }
    }
}

extension EventPayload.StreakBonusAwarded: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("amount", amount); $0.member("day_id", dayID); $0.member("streak_count", streakCount)
        }
    }
}

extension EventPayload.HabitAwardSuspended: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("reason", reason); $0.member("until_day_id", untilDayID)
        }
    }
}

extension EventPayload.UnlockAttemptCreated: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("app_id", appID); $0.member("attempt_id", attemptID); $0.member("mode_id", modeID);
            $0.member("strictness", strictness)
        }
    }
}

extension EventPayload.UnlockOptionSelected: JSONWritable {
    func write(to json: inout JSONWriter) throws {
        try json.object {
            $0.member("attempt_id", attemptID); try $0.member("option_payload", optionPayload); $0.member("option_type", optionType)
        }
    }
}

extension EventPayload.UnlockGranted: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("app_id", appID); $0.member("attempt_id", attemptID); $0.member("ends_ts_utc_ms", endsAt)
            $0.member("grant_id", grantID); $0.member("method", method); $0.member("starts_ts_utc_ms", startsAt)
        }
    }
}

extension EventPayload.UnlockDenied: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("attempt_id", attemptID); $0.member("reason", reason)
        }
    }
}

extension EventPayload.QuestRef: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("attempt_id", attemptID); $0.member("quest_session_id", questSessionID); $0.member("quest_type", questType)
        }
    }
}

extension EventPayload.QuestFailed: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("attempt_id", attemptID); $0.member("quest_session_id", questSessionID); $0.member("quest_type", questType)
            $0.member("reason", reason)
        }
    }
}

extension EventPayload.EmergencyUsed: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("app_id", appID); $0.member("attempt_id", attemptID); $0.member("delay_seconds", delaySeconds)
            $0.member("unlock_minutes", unlockMinutes)
        }
    }
}

extension EventPayload.FocusStarted: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("planned_minutes", plannedMinutes); $0.member("session_id", sessionID)
        }
    }
}

extension EventPayload.FocusEnded: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("actual_minutes", actualMinutes); $0.member("completed", completed); $0.member("ended_early", endedEarly)
            $0.member("session_id", sessionID)
        }
    }
}
