/// The fields of a record that a rule read, each by its position in the record's `luaViewKeys`
/// (`View`, `LuaReadAnswer`). `all` when the host cannot tell them apart: the rule looped over
/// the record (`pairs`, `next`, `#`, `rawget`), read a field the record does not declare, or drew from
/// `math.random` (its answer may then differ with the same fields).
public struct LuaFieldReads: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let all = LuaFieldReads(rawValue: .max)
    /// The field at `position` of `luaViewKeys` (0…62).
    public static func field(_ position: Int) -> LuaFieldReads { LuaFieldReads(rawValue: 1 << UInt64(position)) }
}

/// A record that rules read as a view: the host learns which of its fields a call read, so that an
/// answer can be remembered for every record that agrees on those fields (`LuaFieldReads`).
public protocol LuaTableViewable: LuaTableEncodable {
    /// Every key `encode(to:)` may write, at most 63: a field's bit is its position here.
    static var luaViewKeys: [LuaKey] { get }
}

/// A record compared by value whose tables the host keeps between calls: the records of a history
/// (`History`) and of a kept list (`KeptList`).
/// The tables it nests through `LuaTableWriter.set(_:record:)`, `set(_:records:)`, `set(_:list:)`
/// and `set(_:fields:)` are kept tables too; a `LuaValue` table (`set(_:_:)`) would not be, and
/// a rule's change to it would be seen by the next call: a kept record does not write one.
public protocol LuaKeptRecord: LuaTableEncodable, Equatable {}
