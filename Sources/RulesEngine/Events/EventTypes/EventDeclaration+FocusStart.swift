import RulesModel

extension EventDeclaration {
    /// `focus_start`: a focus session of a planned length.
    static let focusStart: EventDeclaration = {
        let minutes = EventField.required(
            "minutes",
            EventFieldType.integer.schema(.object([("type", .string("integer")), ("minimum", .int(1)), ("maximum", .int(1440))])).checked {
                minutes, field throws(EngineError) in
                guard (1...24 * 60).contains(minutes) else {
                    throw EngineError(.invalidEvent, "\(field): expected a planned length of 1–1440 minutes, found \(minutes)")
                }
            }, "planned length", doc: "planned")
        let label = EventField.optional("label", .string)
        let strict = EventField.optional("strict", .boolean, "default: true", doc: "default true")
        let blockedApps = EventField.optional("blocked_apps", .apps)
        return EventDeclaration(
            "focus_start", app: .earned, doc: "starts a focus session; it ends by itself, completed, at its planned length",
            fields: [minutes, label, strict, blockedApps],
            make: { v in
                .earned(.focusStart(FocusStart(minutes: v[minutes], label: v[label], strict: v[strict], blockedApps: v[blockedApps])))
            },
            values: { kind in
                guard case .earned(.focusStart(let s)) = kind else { return [] }
                return [minutes.with(s.minutes), label.with(s.label), strict.with(s.strict), blockedApps.with(s.blockedApps)]
            })
    }()
}
