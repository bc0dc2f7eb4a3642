import RulesModel

extension EventDeclaration {
    /// `shield`: the restart shield on the latest NO or MISSED day.
    static let shield = EventDeclaration(
        "shield", app: .pressure,
        doc: """
            the restart shield on the latest NO or MISSED day, within `activation_window_minutes` (60) of the NO or the miss, \
            paid users, one a month
            """,
        fields: [], listsFieldsFirst: true, make: { _ in .shield }, values: { _ in [] })
}
