import RulesModel

extension EventDeclaration {
    /// `earned_habit`: defines or changes an Earned habit; only the fields given change.
    static let earnedHabit: EventDeclaration = {
        let habit = EventField.required("habit", .checkedName)
        let name = EventField.optional("name", .string)
        let credits = EventField.optional(
            "reward_credits", .integer, "0–100; default habits.default_reward_credits",
            doc: "0–100; default `habits.default_reward_credits`")
        let active = EventField.optional("active", .boolean)
        return EventDeclaration(
            "earned_habit", app: .earned, doc: "defines or changes a habit", fields: [habit, name, credits, active],
            // (The order the type's fields have always been read in: of two bad fields, the same is named.)
            readOrder: [habit, name, active, credits],
            make: { v in
                .earned(.habit(EarnedHabitDefinition(habit: v[habit], name: v[name], rewardCredits: v[credits], active: v[active])))
            },
            values: { kind in
                guard case .earned(.habit(let h)) = kind else { return [] }
                return [habit.with(h.habit), name.with(h.name), credits.with(h.rewardCredits), active.with(h.active)]
            })
    }()
}
