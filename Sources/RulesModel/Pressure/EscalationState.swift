/// Pressure's escalation runtime state (pressure-data-model.md, pressure-escalation-engine.md),
/// one row per user.
///
/// Decisions on the seed:
/// - The diagram names `restart_shields_used`, the table `restart_shields_remaining`; the engine
///   uses "remaining", so the state stores `restartShieldsRemaining`, 0...1 (max 1 per month for
///   paid users, 0 for free ones: the tier check is the rules' business, the range is the model's).
/// - `shield_reset_date` is a calendar day (the first of next month).
/// - Only ranges and `longest_streak ≥ current_streak` are model invariants; how the counters move
///   is the escalation rule's business.
public struct EscalationState: Hashable, Sendable, Codable, Validatable {
    public static let maxRestartShields = 1

    public var currentTier: EscalationTier
    public var consecutiveMisses: Int
    public var consecutiveSuccesses: Int
    public var currentStreak: Int
    public var longestStreak: Int
    public var restartShieldsRemaining: Int
    public var shieldResetDate: DayID?

    public init(
        currentTier: EscalationTier = .baseline, consecutiveMisses: Int = 0, consecutiveSuccesses: Int = 0,
        currentStreak: Int = 0, longestStreak: Int = 0, restartShieldsRemaining: Int = 0,
        shieldResetDate: DayID? = nil
    ) {
        self.currentTier = currentTier
        self.consecutiveMisses = consecutiveMisses
        self.consecutiveSuccesses = consecutiveSuccesses
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.restartShieldsRemaining = restartShieldsRemaining
        self.shieldResetDate = shieldResetDate
    }

    public static let initial = EscalationState()

    public func validate() throws {
        let check = FieldCheck("EscalationState")
        try check.atLeast("consecutive_misses", consecutiveMisses, 0)
        try check.atLeast("consecutive_successes", consecutiveSuccesses, 0)
        try check.atLeast("current_streak", currentStreak, 0)
        try check.atLeast("longest_streak", longestStreak, currentStreak)
        try check.range("restart_shields_remaining", restartShieldsRemaining, 0...EscalationState.maxRestartShields)
    }
}
