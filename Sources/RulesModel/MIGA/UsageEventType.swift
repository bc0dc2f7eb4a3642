/// What the user did on MIGA's Gateway Screen (miga-data-model.md, `eventType`).
public enum UsageEventType: String, Sendable, Codable, CaseIterable {
    case exitToFocus = "exit_to_focus"
    case deepenPause = "deepen_pause"
    case proceedToApp = "proceed_to_app"
}
