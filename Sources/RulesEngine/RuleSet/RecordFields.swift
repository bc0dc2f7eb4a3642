import LuaHost
import RulesModel

/// The fields of the records one rule function receives, each with how `validate`'s proof covers
/// it (``RuleSet/recordFields``): a field is either enumerated — the proof tries a value of every
/// class of values the engine can pass — or named in the function's `not proved` line. A field the
/// engine writes that is declared neither way is a field the proof leaves out silently; the tests
/// walk every record the engine passes and every record the proof passes against this declaration.
package struct RuleRecordFields: Sendable {
    /// The function as `validate` names it (`price`, `habit.streak`).
    package let function: String
    /// Its arguments' names, in order: the first segment of a field's path.
    package let arguments: [String]
    package let fields: [RecordField]

    package init(_ function: String, _ arguments: [String], _ fields: [RecordField]) {
        self.function = function
        self.arguments = arguments
        self.fields = fields
    }
}

/// One field of a rule's records: its path in the arguments (`ctx.app`, `periods[].status`,
/// `task.frequency.kind`, `tier` for an argument that is not a table; `[]` is each element of a
/// list) and how the proof covers it. A declared path covers what it holds (`ctx.params`).
package struct RecordField: Sendable {
    package let path: String
    package let coverage: Coverage

    package enum Coverage: Sendable {
        /// Every class is tried by the proof, and every value the engine passes is in one.
        case enumerated(ValueClasses)
        /// Not every value is tried: the words of the function's `not proved` line that name it.
        case notProved(String)
    }

    package static func enumerated(_ path: String, _ classes: ValueClasses) -> RecordField {
        RecordField(path: path, coverage: .enumerated(classes))
    }

    package static func notProved(_ path: String, _ words: String) -> RecordField {
        RecordField(path: path, coverage: .notProved(words))
    }

    /// The values at this path in one call's arguments (absent: nil; one per element under `[]`).
    package func values(in arguments: [LuaValue?], names: [String]) -> [LuaValue] {
        var segments = Self.segments(path)
        guard let index = names.firstIndex(of: segments.removeFirst()) else { return [] }
        var values = [index < arguments.count ? arguments[index] ?? .nil : .nil]
        for segment in segments {
            values = values.flatMap { value -> [LuaValue] in
                if segment == "[]" { return value.tableValue?.sequence ?? [] }
                return [value.tableValue?[segment] ?? .nil]
            }
        }
        return values
    }

    /// `task.frequency.kind` → `task`, `frequency`, `kind`; `periods[].status` → `periods`, `[]`, `status`.
    static func segments(_ path: String) -> [String] {
        path.replacingOccurrences(of: "[]", with: ".[]").split(separator: ".").map(String.init)
    }

    /// The paths of the fields in one call's arguments that no path of `declared` covers (each a
    /// value that is not a table, or a table no declared path reaches into), in the order found.
    package static func undeclared(in arguments: [LuaValue?], names: [String], declared: Set<String>) -> [String] {
        var found: [String] = []
        func walk(_ value: LuaValue, _ path: String) {
            if declared.contains(path) { return }
            guard case .table(let table) = value else {
                if !value.isNil { found.append(path) }
                return
            }
            if table.isEmpty { return }
            if table.isSequence {
                for element in table.sequence { walk(element, path + "[]") }
            } else {
                for key in table.stringKeys { walk(table[key], path + "." + key) }
                if table.stringKeys.count < table.count { found.append(path + "[?]") }
            }
        }
        for (i, argument) in arguments.enumerated() {
            walk(argument ?? .nil, i < names.count ? names[i] : "argument \(i + 1)")
        }
        return found
    }
}

/// The classes of a field's values that a proof tries one of each: `names`, and the class of a
/// value (nil: in none of them).
package struct ValueClasses: Sendable {
    package let names: [String]
    private let classify: @Sendable (LuaValue) -> String?

    package init(names: [String], classify: @escaping @Sendable (LuaValue) -> String?) {
        self.names = names
        self.classify = classify
    }

    package func name(of value: LuaValue) -> String? { classify(value) }

    /// Each value its own class.
    package static func values(_ values: [LuaValue]) -> ValueClasses {
        let names = values.map { $0.isNil ? "nil" : "\($0)" }
        return ValueClasses(names: names) { value in values.firstIndex(of: value).map { names[$0] } }
    }

    package static func integers(_ list: [Int]) -> ValueClasses { values(list.map { .integer(Int64($0)) }) }
    package static func integers(_ range: ClosedRange<Int>) -> ValueClasses { integers(Array(range)) }
    package static func texts(_ texts: [String], orNil: Bool = false) -> ValueClasses {
        values(texts.map(LuaValue.string) + (orNil ? [.nil] : []))
    }
    package static let booleans = values([false, true])
    /// ISO weekdays 1 (Monday) … 7 (Sunday).
    package static let weekdays = integers(1...7)

    /// The app ids the event schema accepts (`AppID`): an Android package, an iOS token.
    package static let appPlatforms = ValueClasses(names: AppID.Platform.allCases.map(\.rawValue)) { value in
        value.stringValue.flatMap(AppID.init(rawValue:))?.platform.rawValue
    }

    /// Days `YYYY-MM-DD` by where they fall in their month: a leap day, another last day of a month,
    /// a first day, another day.
    package static let days = ValueClasses(names: ["leap day", "last day of a month", "first day of a month", "another day"]) { value in
        guard let text = value.stringValue, let day = try? DayID(text) else { return nil }
        if day.month == 2 && day.day == 29 { return "leap day" }
        if day.adding(days: 1)?.day == 1 { return "last day of a month" }
        return day.day == 1 ? "first day of a month" : "another day"
    }

    /// A file's params: every combination of their proof's domain (`ParamDomain`), each its class.
    package static func params(_ params: RuleParams) -> ValueClasses {
        values(params.domain().combinations.map(\.luaValue))
    }
}
