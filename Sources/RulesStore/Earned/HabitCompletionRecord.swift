import RulesModel

/// A6.7 Habit completion.
package struct HabitCompletionRecord: Hashable, Sendable {
    /// The completion; `awardSuspended` and `awardedCredits` are the rules' decision.
    package var completion: HabitCompletion
    /// Set when this completion qualifies the day for the streak.
    package var streak: StreakUpdate?
    /// Set when this completion triggers a suspension of habit awards until that day.
    package var suspendAwardsUntil: DayID?

    package init(completion: HabitCompletion, streak: StreakUpdate? = nil, suspendAwardsUntil: DayID? = nil) {
        self.completion = completion
        self.streak = streak
        self.suspendAwardsUntil = suspendAwardsUntil
    }
}
