import RulesModel

extension EventFieldType where Value == LocalTime {
    static var localTime: Self { .model({ try LocalTime($0) }, write: \.text, schema: EventSchema.ref("local_time")) }
}

extension EventFieldType where Value == DayID {
    static var day: Self { .model({ try DayID($0) }, write: \.rawValue, schema: EventSchema.ref("day")) }
}

extension EventFieldType where Value == AppID {
    static var app: Self { .model({ try AppID.parse($0) }, write: \.rawValue, schema: EventSchema.ref("app")) }
}

extension EventFieldType where Value == [AppID] {
    static var apps: Self { .list(.app, schema: EventSchema.ref("apps")) }
}

extension EventFieldType where Value == [Int] {
    static var weekdays: Self { .list(.integer, schema: EventSchema.ref("weekdays")) }
}

extension EventFieldType where Value == [String: ParamValue] {
    /// Values of the rule set's params by name (the rule set checks them when the engine resolves
    /// them): an object of booleans, numbers and strings.
    static var params: Self {
        EventFieldType(
            read: { value, path throws(EventFieldError) in
                let entries: [(String, JSONValue)]
                switch value {
                case .object: entries = EventObject(value)!.members.sorted { $0.0 < $1.0 }
                case .array(let items): entries = items.enumerated().map { ("\($0.offset + 1)", $0.element) }
                default: throw .expected("a table", value, at: path)
                }
                var params: [String: ParamValue] = [:]
                for (key, item) in entries {
                    // (A key that reads as a number is named as an index, as the rule decoder names it.)
                    let at = Int(key).map { "\(path)[\($0)]" } ?? EventFieldError.path(key, in: path)
                    switch item {
                    case .bool(let b): params[key] = .boolean(b)
                    case .int(let i): params[key] = .integer(Int64(i))
                    case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: params[key] = .integer(Int64(d))
                    case .double(let d): params[key] = .number(d)
                    case .string(let s): params[key] = .string(s)
                    default: throw .expected("a boolean, a number or a string", item, at: at)
                    }
                }
                return params
            }, write: { params in .object(params.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }) },
            schema: EventSchema.ref("params"))
    }
}

extension EventFieldType where Value == ModeDefinition.Window {
    /// A mode's weekly window: `days`, `start`, `end`.
    static var window: Self {
        let days = EventField.required("days", .weekdays)
        let start = EventField.required("start", .localTime)
        let end = EventField.required("end", .localTime)
        let fields: [any AnyEventField] = [days, start, end]
        return EventFieldType(
            read: { value, path throws(EventFieldError) in
                guard let object = EventObject(value) else { throw .expected("a table", value, at: path) }
                let values = try EventFieldReader.read(fields, from: object, at: path)
                return ModeDefinition.Window(days: values[days], start: values[start], end: values[end])
            },
            write: { window in
                .object(
                    fields.compactMap { f in
                        f.write([days.with(window.days), start.with(window.start), end.with(window.end)]).map { (f.name, $0) }
                    })
            },
            schema: .object([
                ("type", .string("object")),
                ("properties", .object(fields.map { ($0.name, $0.schema) })),
                ("required", .array(fields.map { .string($0.name) })),
                ("additionalProperties", .bool(false)),
            ]))
    }
}
