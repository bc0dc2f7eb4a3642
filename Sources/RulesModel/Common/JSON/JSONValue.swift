/// Any JSON value: the engine's decisions and state as printed, the lines `JSONLine` shows, and
/// the model's free-form payload columns (`option_payload`, `metadata_json`,
/// `chosen_option_payload_json`).
///
/// An object keeps its members in the order they were built (or read), so that the same value
/// always prints the same bytes; integers are kept apart from doubles. ``JSONWriter`` writes it,
/// two ways: printed (`description`: members in order, a double as Swift prints it, `1.0`) and
/// the model's JSON (`ModelJSON.encode`, `Encodable`: keys sorted, numbers as `JSONEncoder`
/// writes them, `1`), so the text stored for a payload does not depend on the order it was built
/// in.
///
/// Two values are equal (and hash alike) when they print the same text: the same members in the
/// same order, `1` and `1.0` differ, and a double that is not finite prints, and equals, `null`.
public enum JSONValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static let emptyObject = JSONValue.object([])

    /// A payload object: its members sorted by key, as the model stores and reads them.
    public static func payload(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.sorted { $0.0 < $1.0 })
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// Whether the value is a JSON object (the seeds' payload columns hold objects).
    public var isObject: Bool { if case .object = self { true } else { false } }

    /// The printed JSON (see ``JSONWriter/write(_:)``).
    public var description: String {
        var writer = JSONWriter(printed: true)
        try? writer.write(self)  // printed, a number that is not finite is null: nothing throws
        return writer.text
    }

    /// Reads the model's JSON: an object's members sorted by key; a whole number below 2^53 (but
    /// `-0`) as an integer, which `ModelJSON.encode` writes as it wrote the double.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            let whole = value == 0 && value.sign == .minus ? nil : WholeNumber.exactly(value)
            self = whole.map { .int($0) } ?? .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .payload(try container.decode([String: JSONValue].self).map { ($0.key, $0.value) })
        }
    }

    /// Writes the model's JSON (an object as a dictionary: its keys sorted by the encoder, the
    /// last of a key given twice).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let members): try container.encode(Dictionary(members, uniquingKeysWith: { $1 }))
        }
    }
}
