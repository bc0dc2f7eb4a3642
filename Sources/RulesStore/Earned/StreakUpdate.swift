import RulesModel

/// A streak qualification decided by the rules, applied by a focus or habit operation (A6.6, A6.7).
public struct StreakUpdate: Hashable, Sendable {
    public var method: StreakQualificationMethod
    /// The streak count after today's qualification (A7 `streak_count_new`).
    public var newStreakCount: Int
    /// A bonus awarded today (A7 `STREAK_BONUS_AWARDED`), 0 for none.
    public var bonusCredits: Int

    public init(method: StreakQualificationMethod, newStreakCount: Int, bonusCredits: Int = 0) {
        self.method = method
        self.newStreakCount = newStreakCount
        self.bonusCredits = bonusCredits
    }
}
