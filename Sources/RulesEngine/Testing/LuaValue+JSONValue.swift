import LuaHost
import RulesModel

extension LuaValue {
    /// The Lua value of a JSON value, as a rule function is given one: an object is a table of
    /// its members that are not null, a list a sequence, null nil.
    package init(json: JSONValue) {
        switch json {
        case .null: self = .nil
        case .bool(let b): self = .boolean(b)
        case .int(let i): self = .integer(Int64(i))
        case .double(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .table(LuaTable(sequence: items.map(LuaValue.init(json:))))
        case .object(let members):
            var table = LuaTable()
            for (key, value) in members { table[.string(key)] = LuaValue(json: value) }
            self = .table(table)
        }
    }
}
