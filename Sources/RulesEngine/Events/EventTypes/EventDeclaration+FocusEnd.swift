import RulesModel

extension EventDeclaration {
    /// `focus_end`: the active focus session ends early.
    static let focusEnd = EventDeclaration(
        "focus_end", app: .earned, doc: "A6.6: ends the session early; credits by `focus_credits`, the day's streak when it qualifies",
        fields: [], listsFieldsFirst: true, make: { _ in .earned(.focusEnd) }, values: { _ in [] })
}
