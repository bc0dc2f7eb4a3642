/// A local time of day as `HH:MM` (00:00–23:59): Pressure's deadlines, Earned's mode windows,
/// the habit tracker's reminder time.
public struct LocalTime: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Minutes since local midnight, 0...1439.
    public let minutes: Int

    public init?(minutes: Int) {
        guard (0...1439).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    public init(hour: Int, minute: Int) {
        precondition((0...23).contains(hour) && (0...59).contains(minute), "invalid time \(hour):\(minute)")
        self.minutes = hour * 60 + minute
    }

    /// Parses `HH:MM`; throws a ``ModelValidationError`` naming `entity` and `field`.
    public init(_ text: String, entity: String = "LocalTime", field: String = "time") throws {
        let bytes = Array(text.utf8)
        let digits =
            bytes.count == 5 && bytes[2] == 0x3A
            && [0, 1, 3, 4].allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
        let h = digits ? Int(bytes[0] - 0x30) * 10 + Int(bytes[1] - 0x30) : -1
        let m = digits ? Int(bytes[3] - 0x30) * 10 + Int(bytes[4] - 0x30) : -1
        guard (0...23).contains(h), (0...59).contains(m) else {
            throw ModelValidationError(entity: entity, field: field, rule: "a time of day HH:MM (00:00–23:59)", found: quoted(text))
        }
        self.minutes = h * 60 + m
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }
    public var text: String {
        String(unsafeUninitializedCapacity: 5) { bytes in
            bytes[0] = UInt8(0x30 + hour / 10); bytes[1] = UInt8(0x30 + hour % 10)
            bytes[2] = 0x3A
            bytes[3] = UInt8(0x30 + minute / 10); bytes[4] = UInt8(0x30 + minute % 10)
            return 5
        }
    }
    public var description: String { text }
    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutes < rhs.minutes }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text, field: decoder.codingPath.map(\.stringValue).joined(separator: "."))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
