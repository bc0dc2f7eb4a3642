import GRDB
import RulesModel

extension Store {
    /// Starts a quest for a PENDING attempt, records the choice on the attempt and logs
    /// `UNLOCK_OPTION_SELECTED` (option QUEST_UNLOCK, payload `{quest_type}`) and `QUEST_STARTED`, in
    /// one transaction. The attempt stays PENDING until the quest ends.
    package func startQuest(_ session: QuestSession) throws {
        try earned(session.userID) { try $0.startQuest(session) }
    }

    /// A6.4 Quest completion grant: completes the ACTIVE, unexpired quest, creates or extends the
    /// app's current grant (method QUEST), counts it in `daily_app_limits` and the day summary,
    /// marks the attempt GRANTED and logs `QUEST_COMPLETED` and `UNLOCK_GRANTED`, in one transaction.
    @discardableResult
    package func completeQuest(_ request: QuestCompletion) throws -> UnlockGrant {
        try earned(request.userID) { try $0.completeQuest(request) }
    }

    /// Ends an ACTIVE quest as FAILED, CANCELLED or EXPIRED and logs the matching event, in one
    /// transaction. This never touches `daily_app_limits` (A6.4).
    ///
    /// - Parameter reason: required for FAILED (A7 `QUEST_FAILED.reason`), refused otherwise.
    package func endQuest(
        _ userID: UserID, questSessionID: String, state: QuestSessionState, reason: QuestFailureReason? = nil,
        at: EpochMillis
    ) throws {
        try earned(userID) { try $0.endQuest(questSessionID, state: state, reason: reason, at: at) }
    }
}
