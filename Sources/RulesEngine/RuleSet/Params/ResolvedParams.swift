import LuaHost
import RulesModel

/// Every param a rule file declares with the value a function receives: the task's or the
/// event's where it sets one, else the default. Goes to Lua as the `params` field of the record a
/// function receives (``LuaTableWriter/set(_:params:)``).
package struct ResolvedParams: Hashable, Sendable, CustomStringConvertible {
    /// The values, in the order of the names.
    package let values: [Entry]

    package struct Entry: Hashable, Sendable {
        package var name: String
        package var value: ParamValue
    }

    package init(_ values: [Entry]) { self.values = values }

    /// No params.
    package static let empty = ResolvedParams([])

    package subscript(name: String) -> ParamValue? { values.first { $0.name == name }?.value }

    /// The values as a Lua table (`{ freeze_max = 2, strict = false }`).
    package var luaValue: LuaValue {
        var table = LuaTable()
        for entry in values { table[.string(entry.name)] = entry.value.luaValue }
        return .table(table)
    }

    /// As a message names a combination: `freeze_max = 2, strict = false`.
    package var description: String { values.map { "\($0.name) = \($0.value.text)" }.joined(separator: ", ") }
}

extension RuleParams {
    /// Every param at its default.
    package var defaults: ResolvedParams {
        ResolvedParams(params.map { .init(name: $0.name, value: $0.defaultValue) })
    }

    /// Every param with the value `overrides` sets, else its default. A name the file does not
    /// declare, or a value that is not one of its param's, is INVALID_EVENT naming `params.NAME`,
    /// what was expected and what was found (with a suggestion for a misspelt name).
    package func resolve(_ overrides: ParamOverrides?) throws(EngineError) -> ResolvedParams {
        guard let overrides, !overrides.values.isEmpty else { return defaults }
        var given: [String: ParamValue] = [:]
        for (name, value) in overrides.values {
            var path = "params"
            LuaPath.append(name, to: &path)
            guard let param = self[name] else {
                let names = params.map(\.name)
                var message = "\(path): unknown param"
                if let suggestion = Suggestion.closest(to: name, among: names) {
                    message += " (did you mean '\(suggestion)'?)"
                } else {
                    message += names.isEmpty ? " (the rule file declares no params)" : " (declared: \(names.joined(separator: ", ")))"
                }
                throw EngineError(.invalidEvent, message)
            }
            guard let accepted = param.accepting(value) else {
                throw EngineError(.invalidEvent, "\(path): expected \(param.expected), found \(value.text)")
            }
            given[name] = accepted
        }
        return ResolvedParams(params.map { .init(name: $0.name, value: given[$0.name] ?? $0.defaultValue) })
    }

    /// The same from a JSON object (the project's JSON value type).
    package func resolve(json: JSONValue?) throws(EngineError) -> ResolvedParams {
        guard let json else { return defaults }
        return try resolve(try ParamOverrides(json: json))
    }
}

extension LuaTableWriter {
    /// Sets `key` to the resolved params, as a table of their names.
    package mutating func set(_ key: LuaKey, params: ResolvedParams) {
        set(key, fields: params.values.map { ($0.name, $0.value.luaValue) })
    }
}
