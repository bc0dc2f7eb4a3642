import CLua
import CLuaSupport

/// An argument of a rule call (`LuaHost.call(_:_:returning:)`) that states how the host may reuse
/// it from one call to the next: `Pooled`, `PooledList`, `View`, `History`, `Kept`, `KeptList`,
/// `FieldRecords`, or an `Int64` (pushed as is). Only the outermost call reuses anything, and only
/// as far as `LuaLimits.argumentReuse` allows; rules see the same arguments either way. The
/// conformances are the host's: each pushes its argument through the host's internals.
public protocol LuaArgument {
    /// Pushes the argument, the `slot`th (from 0) of `call`.
    func push(on host: LuaHost, slot: Int, _ call: EnteredCall)
}

/// What a rule call returns (`LuaHost.call(_:_:returning:)`): all its results (`[LuaValue]`), the
/// first (`LuaValue`, nil when there is none), a list of strings (`LuaStringsResult`), the first
/// with the fields of its views read (`LuaReadAnswer`), or a record (any `LuaTableDecodable`).
public protocol LuaCallResult {
    /// Whether the call runs under the traceback handler (a record result's: its errors name
    /// the function).
    static var luaCallHandler: Bool { get }
    /// Runs `call`, whose `arguments` are pushed, and reads its result.
    static func run(_ host: LuaHost, _ function: LuaFunction, arguments: Int32, _ call: EnteredCall) throws -> Self
}

extension LuaCallResult {
    public static var luaCallHandler: Bool { false }
}

extension LuaHost {
    /// Calls a rule function with `arguments`, each built as its type states, and reads its
    /// result as `R`. This is the fast path the engine uses for every event: specialized in the
    /// caller's module for its argument and result types, the arguments are filled and the result
    /// read without witness tables, metadata or an array of arguments. Record and list arguments
    /// are read-only for the rule; kept ones (a history, a kept list or record) are kept tables,
    /// which a rule may write into without the next call seeing it.
    @inlinable
    public func call<each A: LuaArgument, R: LuaCallResult>(
        _ function: LuaFunction, _ arguments: repeat each A, returning: R.Type = R.self
    ) throws -> R {
        let call = try beginCall(function, stackSlots: R.luaCallHandler ? 16 : 8, handler: R.luaCallHandler)
        defer { endCall(call) }
        var slot = 0
        for argument in repeat each arguments {
            argument.push(on: self, slot: slot, call)
            slot += 1
        }
        return try R.run(self, function, arguments: Int32(slot), call)
    }
}

/// A record in a pooled argument table: the outermost call refills the table of its position
/// and type (clearing the keys the previous fill wrote and this one does not).
public struct Pooled<T: LuaTableEncodable>: LuaArgument {
    @usableFromInline let record: T
    @inlinable public init(_ record: T) { self.record = record }
    @inlinable public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) {
        host.pushArgument(record, slot: slot, pooled: call.pooled)
    }
}

/// A list of records (a Lua sequence of read-only tables): the outermost call reuses the list and
/// its tables of the element type (`ListPool`), each table refilled as `Pooled` refills one.
public struct PooledList<T: LuaTableEncodable>: LuaArgument {
    @usableFromInline let items: [T]
    @inlinable public init(_ items: [T]) { self.items = items }
    @inlinable public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) {
        host.pushList(items, slot: slot, pooled: call.pooled)
    }
}

/// A record as a view (`LuaTableViewable`): with a `LuaReadAnswer` result, the host tells which
/// of its fields the rule read. The outermost call refills the view of its position and type.
public struct View<T: LuaTableViewable>: LuaArgument {
    @usableFromInline let record: T
    @inlinable public init(_ record: T) { self.record = record }
    @inlinable public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) {
        host.pushView(record, slot: slot, pooled: call.pooled)
    }
}

/// A history: records newest first, a list that grows at its head from one call to the next (a
/// task's periods). The host keeps its tables under `key` (a task's name) and writes again only
/// the records that differ from the previous call's at the same distance from the oldest, unless
/// a rule has written into a kept table since (then all of them).
public struct History<T: LuaKeptRecord>: LuaArgument {
    @usableFromInline let items: [T]
    @usableFromInline let key: String
    @inlinable public init(_ items: [T], key: String) { (self.items, self.key) = (items, key) }
    @inlinable public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) {
        guard call.kept else { return host.pushFreshKept(items) }
        host.pushKept(items, key: key, byAge: true)
        host.checkReused("argument \(slot + 1) (the history of \(T.self) under \"\(key)\")") { host.pushFreshKept(items) }
    }
}

