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
/// ``JSONWritable``), and any ``JSONValue``, as the model's JSON or printed. It writes UTF-8 bytes
/// into one buffer, made a `String` once at the end: appending to a `String` piece by piece cost
/// more than everything else a simulation with a database does per event.
struct JSONWriter {
    private var bytes: [UInt8] = []
    /// Whether this is JSON printed to be read (see ``write(_:)``) rather than the model's JSON.
    let printed: Bool

    init(printed: Bool = false) {
        self.printed = printed
        bytes.reserveCapacity(256)
    }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    static func text(of value: some JSONWritable) throws -> String {
        var writer = JSONWriter()
        try value.write(to: &writer)
        return writer.text
    }

    /// Writes an object whose members `body` writes, in sorted key order.
    mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "{"))
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func member(_ key: StaticString, _ value: Int) { self.key(key); append(value) }
    mutating func member(_ key: StaticString, _ value: Int64) { self.key(key); append(Int(value)) }
    mutating func member(_ key: StaticString, _ value: Bool) { self.key(key); append(value ? "true" : "false") }
    mutating func member(_ key: StaticString, _ value: DayID) { self.key(key); quote(value.rawValue) }

    /// A string, or `null`.
    mutating func member(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { quote(value) } else { append("null") }
    }

    /// An enumeration's or identifier's raw string, or `null`.
    mutating func member<R: RawRepresentable>(_ key: StaticString, _ value: R?) where R.RawValue == String {
        member(key, value?.rawValue)
    }

    mutating func member(_ key: StaticString, _ value: some JSONWritable) throws {
        self.key(key)
        try value.write(to: &self)
    }

    mutating func member(_ key: StaticString, _ values: [some JSONWritable]) throws {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for i in values.indices {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            try values[i].write(to: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Any JSON value. In the model's JSON an object's keys are sorted and a number is written as
    /// `JSONEncoder` writes it (`1`), one that is not finite throwing as `JSONEncoder` does. In
    /// printed JSON (`printed`) an object's members are written in order, a double as Swift prints
    /// it (`1.0`), one that is not finite as `null`, and DEL and the C1 controls are escaped in
    /// strings and keys too: this JSON is printed to terminals (see `quote(_:)`).
    mutating func write(_ value: JSONValue) throws {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): append(i)
        case .double(let d):
            if !printed { append(try Self.number(d)) } else { append(d.isFinite ? d.description : "null") }
        case .string(let s): quote(s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            // Index loops: a debug build's `enumerated()` looks up tuple metadata at each element.
            for i in elements.indices {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(elements[i])
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            let ordered = printed ? members : members.sorted { $0.0 < $1.0 }
            for i in ordered.indices {
                let member = ordered[i]
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                quote(member.0)
                bytes.append(UInt8(ascii: ":"))
                try write(member.1)
            }
            bytes.append(UInt8(ascii: "}"))
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
    private mutating func key(_ key: StaticString) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// An integer's decimal digits.
    private mutating func append(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
    }

    /// `value` as a JSON string literal, as `JSONEncoder` writes it: quotes, backslashes and
    /// control characters escaped; `/` and non-ASCII as they are. In printed JSON, DEL and the C1
    /// controls are escaped too (`\u007f`, `\u009b`), for terminals act on them (stored JSON keeps
    /// them as they are, as `JSONEncoder` does).
    private mutating func quote(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let printed = printed
        value.withUTF8 { utf8 in
            // C1 is C2 80–C2 9F in UTF-8. An index loop: a debug build's `contains(where:)` cost as
            // much as the rest of the writing.
            var plain = true
            var i = 0
            while plain, i < utf8.count {
                let byte = utf8[i]
                plain = !(byte < 0x20 || byte == 0x22 || byte == 0x5C || (printed && (byte == 0x7F || byte == 0xC2)))
                i += 1
            }
            if plain { bytes.append(contentsOf: utf8) } else { escaped(utf8) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The bytes of a string with something to escape, escaped (see `quote(_:)`).
    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let escapingDELAndC1 = printed
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            i += 1
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case ..<0x20: escape(byte)
            case 0x7F where escapingDELAndC1: escape(byte)
            case 0xC2 where escapingDELAndC1 && i < utf8.count && (0x80...0x9F).contains(utf8[i]):
                escape(utf8[i])
                i += 1
            default: bytes.append(byte)
            }
        }
    }

    /// `\u00XX` for the code point `value` (below 0x100), in lowercase hexadecimal.
    private mutating func escape(_ value: UInt8) {
        func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10 }
        append("\\u00")
        bytes.append(hex(value >> 4))
        bytes.append(hex(value & 0xF))
    }
}

extension JSONValue: JSONWritable {
    func write(to json: inout JSONWriter) throws { try json.write(self) }
}
