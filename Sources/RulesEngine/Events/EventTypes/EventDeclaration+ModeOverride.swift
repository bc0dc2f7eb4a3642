import RulesModel

extension EventDeclaration {
    /// `mode_override`: a mode's manual state, until an optional time.
    static let modeOverride: EventDeclaration = {
        let mode = EventField.required("mode", .checkedName)
        let state = EventField.required("state", .enumeration(ManualOverrideState.self))
        let until = EventField.optional("until", .timestamp)
        return EventDeclaration(
            "mode_override", app: .earned, doc: "a manual override, in force from the event until `until`", fields: [mode, state, until],
            make: { v in .earned(.modeOverride(mode: v[mode], state: v[state], until: v[until].flatMap(Timestamp.init))) },
            values: { kind in
                guard case .earned(.modeOverride(let m, let s, let u)) = kind else { return [] }
                return [mode.with(m), state.with(s), until.with(u?.description)]
            })
    }()
}
