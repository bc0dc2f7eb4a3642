/// How a quest ended (a quest session's final state, A2).
package enum QuestOutcome: String, Sendable, CaseIterable {
    case completed = "COMPLETED"
    case failed = "FAILED"
    case cancelled = "CANCELLED"
    case expired = "EXPIRED"
}
