import RulesModel

extension EventDeclaration {
    /// `commitment`: today's commitment.
    static let commitment: EventDeclaration = {
        let text = EventField.required("text", .string.schema(EventSchema.string(max: 280)), "today's commitment", doc: "1–280 characters")
        return EventDeclaration(
            "commitment", app: .pressure, doc: "sets or edits today's commitment, before the deadline", fields: [text],
            make: { v in .commitment(text: v[text]) },
            values: { kind in
                guard case .commitment(let t) = kind else { return [] }
                return [text.with(t)]
            })
    }()
}
