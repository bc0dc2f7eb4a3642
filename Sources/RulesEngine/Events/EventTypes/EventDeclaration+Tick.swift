import RulesModel

extension EventDeclaration {
    /// `tick`: only lets time pass up to `at`.
    static let tick = EventDeclaration(
        "tick", app: .pressure, doc: "only lets the time pass", fields: [], listsFieldsFirst: true, make: { _ in .tick },
        values: { _ in [] })
}
