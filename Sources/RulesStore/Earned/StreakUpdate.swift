import RulesModel

/// A streak qualification decided by the rules, applied by a focus or habit operation (A6.6, A6.7).
package struct StreakUpdate: Hashable, Sendable {
    package var method: StreakQualificationMethod
    /// The streak count after today's qualification (A7 `streak_count_new`).
    package var newStreakCount: Int
    /// A bonus awarded today (A7 `STREAK_BONUS_AWARDED`), 0 for none.
    package var bonusCredits: Int

    package init(method: StreakQualificationMethod, newStreakCount: Int, bonusCredits: Int = 0) {
        self.method = method
        self.newStreakCount = newStreakCount
        self.bonusCredits = bonusCredits
    }
}
