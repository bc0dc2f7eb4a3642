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

/// The one writer of JSON text: the model's values written member by member (see
/// ``JSONWritable``), and any ``JSONValue``, as the model's JSON or printed.
struct JSONWriter {
    private(set) var text = ""
    /// Whether this is JSON printed to be read (see ``write(_:)``) rather than the model's JSON.
    let printed: Bool

    init(printed: Bool = false) {
        self.printed = printed
        text.reserveCapacity(256)
    }

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

    /// Any JSON value. In the model's JSON an object's keys are sorted and a number is written as
    /// `JSONEncoder` writes it (`1`), one that is not finite throwing as `JSONEncoder` does. In
    /// printed JSON (`printed`) an object's members are written in order, a double as Swift prints
    /// it (`1.0`), one that is not finite as `null`, and DEL and the C1 controls are escaped in
    /// strings and keys too: this JSON is printed to terminals (see `ModelJSON.quote`).
    mutating func write(_ value: JSONValue) throws {
        switch value {
        case .null: text += "null"
        case .bool(let b): text += b ? "true" : "false"
        case .int(let i): text += String(i)
        case .double(let d):
            if !printed { text += try Self.number(d) } else { text += d.isFinite ? d.description : "null" }
        case .string(let s): ModelJSON.quote(s, into: &text, escapingDELAndC1: printed)
        case .array(let elements):
            text += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { text += "," }
                try write(element)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (i, member) in (printed ? members : members.sorted { $0.0 < $1.0 }).enumerated() {
                if i > 0 { text += "," }
                ModelJSON.quote(member.0, into: &text, escapingDELAndC1: printed)
                text += ":"
                try write(member.1)
            }
            text += "}"
        }
    }

    /// A number in the model's JSON, as `JSONEncoder` writes it: its shortest description, without
    /// a trailing `.0`; one that is not finite throws.
    static func number(_ value: Double) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
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
