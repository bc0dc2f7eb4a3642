import RulesModel

extension EventDeclaration {
    /// `miga`: a MIGA gateway event for an app.
    static let miga: EventDeclaration = {
        let event = EventField.required("event", .enumeration(UsageEventType.self))
        let app = EventField.optional("app", .string)
        let pause = EventField.optional("pause_seconds", .number, "default: the whole gateway timer")
        return EventDeclaration(
            "miga", app: .miga, doc: "one gateway event; the decision gives the exit-to-focus streak", fields: [event, app, pause],
            make: { v in .miga(v[event], app: v[app] ?? "", pauseSeconds: v[pause]) },
            values: { kind in
                guard case .miga(let type, let name, let seconds) = kind else { return [] }
                return [event.with(type), app.with(name.isEmpty ? nil : name), pause.with(seconds)]
            })
    }()
}
