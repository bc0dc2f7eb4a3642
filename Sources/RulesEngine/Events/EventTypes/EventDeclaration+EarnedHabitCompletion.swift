import RulesModel

extension EventDeclaration {
    /// `earned_habit_completion`: an Earned habit done today.
    static let earnedHabitCompletion: EventDeclaration = {
        let habit = EventField.required("habit", .checkedName)
        return EventDeclaration(
            "earned_habit_completion", app: .earned,
            doc: """
                A6.7: one completion per habit and Earned day; credits by `habit_award` unless awards are suspended; too many in \
                the window suspends awards (`HABIT_AWARD_SUSPENDED`)
                """,
            fields: [habit],
            make: { v in .earned(.habitCompletion(habit: v[habit])) },
            values: { kind in
                guard case .earned(.habitCompletion(let h)) = kind else { return [] }
                return [habit.with(h)]
            })
    }()
}
