import Foundation

/// The one JSON encoder and decoder of the model: sorted keys, so equal values give equal text
/// (the text `JSONEncoder` writes with sorted keys and unescaped slashes, see ``CompactJSONEncoder``).
public enum ModelJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        try CompactJSONEncoder.encode(value)
    }

    /// Appends `value` as a JSON string literal, as `JSONEncoder` writes it: quotes, backslashes
    /// and control characters escaped; `/` and non-ASCII as they are. With `escapingDELAndC1`,
    /// DEL and the C1 controls are escaped too (`\u007f`, `\u009b`), for JSON printed to
    /// terminals, which act on them (stored JSON keeps them as they are, as `JSONEncoder` does).
    public static func quote(_ value: String, into out: inout String, escapingDELAndC1: Bool = false) {
        // C1 is C2 80–C2 9F in UTF-8.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || (escapingDELAndC1 && ($0 == 0x7F || $0 == 0xC2)) }) {
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
            case _ where escapingDELAndC1 && (0x7F...0x9F).contains(scalar.value):
                out += "\\u00" + String(scalar.value, radix: 16)
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
