import RulesModel

extension EventDeclaration {
    /// `unlock_choose`: the option picked at the app's open unlock gate, with what it needs.
    static let unlockChoose: EventDeclaration = {
        let app = EventField.required("app", .app)
        let option = EventField.required("option", .enumeration(UnlockOptionType.self))
        let minutes = EventField.optional("minutes", .integer, "CREDITS_UNLOCK only", doc: "`CREDITS_UNLOCK` only, which needs it")
        let questType = EventField.optional(
            "quest_type", .enumeration(QuestType.self), "QUEST_UNLOCK only", doc: "`QUEST_UNLOCK` only, which needs it")
        return EventDeclaration(
            "unlock_choose", app: .earned,
            doc: """
                A6.3/A6.5: grants (a new grant, or the app's current grant extended) or denies with the disabled reason; a quest \
                choice starts the quest. A credit unlock is charged the price its gate's snapshot showed (not a price computed at \
                the choice); whether the balance covers it is decided at the choice
                """,
            fields: [app, option, minutes, questType],
            schemaConditions: [
                (
                    "allOf",
                    .array([
                        EventSchema.choice(.creditsUnlock, requires: "minutes", refuses: "quest_type"),
                        EventSchema.choice(.questUnlock, requires: "quest_type", refuses: "minutes"),
                        EventSchema.choice(.emergencyUnlock, requires: nil, refuses: "minutes", "quest_type"),
                    ])
                )
            ],
            make: { v throws(EngineError) in .earned(.unlockChoose(app: v[app], try choice(v[option], v[minutes], v[questType]))) },
            values: { kind in
                guard case .earned(.unlockChoose(let a, let choice)) = kind else { return [] }
                var values: EventValues = [app.with(a), option.with(choice.optionType)]
                switch choice {
                case .credits(let length): values[minutes] = length
                case .quest(let type): values[questType] = type
                case .emergency: break
                }
                return values
            })
    }()

    /// The choice of `option`, with the one field it needs and none it may not have.
    private static func choice(_ option: UnlockOptionType, _ minutes: Int?, _ quest: QuestType?) throws(EngineError) -> UnlockChoice {
        switch option {
        case .creditsUnlock:
            guard let minutes else { throw EngineError(.invalidEvent, "minutes: required for a CREDITS_UNLOCK choice") }
            guard quest == nil else { throw EngineError(.invalidEvent, "quest_type: only for a QUEST_UNLOCK choice") }
            return .credits(minutes: minutes)
        case .questUnlock:
            guard let quest else { throw EngineError(.invalidEvent, "quest_type: required for a QUEST_UNLOCK choice") }
            guard minutes == nil else {
                throw EngineError(
                    .invalidEvent, "minutes: only for a CREDITS_UNLOCK choice (a quest unlock lasts quests.lua's unlock_minutes)")
            }
            return .quest(quest)
        case .emergencyUnlock:
            guard minutes == nil, quest == nil else {
                let field = minutes != nil ? "minutes" : "quest_type"
                throw EngineError(.invalidEvent, "\(field): an EMERGENCY_UNLOCK choice has no \(field) (quests.lua sets its length)")
            }
            return .emergency
        }
    }
}
