import Foundation

/// The one JSON encoder and decoder of the model: sorted keys, so equal values give equal text
/// (the text `JSONEncoder` writes with sorted keys and unescaped slashes, see ``CompactJSONEncoder``).
package enum ModelJSON {
    package static func encode<T: Encodable>(_ value: T) throws -> String {
        try CompactJSONEncoder.encode(value)
    }

    /// Decodes `text`; a failure becomes a ``ModelValidationError`` naming `entity`, `field` and
    /// the JSON path where decoding stopped.
    package static func decode<T: Decodable>(_ type: T.Type, from text: String, entity: String, field: String) throws -> T {
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
    package static func describe(_ error: DecodingError) -> (String, String) {
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
