/// Why an unlock was denied or an option disabled (A7 `UNLOCK_DENIED.reason`, A4.2 `disabled_reason`).
public enum UnlockDenialReason: String, Sendable, Codable, CaseIterable {
    case insufficientCredits = "INSUFFICIENT_CREDITS"
    case dailyLimitReached = "DAILY_LIMIT_REACHED"
    case cooldownActive = "COOLDOWN_ACTIVE"
    case qrKeyNotSet = "QR_KEY_NOT_SET"
    case disallowedInHardMode = "DISALLOWED_IN_HARD_MODE"
    case sameAppConsecutiveBlocked = "SAME_APP_CONSECUTIVE_BLOCKED"
}
