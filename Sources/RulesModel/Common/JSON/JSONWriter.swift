/// A model value that writes its own JSON: the text ``CompactJSONEncoder`` (and `JSONEncoder`
/// with sorted keys) writes from its `Encodable` conformance, written straight into the output
/// without the `Encoder` protocol's containers. The event payloads and options snapshots, which a
/// simulation writes by the million, do; `CompactJSONEncoderTests` requires the same text as
/// `JSONEncoder` for each of them.
///
/// `write(to:)` writes an object's members in sorted key order, and `null` or nothing for an
/// absent value exactly as the type's `encode(to:)` does (`encode` versus `encodeIfPresent`).
protocol JSONWritable: Encodable {
    func write(to json: inout JSONWriter) throws
}

/// The JSON text of one value, written member by member (see ``JSONWritable``).
struct JSONWriter {
    private(set) var text = ""

    init() { text.reserveCapacity(256) }

    static func text(of value: some JSONWritable) throws -> String {
        var writer = JSONWriter()
        try value.write(to: &writer)
        return writer.text
    }

    /// Writes an object whose members `body` writes, in sorted key order.
    mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        text += "{"
        try body(&self)
        text += "}"
    }

    mutating func member(_ key: String, _ value: Int) { self.key(key); text += String(value) }
    mutating func member(_ key: String, _ value: Int64) { self.key(key); text += String(value) }
    mutating func member(_ key: String, _ value: Bool) { self.key(key); text += value ? "true" : "false" }
    mutating func member(_ key: String, _ value: DayID) { self.key(key); ModelJSON.quote(value.rawValue, into: &text) }

    /// A string, or `null`.
    mutating func member(_ key: String, _ value: String?) {
        self.key(key)
        if let value { ModelJSON.quote(value, into: &text) } else { text += "null" }
    }

    /// An enumeration's or identifier's raw string, or `null`.
    mutating func member<R: RawRepresentable>(_ key: String, _ value: R?) where R.RawValue == String {
        member(key, value?.rawValue)
    }

    mutating func member(_ key: String, _ value: some JSONWritable) throws {
        self.key(key)
        try value.write(to: &self)
    }

    mutating func member(_ key: String, _ values: [some JSONWritable]) throws {
        self.key(key)
        text += "["
        for (i, value) in values.enumerated() {
            if i > 0 { text += "," }
            try value.write(to: &self)
        }
        text += "]"
    }

    /// Any JSON value, an object's keys sorted; a number that is not finite throws, as
    /// `JSONEncoder` does.
    mutating func write(_ value: JSONValue) throws {
        switch value {
        case .null: text += "null"
        case .bool(let b): text += b ? "true" : "false"
        case .number(let n): text += try n.jsonText()
        case .string(let s): ModelJSON.quote(s, into: &text)
        case .array(let elements):
            text += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { text += "," }
                try write(element)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { text += "," }
                ModelJSON.quote(member.key, into: &text)
                text += ":"
                try write(member.value)
            }
            text += "}"
        }
    }

    /// A member's key (the model's keys need no escaping), after a comma unless it is the first.
    private mutating func key(_ key: String) {
        if text.utf8.last != UInt8(ascii: "{") { text += "," }
        text += "\""
        text += key
        text += "\":"
    }
}

extension JSONValue: JSONWritable {
    func write(to json: inout JSONWriter) throws { try json.write(self) }
}
