import Synchronization

/// Key ids by name. Two keys with the same name must have the same id: a pooled argument table
/// clears the keys of its previous fill by id, and would otherwise erase a field that another type
/// had just written under the same name (`CheckInArgument.result` and `PressureDay.result`).
private let keyIDs = Mutex<[String: Int]>([:])

/// A field name used on the hot path between Swift and Lua. Each host interns the name once and
/// then pushes it without hashing; keys with the same name are the same key. Declare keys as static
/// constants:
///
///     enum Keys { static let tier = LuaKey("current_tier") }
public struct LuaKey: Sendable, Hashable, CustomStringConvertible {
    let id: Int
    /// A static string keeps the key a trivial value: no reference counting on the hot path.
    let staticName: StaticString

    public init(_ name: StaticString) {
        self.staticName = name
        self.id = keyIDs.withLock { ids in
            if let id = ids[name.description] { return id }
            let id = ids.count + 1
            ids[name.description] = id
            return id
        }
    }

    public var name: String { staticName.description }
    public var description: String { name }
    public static func == (a: LuaKey, b: LuaKey) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A Swift type that goes to Lua as a table, field by field (the fast path of rule calls).
public protocol LuaTableEncodable {
    /// How many fields the table usually has (sizes the table once).
    static var luaFieldCount: Int { get }
    func encode(to table: inout LuaTableWriter)
}

extension LuaTableEncodable {
    public static var luaFieldCount: Int { 8 }
}

/// A Swift type read from a table a rule returns, field by field (the fast path of rule calls).
/// Keys it does not read are rejected as unknown.
public protocol LuaTableDecodable: LuaCallResult {
    init(from table: inout LuaTableReader) throws
}
