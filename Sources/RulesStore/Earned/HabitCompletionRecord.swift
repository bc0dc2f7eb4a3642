import RulesModel

/// A6.7 Habit completion.
public struct HabitCompletionRecord: Hashable, Sendable {
    /// The completion; `awardSuspended` and `awardedCredits` are the rules' decision.
    public var completion: HabitCompletion
    /// Set when this completion qualifies the day for the streak.
    public var streak: StreakUpdate?
    /// Set when this completion triggers a suspension of habit awards until that day.
    public var suspendAwardsUntil: DayID?

    public init(completion: HabitCompletion, streak: StreakUpdate? = nil, suspendAwardsUntil: DayID? = nil) {
        self.completion = completion
        self.streak = streak
        self.suspendAwardsUntil = suspendAwardsUntil
    }
}
