import Foundation
import LuaHost
import RulesModel

/// The params a rule file declares for its own functions (`M.params = { name = spec, … }`), in the
/// order of their names. Any of the five files may declare them; each file is a namespace of its
/// own. A spec is `{ type = "integer"|"number"|"boolean"|"enum", min = …, max = … (integer and
/// number), values = { "a", "b" } (enum), default = …, doc = "…" (optional) }`.
///
/// Decoding checks each spec's fields and types (an unknown field is an error with a suggestion);
/// ``problems(in:)`` checks names, ranges and defaults, at the line that writes each field.
package struct RuleParams: Decodable, Sendable, Equatable {
    /// The most params one file may declare (the limit a task or an event is held to as well).
    package static let maxParams = ParamValue.maxCount
    /// The longest name, in bytes.
    package static let maxNameBytes = ParamValue.maxNameBytes
    /// The most values an enum may have.
    package static let maxEnumValues = 64
    /// The longest enum value, in bytes.
    package static let maxEnumValueBytes = ParamValue.maxStringBytes
    /// The longest `doc`, in bytes.
    package static let maxDocBytes = 500
    /// Integers are within ±2^53: exact in a double, as Lua and JSON numbers may be read.
    package static let maxExactInteger = ParamValue.maxExactInteger

    package enum Kind: String, Decodable, CaseIterable, Sendable {
        case integer, number, boolean
        case `enum`
    }

    /// One declared param.
    package struct Param: Sendable, Equatable {
        /// The key it is declared under (a name that passes the checks is a plain string).
        package var key: LuaValue
        package var kind: Kind
        /// The range of an integer or number param.
        package var min: ParamValue?
        package var max: ParamValue?
        /// The values of an enum param, as declared.
        package var values: [String]
        package var defaultValue: ParamValue
        package var doc: String?

        /// The name, as tasks and events set it.
        package var name: String { key.stringValue ?? "\(key)" }

        /// The field's path in the file: `params.freeze_max`.
        package var path: String {
            var path = "params"
            LuaPath.append(key, to: &path)
            return path
        }

        /// What a value of this param must be: `an integer between 0 and 10`.
        package var expected: String {
            switch kind {
            case .integer: "an integer between \(min?.text ?? "?") and \(max?.text ?? "?")"
            case .number: "a number between \(min?.text ?? "?") and \(max?.text ?? "?")"
            case .boolean: "a boolean"
            case .enum: "one of " + values.map { ParamValue.string($0).text }.joined(separator: ", ")
            }
        }

        /// `value` as this param holds it (an integral number for an integer, an integer for a
        /// number), or nil when it is not one of its values.
        package func accepting(_ value: ParamValue) -> ParamValue? {
            switch (kind, value) {
            case (.integer, .integer(let i)):
                guard let lo = min?.doubleValue, let hi = max?.doubleValue, Double(i) >= lo, Double(i) <= hi else { return nil }
                return .integer(i)
            case (.integer, .number(let d)):
                guard d.isFinite, d == d.rounded(), abs(d) <= Double(RuleParams.maxExactInteger) else { return nil }
                return accepting(.integer(Int64(d)))
            case (.number, .integer), (.number, .number):
                guard let d = value.doubleValue, d.isFinite, let lo = min?.doubleValue, let hi = max?.doubleValue,
                    d >= lo, d <= hi
                else { return nil }
                return .number(d)
            case (.boolean, .boolean): return value
            case (.enum, .string(let s)): return values.contains(s) ? value : nil
            default: return nil
            }
        }

        /// As `validate` prints it: `freeze_max integer 0…10 = 2`.
        package var summary: String {
            switch kind {
            case .integer, .number: "\(name) \(kind.rawValue) \(min?.text ?? "?")…\(max?.text ?? "?") = \(defaultValue.text)"
            case .boolean: "\(name) boolean = \(defaultValue.text)"
            case .enum: "\(name) enum {\(values.map { ParamValue.string($0).text }.joined(separator: ", "))} = \(defaultValue.text)"
            }
        }

        /// As JSON reports give it (`validate --format json`, `bundle diff --json`): its name, type,
        /// min, max (null but for integers and numbers), values (empty but for enums), default, doc.
        package var jsonMembers: [(String, JSONValue)] {
            [
                ("name", .string(name)), ("type", .string(kind.rawValue)), ("min", min?.json ?? .null), ("max", max?.json ?? .null),
                ("values", .array(values.map(JSONValue.string))), ("default", defaultValue.json), ("doc", doc.map(JSONValue.string) ?? .null),
            ]
        }
    }

    package private(set) var params: [Param]

    /// No params (a file without `params`).
    package init() { params = [] }

    package init(params: [Param]) { self.params = params }

    package var isEmpty: Bool { params.isEmpty }

    /// The param declared as `name`.
    package subscript(name: String) -> Param? { params.first { $0.name == name } }

    /// One line for `validate`: `freeze_max integer 0…10 = 2; strict boolean = false`.
    package var summary: String { params.map(\.summary).joined(separator: "; ") }

    // MARK: Decoding

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ParamNameKey.self)
        params = try container.allKeys.map { key in
            var param = try container.decode(Spec.self, forKey: key).param
            param.key = key.intValue.map { .integer(Int64($0)) } ?? .string(key.stringValue)
            return param
        }.sorted { $0.name < $1.name }
    }

    /// One spec, decoded by its type: `min`, `max` and `default` are read as values of that type.
    private struct Spec: Decodable {
        var param: Param

        enum CodingKeys: String, CodingKey {
            case type, min, max, values
            case defaultValue = "default"
            case doc
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let kind = try c.decode(Kind.self, forKey: .type)
            func value(_ key: CodingKeys) throws -> ParamValue {
                switch kind {
                case .integer: .integer(try c.decode(Int64.self, forKey: key))
                case .number: .number(try c.decode(Double.self, forKey: key))
                case .boolean: .boolean(try c.decode(Bool.self, forKey: key))
                case .enum: .string(try c.decode(String.self, forKey: key))
                }
            }
            /// A field this type does not take: refused by name rather than as "unknown".
            func refuse(_ key: CodingKeys, _ why: String) throws {
                if try !c.decodeNil(forKey: key) {
                    throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [key], debugDescription: why))
                }
            }
            var param = Param(
                key: .nil, kind: kind, min: nil, max: nil, values: [], defaultValue: .boolean(false),
                doc: try c.decodeIfPresent(String.self, forKey: .doc))
            switch kind {
            case .integer, .number:
                param.min = try value(.min)
                param.max = try value(.max)
                try refuse(.values, "only an enum param lists values (a \(kind.rawValue) param has min and max)")
            case .boolean:
                try refuse(.min, "a boolean param has no range (only integer and number params have min and max)")
                try refuse(.max, "a boolean param has no range (only integer and number params have min and max)")
                try refuse(.values, "only an enum param lists values")
            case .enum:
                param.values = try c.decode([String].self, forKey: .values)
                try refuse(.min, "an enum param has no range: it lists its values")
                try refuse(.max, "an enum param has no range: it lists its values")
            }
            param.defaultValue = try value(.defaultValue)
            self.param = param
        }
    }

    // MARK: Checks

    /// The problems of the declared params, each at the line that writes its field (in the file
    /// that wrote it, when the folder extends another).
    func problems(in file: RuleFile) -> [RuleProblem] {
        var problems: [RuleProblem] = []
        func fail(_ path: String, _ message: String) { problems.append(file.problem(at: path, "\(path): \(message)")) }
        if params.count > Self.maxParams {
            fail("params", "at most \(Self.maxParams) params per file, found \(params.count)")
        }
        for param in params {
            let path = param.path
            guard case .string(let name) = param.key, ParamValue.isName(name) else {
                let found = param.key.stringValue.map { "\"\(VisibleText.escaping(SourceFile.excerpt($0, limit: 80)))\"" } ?? "\(param.key)"
                fail(
                    path,
                    "a param's name is a lowercase letter then lowercase letters, digits or _ "
                        + "(at most \(Self.maxNameBytes) bytes), found \(found)")
                continue
            }
            if let doc = param.doc, doc.utf8.count > Self.maxDocBytes {
                fail(path + ".doc", "at most \(Self.maxDocBytes) bytes, found \(doc.utf8.count)")
            }
            switch param.kind {
            case .integer, .number:
                guard let min = param.min, let max = param.max else { continue }
                var rangeOK = true
                for (field, bound) in [("min", min), ("max", max)] {
                    // By magnitude: `abs` of math.mininteger does not exist in an Int64.
                    if case .integer(let i) = bound, i.magnitude > Self.maxExactInteger.magnitude {
                        fail("\(path).\(field)", "an integer param's range is within ±2^53 (\(Self.maxExactInteger)), found \(i)")
                        rangeOK = false
                    }
                }
                if rangeOK, let lo = min.doubleValue, let hi = max.doubleValue, lo > hi {
                    fail("\(path).max", "must be at least min (\(min.text)), found \(max.text)")
                    rangeOK = false
                }
                // The proofs try points between min and max (``domainValues(of:)``): a width that
                // overflows a double would make them inf. (Decoding refused an infinite or NaN bound.)
                if rangeOK, let lo = min.doubleValue, let hi = max.doubleValue, !(hi - lo).isFinite {
                    fail(
                        "\(path).max",
                        "the range \(min.text)…\(max.text) is too wide: max − min must be a finite number "
                            + "(at most \(Double.greatestFiniteMagnitude)), as validate proves the functions at points between them")
                    rangeOK = false
                }
                if rangeOK, param.accepting(param.defaultValue) == nil {
                    fail("\(path).default", "must be within the range \(min.text)…\(max.text), found \(param.defaultValue.text)")
                }
            case .boolean:
                break
            case .enum:
                var valuesOK = true
                if !(1...Self.maxEnumValues).contains(param.values.count) {
                    fail("\(path).values", "an enum lists 1 to \(Self.maxEnumValues) values, found \(param.values.count)")
                    valuesOK = false
                }
                for (i, value) in param.values.enumerated() {
                    if !(1...Self.maxEnumValueBytes).contains(value.utf8.count) {
                        fail(
                            "\(path).values[\(i + 1)]",
                            "an enum value is a string of 1 to \(Self.maxEnumValueBytes) bytes, found \(ParamValue.string(value).text) (\(value.utf8.count) bytes)"
                        )
                        valuesOK = false
                    } else if let first = param.values.firstIndex(of: value), first < i {
                        fail(
                            "\(path).values[\(i + 1)]",
                            "\(ParamValue.string(value).text) is listed twice (also values[\(first + 1)]): enum values are unique")
                        valuesOK = false
                    }
                }
                if valuesOK, param.accepting(param.defaultValue) == nil {
                    fail("\(path).default", "must be \(param.expected), found \(param.defaultValue.text)")
                }
            }
        }
        return problems
    }
}
