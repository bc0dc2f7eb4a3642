import RulesModel

extension EventDeclaration {
    /// An Earned event of one field, `app`: the event of an app, and an event's app.
    static func appEvent(
        _ name: String, doc: String, _ make: @escaping @Sendable (AppID) -> EarnedEvent,
        _ app: @escaping @Sendable (EarnedEvent) -> AppID?
    ) -> EventDeclaration {
        let field = EventField.required("app", .app)
        return EventDeclaration(
            name, app: .earned, doc: doc, fields: [field], make: { v in .earned(make(v[field])) },
            values: { kind in
                guard case .earned(let event) = kind, let id = app(event) else { return [] }
                return [field.with(id)]
            })
    }

    /// `unlock_open`: the unlock gate opens for an app.
    static let unlockOpen = appEvent(
        "unlock_open",
        doc: """
            A6.2: opens the unlock gate: a PENDING attempt with the A4.2 options snapshot (the decision prints it; each length's \
            `cost_credits` is pricing.lua's `price` at this moment, see [rules.md](rules.md#prices-pricectx)) — or, for an app \
            nothing blocks now, `"blocked": false` and nothing written
            """, EarnedEvent.unlockOpen
    ) { if case .unlockOpen(let app) = $0 { app } else { nil } }

    /// `unlock_cancel`: the user leaves the gate.
    static let unlockCancel = appEvent(
        "unlock_cancel", doc: "the user leaves the gate: the attempt (and its quest) is CANCELLED", EarnedEvent.unlockCancel
    ) { if case .unlockCancel(let app) = $0 { app } else { nil } }

    /// `quest_complete`: the app's quest is done.
    static let questComplete = appEvent(
        "quest_complete",
        doc: "A6.4: the quest is done before it expires: the unlock is granted (method QUEST, counted in `daily_app_limits`)",
        EarnedEvent.questComplete
    ) { if case .questComplete(let app) = $0 { app } else { nil } }

    /// `quest_cancel`: the user gives the app's quest up.
    static let questCancel = appEvent(
        "quest_cancel", doc: "the user gives the quest up: never counted", EarnedEvent.questCancel
    ) { if case .questCancel(let app) = $0 { app } else { nil } }
}
