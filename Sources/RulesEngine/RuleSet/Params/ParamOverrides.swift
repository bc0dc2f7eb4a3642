import LuaHost
import RulesModel

/// The param values a task or an event sets (`"params": {"freeze_max": 1}`), as read: checked
/// against the rule file's declarations only when resolved (``RuleParams/resolve(_:)``).
package struct ParamOverrides: Decodable, Hashable, Sendable {
    /// The values, by name, in the order of their names.
    package private(set) var values: [(name: String, value: ParamValue)]

    package init(_ values: [(name: String, value: ParamValue)] = []) {
        self.values = values.sorted { $0.name < $1.name }
    }

    /// The values a task stores (``HabitTask/params``).
    package init(_ values: [String: ParamValue]) {
        self.init(values.map { (name: $0.key, value: $0.value) })
    }

    package static func == (a: ParamOverrides, b: ParamOverrides) -> Bool {
        a.values.elementsEqual(b.values) { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        for (name, value) in values { hasher.combine(name); hasher.combine(value) }
    }

    /// An object of at most ``RuleParams/maxParams`` booleans, numbers and strings.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ParamNameKey.self)
        let keys = container.allKeys
        guard keys.count <= RuleParams.maxParams else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "at most \(RuleParams.maxParams) params, found \(keys.count)"))
        }
        self.init(try keys.map { key in (key.stringValue, try container.decode(ParamValue.self, forKey: key)) })
    }

    /// The values of a JSON object (the project's JSON value type): a number that is an integer
    /// (within ±2^53) is an integer.
    package init(json: JSONValue) throws(EngineError) {
        guard case .object(let object) = json else {
            throw EngineError(.invalidEvent, "params: expected an object of param values, found \(Self.kind(of: json))")
        }
        guard object.count <= RuleParams.maxParams else {
            throw EngineError(.invalidEvent, "params: at most \(RuleParams.maxParams) params, found \(object.count)")
        }
        var values: [(String, ParamValue)] = []
        for (name, value) in object {
            switch value {
            case .bool(let b): values.append((name, .boolean(b)))
            case .string(let s): values.append((name, .string(s)))
            case .int(let i) where i.magnitude <= UInt64(ParamValue.maxExactInteger): values.append((name, .integer(Int64(i))))
            case .int(let i): values.append((name, .number(Double(i))))
            case .double(let d): values.append((name, ParamValue.of(d)))
            default:
                var path = "params"
                LuaPath.append(name, to: &path)
                throw EngineError(.invalidEvent, "\(path): expected a boolean, a number or a string, found \(Self.kind(of: value))")
            }
        }
        self.init(values)
    }

    private static func kind(of json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
