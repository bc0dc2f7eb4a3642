/// The key of one user in a database that may hold a whole simulated cohort.
///
/// Decision: the seeds describe single-user apps; their migration notes foresee a `user_id` for
/// server-side tables. Here every per-user table carries `user_id`, a positive integer (compact on
/// disk, cheap to index); a single-user app uses one user, conventionally `UserID(1)`.
public struct UserID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    /// Fails for values below 1.
    public init?(rawValue: Int64) {
        guard rawValue >= 1 else { return nil }
        self.rawValue = rawValue
    }

    /// Traps for values below 1; use for literals only.
    public init(_ value: Int64) {
        precondition(value >= 1, "UserID must be ≥ 1, found \(value)")
        self.rawValue = value
    }

    /// Validating constructor for input from outside.
    public static func parse(_ value: Int64) throws -> UserID {
        guard let id = UserID(rawValue: value) else {
            throw ModelValidationError(entity: "UserID", field: "user_id", rule: "an integer ≥ 1", found: "\(value)")
        }
        return id
    }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int64.self)
        self = try UserID.parse(value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}
