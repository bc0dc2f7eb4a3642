import GRDB
import RulesModel

extension Store {
    /// A6.2 Create unlock attempt: inserts the PENDING attempt, counts it in the day summary and
    /// logs `UNLOCK_ATTEMPT_CREATED`, in one transaction.
    package func createUnlockAttempt(_ attempt: UnlockAttempt) throws {
        try earned(attempt.userID) { try $0.createUnlockAttempt(attempt) }
    }

    /// Denies a PENDING attempt and logs `UNLOCK_DENIED`, in one transaction. When the denial
    /// answers a choice (`option`), the attempt records it and `UNLOCK_OPTION_SELECTED` is logged first.
    package func denyUnlockAttempt(
        _ userID: UserID, attemptID: String, reason: UnlockDenialReason, at: EpochMillis,
        option: UnlockOptionType? = nil, payload: JSONValue = .emptyObject
    ) throws {
        try earned(userID) { try $0.denyUnlockAttempt(attemptID, reason: reason, at: at, option: option, payload: payload) }
    }

    /// Closes a PENDING attempt as CANCELLED or EXPIRED (A7 defines no event for these).
    package func closeUnlockAttempt(_ userID: UserID, attemptID: String, outcome: UnlockAttemptOutcome, at: EpochMillis) throws {
        try earned(userID) { try $0.closeUnlockAttempt(attemptID, outcome: outcome, at: at) }
    }

    /// A6.3 Credits unlock grant: spends the credits, creates or extends the app's current grant,
    /// marks the attempt GRANTED, updates the day summary and logs `UNLOCK_OPTION_SELECTED`,
    /// `CREDITS_SPENT` and `UNLOCK_GRANTED`, in one transaction.
    ///
    /// - Returns: the grant as it is after the operation.
    @discardableResult
    package func grantCreditsUnlock(_ request: CreditsUnlock) throws -> UnlockGrant {
        try earned(request.userID) { try $0.grantCreditsUnlock(request) }
    }

    /// A6.5 Emergency unlock grant: updates the emergency state, creates a grant that starts after
    /// the delay and makes it current, marks the attempt GRANTED, updates the day summary and logs
    /// `UNLOCK_OPTION_SELECTED`, `EMERGENCY_USED` and `UNLOCK_GRANTED`, in one transaction.
    ///
    /// Decision: an emergency grant is always a new grant (it starts in the future, so it cannot
    /// extend the current one) and becomes the app's current grant.
    @discardableResult
    package func grantEmergencyUnlock(_ request: EmergencyUnlock) throws -> UnlockGrant {
        try earned(request.userID) { try $0.grantEmergencyUnlock(request) }
    }
}
