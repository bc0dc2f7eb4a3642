import RulesModel

extension EventDeclaration {
    /// `distracting_apps`: the global "Distracting Apps" list.
    static let distractingApps: EventDeclaration = {
        let apps = EventField.required("apps", .apps, doc: "list")
        return EventDeclaration(
            "distracting_apps", app: .earned, doc: "the global \"Distracting Apps\" list", fields: [apps],
            make: { v in .earned(.distractingApps(v[apps])) },
            values: { kind in
                guard case .earned(.distractingApps(let list)) = kind else { return [] }
                return [apps.with(list)]
            })
    }()
}
