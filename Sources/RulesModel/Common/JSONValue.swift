import Foundation

/// Any JSON value, for the free-form JSON of the seeds (`option_payload`, `metadata_json`,
/// `chosen_option_payload_json`). Objects keep their keys sorted when encoded, so the text
/// stored is the same for the same value.
public enum JSONValue: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public static let emptyObject = JSONValue.object([:])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Whether the value is a JSON object (the seeds' payload columns hold objects).
    public var isObject: Bool { if case .object = self { true } else { false } }
}

/// The one JSON encoder and decoder of the model: sorted keys, so equal values give equal text
/// (the text `JSONEncoder` writes with sorted keys and unescaped slashes, see ``CompactJSONEncoder``).
public enum ModelJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        try CompactJSONEncoder.encode(value)
    }

    /// Appends `value` as a JSON string literal, as `JSONEncoder` writes it: quotes, backslashes
    /// and control characters escaped; `/` and non-ASCII as they are.
    public static func quote(_ value: String, into out: inout String) {
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += "\""
            out += value
            out += "\""
            return
        }
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Decodes `text`; a failure becomes a ``ModelValidationError`` naming `entity`, `field` and
    /// the JSON path where decoding stopped.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String, entity: String, field: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch let error as ModelValidationError {
            throw error
        } catch let error as DecodingError {
            let (path, rule) = describe(error)
            let where_ = path.isEmpty ? field : field + "." + path
            throw ModelValidationError(entity: entity, field: where_, rule: rule, found: quoted(text))
        }
    }

    /// Where decoding stopped (`days[0].yes`) and what was expected there.
    public static func describe(_ error: DecodingError) -> (String, String) {
        func join(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context): return (join(context.codingPath + [key]), "a required key")
        case .typeMismatch(let type, let context): return (join(context.codingPath), "a value of type \(type)")
        case .valueNotFound(let type, let context): return (join(context.codingPath), "a non-null value of type \(type)")
        case .dataCorrupted(let context): return (join(context.codingPath), context.debugDescription)
        @unknown default: return ("", "valid JSON")
        }
    }
}
