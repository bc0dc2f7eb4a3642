/// An app identity of Earned (A5.5): `android:<package>` or `iosToken:<opaque token>`.
///
/// The seed enforces the prefixes "at the domain layer (not via SQL constraint)"; this type is
/// that layer. Decision: the part after the prefix must be 1–512 printable ASCII characters
/// without spaces (iOS tokens are opaque but printable; Android package names are ASCII).
public struct AppID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public enum Platform: String, Sendable, Codable, CaseIterable {
        case ios, android
    }

    public let rawValue: String

    public init?(rawValue: String) {
        guard (try? AppID.parse(rawValue)) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// Validating constructor naming the entity and field in its error.
    public static func parse(_ text: String, entity: String = "AppID", field: String = "app_id") throws -> AppID {
        let rest: Substring
        if text.hasPrefix("android:") {
            rest = text.dropFirst(8)
        } else if text.hasPrefix("iosToken:") {
            rest = text.dropFirst(9)
        } else {
            throw ModelValidationError(
                entity: entity, field: field, rule: "an AppId starting with android: or iosToken:", found: quoted(text))
        }
        guard !rest.isEmpty, rest.utf8.count <= 512, FieldCheck.everyByte(of: rest, in: 0x21...0x7E) else {
            throw ModelValidationError(
                entity: entity, field: field, rule: "1–512 printable ASCII characters after the platform prefix", found: quoted(text))
        }
        return AppID(unchecked: text)
    }

    private init(unchecked: String) { self.rawValue = unchecked }

    /// One id of each shape the schema accepts, as proofs and generators try them: an Android
    /// package, then an iOS token (opaque: base64 punctuation included).
    public static let shapes = [AppID(unchecked: "android:com.example.app"), AppID(unchecked: "iosToken:AbC+dEf/9==")]

    public var platform: Platform { rawValue.hasPrefix("android:") ? .android : .ios }
    public var description: String { rawValue }
    public static func < (lhs: AppID, rhs: AppID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try AppID.parse(text, field: decoder.codingPath.map(\.stringValue).joined(separator: "."))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
