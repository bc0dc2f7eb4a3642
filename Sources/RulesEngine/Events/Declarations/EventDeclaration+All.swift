extension EventDeclaration {
    /// Every event type, in the order `typeNames`, the JSON Schema and docs/replay.md list them.
    package static let all: [EventDeclaration] = [
        .settings, .subscription, .commitment, .checkIn, .shield, .tick, .habitTask, .habitCompletion, .habitSkip, .habitFreeze,
        .habitUncheck, .miga, .exposure, .mode, .modeOverride, .distractingApps, .qrKey, .earnedHabit, .earnedHabitCompletion,
        .focusStart, .focusEnd, .unlockOpen, .unlockChoose, .unlockCancel, .questComplete, .questFail, .questCancel,
    ]

    /// The declaration of each type, by name.
    static let byName: [String: EventDeclaration] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
