import RulesModel

/// A field of an event type: its JSON name, its type (how it is read, written and described in
/// the JSON Schema), whether it is required, and its doc lines.
struct EventField<Value: Sendable>: AnyEventField {
    let name: String
    let isRequired: Bool
    /// The field's schema, its short description (`summary`) included.
    let schema: JSONValue
    /// What docs/replay.md says of the field: the values it takes, limits and default.
    let doc: String?
    fileprivate let readValue: @Sendable (JSONValue?, String) throws(EventFieldError) -> Value
    fileprivate let writeValue: @Sendable (Value) -> JSONValue?
    fileprivate let checkValue: (@Sendable (Value, String) throws(EngineError) -> Void)?

    /// A field the event must have.
    static func required(_ name: String, _ type: EventFieldType<Value>, _ summary: String? = nil, doc: String? = nil) -> Self {
        EventField(
            name: name, isRequired: true, schema: EventSchema.described(type.schema, summary), doc: type.doc(doc),
            readValue: { value, path throws(EventFieldError) in try type.read(value!, path) }, writeValue: { type.write($0) },
            checkValue: type.check)
    }

    /// A field the event may leave out (or give null): nil then, written as `absent` (left out when nil).
    static func optional<Wrapped>(
        _ name: String, _ type: EventFieldType<Wrapped>, _ summary: String? = nil, doc: String? = nil, absent: JSONValue? = nil
    ) -> Self where Value == Wrapped? {
        var checkValue: (@Sendable (Wrapped?, String) throws(EngineError) -> Void)?
        if let check = type.check {
            checkValue = { value, field throws(EngineError) in
                if let value { try check(value, field) }
            }
        }
        return EventField(
            name: name, isRequired: false, schema: EventSchema.described(type.schema, summary), doc: type.doc(doc),
            readValue: { value, path throws(EventFieldError) -> Wrapped? in
                guard let value else { return nil }
                return try type.read(value, path)
            },
            writeValue: { value in value.map(type.write) ?? absent },
            checkValue: checkValue)
    }

    /// The field's value, for an event's values.
    func with(_ value: Value) -> (String, any Sendable) { (name, value) }

    func read(_ value: JSONValue?, at path: String) throws(EventFieldError) -> any Sendable { try readValue(value, path) }

    func check(_ values: EventValues) throws(EngineError) {
        guard let checkValue else { return }
        try checkValue(values[self], name)
    }

    func write(_ values: EventValues) -> JSONValue? {
        guard let value = values.storage[name] else { return nil }
        return writeValue(value as! Value)
    }
}

/// A field of any type, as a declaration lists them.
protocol AnyEventField: Sendable {
    var name: String { get }
    var isRequired: Bool { get }
    var schema: JSONValue { get }
    var doc: String? { get }
    /// The value of a field given (`value`, not null) or not (nil; only for an optional field).
    func read(_ value: JSONValue?, at path: String) throws(EventFieldError) -> any Sendable
    /// The field's own check once every field is read and none is unknown (a name's length).
    func check(_ values: EventValues) throws(EngineError)
    /// The field's value in an event line; nil to leave it out.
    func write(_ values: EventValues) -> JSONValue?
}

/// The values of an event's fields, by field.
struct EventValues: Sendable, ExpressibleByArrayLiteral {
    var storage: [String: any Sendable] = [:]

    init(arrayLiteral elements: (String, any Sendable)...) {
        for (name, value) in elements { storage[name] = value }
    }

    subscript<Value>(field: EventField<Value>) -> Value {
        get { storage[field.name] as! Value }
        set { storage[field.name] = newValue }
    }
}
