import LuaHost
import RulesModel

/// One event type, declared once: its `type` name, its app, what it does, and its fields. The
/// parser's field checking (`EngineEvent.parse`), the event line (`EngineEvent.jsonLine`), the
/// JSON Schema (`rulesrun schema events`), `EngineEvent.typeNames` and the tables of event types
/// in docs/replay.md are all derived from the declarations (`EventDeclaration.all`); each type's
/// declaration is in its own file under Sources/RulesEngine/Events/EventTypes (docs/layout.md,
/// "Adding an event type").
package struct EventDeclaration: Sendable {
    /// The event's `type` in files.
    package let name: String
    package let app: EventApp
    /// What the event does (the last column of docs/replay.md's table).
    package let doc: String
    /// The fields besides `at`, `user`, `type` and `expect`, in the order they are read, written
    /// and listed.
    let fields: [any AnyEventField]
    /// The order the fields are read in, when it is not `fields`' (which of two bad fields is
    /// named): the order of the coding keys the model type was once decoded by, kept.
    var readOrder: [any AnyEventField]? = nil
    /// Whether a field the type does not have is refused before the fields are read, with a
    /// message listing the fields (types of no field, and `qr_key`).
    var listsFieldsFirst = false
    /// Members added to the type's branch of the JSON Schema: what fields need with each other.
    var schemaConditions: [(String, JSONValue)] = []
    /// The event of the values read (after every field's own checks): the checks across fields.
    let make: @Sendable (EventValues) throws(EngineError) -> EngineEvent.Kind
    /// The values of an event of this type's fields.
    let values: @Sendable (EngineEvent.Kind) -> EventValues

    init(
        _ name: String, app: EventApp, doc: String, fields: [any AnyEventField], readOrder: [any AnyEventField]? = nil,
        listsFieldsFirst: Bool = false,
        schemaConditions: [(String, JSONValue)] = [], make: @escaping @Sendable (EventValues) throws(EngineError) -> EngineEvent.Kind,
        values: @escaping @Sendable (EngineEvent.Kind) -> EventValues
    ) {
        self.name = name
        self.app = app
        self.doc = doc
        self.fields = fields
        self.readOrder = readOrder
        self.listsFieldsFirst = listsFieldsFirst
        self.schemaConditions = schemaConditions
        self.make = make
        self.values = values
    }

    /// The fields in the order they are read.
    var fieldsInReadOrder: [any AnyEventField] { readOrder ?? fields }

    /// The field names, in order.
    package var fieldNames: [String] { fields.map(\.name) }

    /// The event of `object`'s fields (without `at`, `user`, `type` and `expect`).
    func parse(_ object: EventObject) throws(EngineError) -> EngineEvent.Kind {
        let names = fieldNames
        if listsFieldsFirst, let extra = object.sortedKeys.first(where: { !names.contains($0) }) {
            let only = names.isEmpty ? "at, user and type" : names.joined(separator: ", ")
            let hint =
                Suggestion.closest(to: extra, among: ["expect"]).map { "did you mean '\($0)'?" } ?? "a \(name) event has only \(only)"
            throw EngineError(.invalidEvent, "\(extra): unknown field (\(hint))")
        }
        let values: EventValues
        do {
            values = try EventFieldReader.read(fieldsInReadOrder, from: object, at: "", suggesting: ["expect"])
        } catch {
            throw error.engineError
        }
        for field in fields { try field.check(values) }
        return try make(values)
    }

    /// The fields of `kind` (of this type) as its event line writes them, in order; absent
    /// optional fields left out.
    func jsonFields(_ kind: EngineEvent.Kind) -> [(String, JSONValue)] {
        let values = values(kind)
        return fields.compactMap { field in field.write(values).map { (field.name, $0) } }
    }
}

/// The app an event type belongs to (docs/replay.md has one table for Earned's, one for the others).
package enum EventApp: String, Sendable, CaseIterable {
    case pressure
    case habitTracker
    case miga
    case earned
}
