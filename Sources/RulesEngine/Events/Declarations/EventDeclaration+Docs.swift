extension EventDeclaration {
    /// The table of the event types of `apps` in docs/replay.md (a test regenerates it and fails
    /// when the page drifts): each type, its fields (from their declarations) and what it does.
    package static func docsTable(of apps: Set<EventApp>) -> String {
        var lines = ["| `type` | fields | what it does |", "|---|---|---|"]
        for declaration in all where apps.contains(declaration.app) {
            lines.append("| `\(declaration.name)` | \(declaration.fieldsDoc) | \(declaration.doc) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The fields as the docs table lists them: the required ones, then the optional ones ("any
    /// of" them when the type has no other, and more than one), each with its doc; `–` for none.
    var fieldsDoc: String {
        guard !fields.isEmpty else { return "–" }
        func described(_ field: any AnyEventField) -> String { "`\(field.name)`" + (field.doc.map { " (\($0))" } ?? "") }
        var parts = fields.filter(\.isRequired).map(described)
        let optional = fields.filter { !$0.isRequired }.map(described)
        if !optional.isEmpty {
            parts.append((parts.isEmpty && optional.count > 1 ? "any of " : "optional ") + optional.joined(separator: ", "))
        }
        return parts.joined(separator: ", ")
    }
}
