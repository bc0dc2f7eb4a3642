/// One value of a rule-declared param (design17 §1): what a declaration's `min`, `max` and
/// `default` hold, what a habit task or an event sets (`"params": {"freeze_max": 1}`), what a task
/// stores, and what a rule function receives. The rule set's declarations check a task's or an
/// event's values when the engine resolves them; the Lua conversion and the message text are the
/// engine's (RulesEngine).
public enum ParamValue: Hashable, Sendable, Codable {
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    /// An enum param's value.
    case string(String)

    // MARK: Limits (one set, for declarations, tasks and events)

    /// The most params a rule file declares, and a task or an event sets.
    public static let maxCount = 64
    /// The longest name, in bytes.
    public static let maxNameBytes = 40
    /// The longest string (enum) value, in bytes.
    public static let maxStringBytes = 40
    /// Integers are within ±2^53: exact in a double, as Lua and JSON numbers may be read.
    public static let maxExactInteger: Int64 = 1 << 53

    /// Whether `name` may name a param: `[a-z][a-z0-9_]*`, at most ``maxNameBytes`` bytes.
    public static func isName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (0x61...0x7A).contains(first), bytes.count <= maxNameBytes else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

    /// The value of a JSON number: an integer when it is whole and within ±2^53 (JSON does not
    /// tell 2 from 2.0, and stored params read back the same), else a number.
    public static func of(_ number: Double) -> ParamValue {
        if number.rounded() == number, abs(number) <= Double(maxExactInteger) { return .integer(Int64(number)) }
        return .number(number)
    }

    /// The value as a number, for ranges (nil for booleans and strings).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    // MARK: Codable

    /// A boolean, an integer, a number or a string; anything else is an error that says what was
    /// expected (and, where the decoder tells, what was found).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) { self = .boolean(b); return }
        if let i = try? c.decode(Int64.self) { self = .integer(i); return }
        if let d = try? c.decode(Double.self) { self = .number(d); return }
        do {
            self = .string(try c.decode(String.self))
        } catch DecodingError.typeMismatch(let type, let context) {
            // The last try says what was found; the message says all that was expected.
            let found = context.debugDescription.range(of: ", found ").map { String(context.debugDescription[$0.lowerBound...]) } ?? ""
            throw DecodingError.typeMismatch(
                type,
                .init(
                    codingPath: context.codingPath,
                    debugDescription: "expected a boolean, a number or a string\(found)"))
        }
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
}
