/// An option of the Unlock Gate (`chosen_option_type`, A4.2 `options[].type`).
public enum UnlockOptionType: String, Sendable, Codable, CaseIterable {
    case creditsUnlock = "CREDITS_UNLOCK"
    case questUnlock = "QUEST_UNLOCK"
    case emergencyUnlock = "EMERGENCY_UNLOCK"
}
