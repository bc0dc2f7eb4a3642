/// One value of a habit task's `params` (issue 17, design17 §1): a scalar the rule set's declared
/// params check later (the engine resolves them); the task stores what the user set.
public enum TaskParamValue: Hashable, Sendable, Codable {
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case string(String)

    /// The value of a JSON number: an integer when it is whole (JSON does not tell 2 from 2.0, and
    /// stored params read back the same), else a number.
    public static func of(_ number: Double) -> TaskParamValue {
        if number.rounded() == number, abs(number) <= 9_007_199_254_740_992 { return .integer(Int64(number)) }
        return .number(number)
    }

    /// The most params a task holds, and the longest name and string value, in bytes.
    public static let maxCount = 32
    public static let maxNameBytes = 40
    public static let maxStringBytes = 40

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) { self = .boolean(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else { throw NotAScalar() }
    }

    /// A param value that is a list, an object or null.
    struct NotAScalar: Error, CustomStringConvertible {
        var description: String { "expected a number, a boolean or a string" }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .boolean(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    /// How an error message shows it.
    public var text: String {
        switch self {
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .boolean(let value): "\(value)"
        case .string(let value): quoted(value)
        }
    }

    /// Whether `name` is a param name: `[a-z][a-z0-9_]*`, at most ``maxNameBytes`` bytes.
    public static func isName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (0x61...0x7A).contains(first), bytes.count <= maxNameBytes else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}