/// A kept list: as a history, its tables kept by their position instead, one list per record
/// type (the modes of `effective_mode`, the same for many calls in a row).
public struct KeptList<T: LuaKeptRecord>: LuaArgument {
    @usableFromInline let items: [T]
    @inlinable public init(_ items: [T]) { self.items = items }
    @inlinable public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) {
        guard call.kept else { return host.pushFreshKept(items) }
        host.pushKept(items, key: nil, byAge: false)
        host.checkReused("argument \(slot + 1) (the kept list of \(T.self))") { host.pushFreshKept(items) }
    }
}

/// A kept record, under `key` (a record that goes with a history, such as its task; nil: one for
/// the record type): its table is written again only when the record differs from the previous
/// call's under that key, or a rule has written into a kept table since.
public struct Kept<T: LuaKeptRecord>: LuaArgument {
    @usableFromInline let record: T
    @usableFromInline let key: String?
    @inlinable public init(_ record: T, key: String? = nil) { (self.record, self.key) = (record, key) }
    @inlinable public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) {
        guard call.kept else { return host.pushFreshKept(record: record) }
        host.pushKeptRecord(record, key: key)
        host.checkReused("argument \(slot + 1) (the kept \(T.self)\(key.map { " under \"\($0)\"" } ?? ""))") {
            host.pushFreshKept(record: record)
        }
    }
}

/// A list of records of the one integer field `field` (`{ {exits = 2}, {exits = 0}, … }`), kept
/// by field and filled in C.
public struct FieldRecords: LuaArgument {
    @usableFromInline let values: [Int]
    @usableFromInline let field: LuaKey
    public init(_ values: [Int], field: LuaKey) { (self.values, self.field) = (values, field) }
    public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) { host.pushFieldRecords(values, field: field, slot: slot, call) }
}

extension Int64: LuaArgument {
    @inlinable public func push(on host: LuaHost, slot: Int, _ call: EnteredCall) { host.pushInteger(self) }
}

extension Array: LuaCallResult where Element == LuaValue {
    @inlinable
    public static func run(_ host: LuaHost, _ function: LuaFunction, arguments: Int32, _ call: EnteredCall) throws -> [LuaValue] {
        try host.runCall(function, arguments: arguments, call: call)
    }
}

extension LuaValue: LuaCallResult {
    @inlinable
    public static func run(_ host: LuaHost, _ function: LuaFunction, arguments: Int32, _ call: EnteredCall) throws -> LuaValue {
        try host.runCallFirst(function, arguments: arguments, call: call)
    }
}

/// A list of strings (`reminder_times(tier, window)`): read without converting it to a
/// `LuaValue` (charged to the call as that conversion is) when it is a list of UTF-8 strings;
/// otherwise the first result converted (for the caller's message).
public enum LuaStringsResult: LuaCallResult {
    case strings([String])
    case other(LuaValue)

    @inlinable
    public static func run(_ host: LuaHost, _ function: LuaFunction, arguments: Int32, _ call: EnteredCall) throws -> Self {
        try host.runCallForStrings(function, arguments: arguments, call: call)
    }
}

/// The first result (nil when there is none) and the fields of the call's views the rule read.
/// Reads of views in calls nested in this one count for it too (which only remembers less).
public struct LuaReadAnswer: LuaCallResult {
    public let value: LuaValue
    public let reads: LuaFieldReads
    @usableFromInline init(value: LuaValue, reads: LuaFieldReads) { (self.value, self.reads) = (value, reads) }

    @inlinable
    public static func run(_ host: LuaHost, _ function: LuaFunction, arguments: Int32, _ call: EnteredCall) throws -> Self {
        try host.runViewCall(function, arguments: arguments, call: call)
    }
}

extension LuaTableDecodable {
    public static var luaCallHandler: Bool { true }

    /// Reads the one result, a table, as `Self`; errors in it name the function.
    @inlinable
    public static func run(_ host: LuaHost, _ function: LuaFunction, arguments: Int32, _ call: EnteredCall) throws -> Self {
        try host.recordResult(of: function, Self.self, arguments: arguments, call: call)
    }
}
