import Foundation

/// The preset task catalog (habit-tracker-data-model.md §4), as static data.
///
/// Decision: the seed's text says "the 20 preset tasks" but its table lists 25; the catalog is
/// the table, all 25 entries, in its order.
public enum PresetCatalog {
    public static let all: [PresetTask] = [
        PresetTask("fitness.walk", "Walk", "Fitness", .distance, "km"),
        PresetTask("fitness.run", "Run", "Fitness", .distance, "km"),
        PresetTask("fitness.bike", "Bike", "Fitness", .distance, "km"),
        PresetTask("fitness.pushups", "Push ups", "Fitness", .repetitions, "times"),
        PresetTask("fitness.pullups", "Pull ups", "Fitness", .repetitions, "times"),
        PresetTask("fitness.gym", "Gym", "Fitness", .time, "min"),
        PresetTask("fitness.swim", "Swim", "Fitness", .time, "min"),
        PresetTask("health.meditate", "Meditate", "Health", .time, "min"),
        PresetTask("health.healthyMeal", "Eat a healthy meal", "Health", .none, nil),
        PresetTask("health.journal", "Write journal", "Health", .time, "min"),
        PresetTask("health.walkDog", "Walk the dog", "Health", .time, "min"),
        PresetTask("health.vitamins", "Take vitamins", "Health", .none, nil),
        PresetTask("health.drinkWater", "Drink water", "Health", .cups, "cups"),
        PresetTask("health.decreaseCaffeine", "Decrease caffeine", "Health", .cups, "cups"),
        PresetTask("health.decreaseCalories", "Decrease calories intake", "Health", .calories, "kcal"),
        PresetTask("health.dontSmoke", "Don't smoke", "Health", .none, nil),
        PresetTask("health.dontBiteNails", "Don't bite nails", "Health", .none, nil),
        PresetTask("health.daylight", "Time in daylight", "Health", .time, "min"),
        PresetTask("health.bedTimeEarly", "Bed time early", "Health", .none, nil),
        PresetTask("health.washHands", "Wash hands", "Health", .none, nil),
        PresetTask("social.callParents", "Call parents", "Social", .time, "min"),
        PresetTask("social.callFriend", "Call a friend", "Social", .time, "min"),
        PresetTask("social.askFriendOut", "Ask a friend out", "Social", .none, nil),
        PresetTask("social.kissPartner", "Kiss partner", "Social", .none, nil),
        PresetTask("learning.learnLanguage", "Learn a language", "Learning", .time, "min"),
    ]

    private static let byIdentifier: [String: PresetTask] =
        Dictionary(uniqueKeysWithValues: all.map { ($0.identifier, $0) })

    public static func preset(_ identifier: String) -> PresetTask? { byIdentifier[identifier] }

    /// A new task pre-filled from a preset. The goal value is left nil for the user to choose;
    /// the task is still valid because a goal value is optional until set (see ``HabitTask``).
    public static func makeTask(
        from preset: PresetTask, userID: UserID, categoryID: UUID?, id: UUID = UUID(),
        now: EpochMillis
    ) -> HabitTask {
        HabitTask(
            id: id, userID: userID, categoryID: categoryID, title: preset.name, isPreset: true,
            presetIdentifier: preset.identifier, goalType: preset.goalType, goalValue: nil,
            goalUnit: preset.unit, createdAt: now, updatedAt: now)
    }
}
