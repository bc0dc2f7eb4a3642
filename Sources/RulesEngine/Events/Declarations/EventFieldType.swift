import RulesModel

/// How a field's value is read from a line (with the rule decoder's messages), written back, and
/// described in the JSON Schema and in docs/replay.md.
struct EventFieldType<Value: Sendable>: Sendable {
    /// The value of a field given (not null), at `path`.
    var read: @Sendable (JSONValue, String) throws(EventFieldError) -> Value
    var write: @Sendable (Value) -> JSONValue
    var schema: JSONValue
    /// The values the field takes, as docs/replay.md lists them (`` `FREE`, `PAID` ``).
    var values: String? = nil
    /// A check made once every field is read and none is unknown, given the field's name: a
    /// name's length, a time's range.
    var check: (@Sendable (Value, String) throws(EngineError) -> Void)? = nil

    /// The field's doc in docs/replay.md: its values, then `doc`.
    func doc(_ doc: String?) -> String? {
        switch (values, doc) {
        case (let values?, let doc?): "\(values); \(doc)"
        case (let values?, nil): values
        case (nil, let doc): doc
        }
    }

    /// The same values, with another schema.
    func schema(_ schema: JSONValue) -> Self {
        var type = self
        type.schema = schema
        return type
    }

    /// The same values, with a check made after the fields are read.
    func checked(_ check: @escaping @Sendable (Value, String) throws(EngineError) -> Void) -> Self {
        var type = self
        type.check = check
        return type
    }
}

extension EventFieldType where Value == String {
    static var string: Self {
        EventFieldType(
            read: { value, path throws(EventFieldError) in
                guard case .string(let text) = value else { throw .expected("a string", value, at: path) }
                return text
            }, write: { .string($0) }, schema: EventSchema.string())
    }

    /// A name (of a habit task, a mode, a habit): the engine checks its length.
    static var name: Self { string.schema(EventSchema.ref("name")) }

    /// A name checked as it is read: 1–200 characters.
    static var checkedName: Self {
        name.checked { text, field throws(EngineError) in
            guard !text.isEmpty, text.count <= 200 else {
                throw EngineError(.invalidEvent, "\(field): expected a name (1–200 characters), found \"\(text)\"")
            }
        }
    }

    /// A time with an offset, within `Timestamp.engineRange` (`Timestamp.parse(field:_:)` reads it).
    static var timestamp: Self {
        string.schema(EventSchema.ref("timestamp")).checked { text, field throws(EngineError) in _ = try Timestamp.parse(field, text) }
    }
}

extension EventFieldType where Value == Int {
    static var integer: Self {
        EventFieldType(
            read: { value, path throws(EventFieldError) in
                switch value {
                case .int(let i): return i
                case .double(let d) where d.isFinite && d.rounded() == d && abs(d) < 9.2e18: return Int(d)
                default: throw .expected("an integer", value, at: path)
                }
            }, write: { .int($0) }, schema: EventSchema.type("integer"))
    }
}

extension EventFieldType where Value == Double {
    static var number: Self {
        EventFieldType(
            read: { value, path throws(EventFieldError) in
                switch value {
                case .int(let i): return Double(i)
                case .double(let d): return d
                default: throw .expected("a number", value, at: path)
                }
            }, write: { .double($0) }, schema: EventSchema.type("number"))
    }
}

extension EventFieldType where Value == Bool {
    static var boolean: Self {
        EventFieldType(
            read: { value, path throws(EventFieldError) in
                guard case .bool(let b) = value else { throw .expected("a boolean", value, at: path) }
                return b
            }, write: { .bool($0) }, schema: EventSchema.type("boolean"))
    }
}

extension EventFieldType {
    /// One of an enumeration's raw values.
    static func enumeration(_: Value.Type) -> Self where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return EventFieldType(
            read: { value, path throws(EventFieldError) in
                guard case .string(let text) = value else { throw .expected("a string", value, at: path) }
                guard let found = Value(rawValue: text) else {
                    throw .expected("one of " + names.map { "\"\($0)\"" }.joined(separator: ", "), value, at: path)
                }
                return found
            }, write: { .string($0.rawValue) }, schema: EventSchema.enumeration(Value.self),
            values: names.map { "`\($0)`" }.joined(separator: ", "))
    }

    /// One of a model's names (`times_in_days`), or its seed's raw value (`timesInDays`),
    /// written as `written` says.
    static func named(
        _: Value.Type, _ eventName: @escaping @Sendable (Value) -> String, written: @escaping @Sendable (Value) -> String
    ) -> Self where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
        let names = Value.allCases.map(eventName)
        return EventFieldType(
            read: { value, path throws(EventFieldError) in
                guard case .string(let text) = value else { throw .expected("a string", value, at: path) }
                guard let found = Value.allCases.first(where: { eventName($0) == text || $0.rawValue == text }) else {
                    throw EventFieldError(path, "expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(text)\"")
                }
                return found
            }, write: { .string(written($0)) }, schema: EventSchema.names(Value.allCases.flatMap { [eventName($0), $0.rawValue] }),
            values: names.map { "`\($0)`" }.joined(separator: ", "))
    }

    /// A string a model type reads, refusing it with the rule the model names.
    static func model(
        _ parse: @escaping @Sendable (String) throws -> Value, write: @escaping @Sendable (Value) -> String, schema: JSONValue
    ) -> Self {
        EventFieldType(
            read: { value, path throws(EventFieldError) in
                guard case .string(let text) = value else { throw .expected("a string", value, at: path) }
                do {
                    return try parse(text)
                } catch let error as ModelValidationError {
                    throw EventFieldError(path, "expected \(error.rule), found \(error.found)")
                } catch {
                    throw EventFieldError(path, "\(error)")
                }
            }, write: { .string(write($0)) }, schema: schema)
    }

    /// A list of `element`s (an empty object reads as an empty list, as a Lua table would).
    static func list<Element>(_ element: EventFieldType<Element>, schema: JSONValue) -> Self where Value == [Element] {
        EventFieldType(
            read: { value, path throws(EventFieldError) in
                let items: [JSONValue]
                switch value {
                case .array(let all): items = all
                case .object:
                    guard EventObject(value)?.members.isEmpty == true else {
                        throw EventFieldError(path, "expected a list (keys 1, 2, … with no gaps), found a table with other keys")
                    }
                    items = []
                default: throw .expected("a list", value, at: path)
                }
                var out: [Element] = []
                out.reserveCapacity(items.count)
                for (i, item) in items.enumerated() { out.append(try element.read(item, "\(path)[\(i + 1)]")) }
                return out
            }, write: { .array($0.map(element.write)) }, schema: schema)
    }
}

extension Timestamp {
    /// The time `text` of the field `field`: an ISO-8601 time with an offset within `engineRange`.
    static func parse(_ field: String, _ text: String) throws(EngineError) -> Timestamp {
        guard let time = Timestamp(text) else {
            throw EngineError(.invalidEvent, "\(field): expected an ISO-8601 time with an offset, found \"\(text)\"")
        }
        try time.checkInEngineRange(field, written: text)
        return time
    }
}
