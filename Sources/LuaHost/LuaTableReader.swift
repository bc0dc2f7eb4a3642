import CLua
import CLuaSupport

/// Reads a table a rule returned into Swift, field by field, with the same strictness and
/// messages as `LuaDecoder` (field path, expected type, unknown keys with a suggestion).
public struct LuaTableReader {
    /// The host, for the slow paths only: calling through it costs reference counting.
    unowned(unsafe) let host: LuaHost
    let L: OpaquePointer
    let index: Int32
    /// The path of this table, for messages (`""` at the top).
    public let path: String
    var present = 0
    let askedStart: Int

    init(host: LuaHost, index: Int32, path: String) {
        self.host = host
        self.L = host.L
        self.index = index
        self.path = path
        self.askedStart = host.hot.askedCount
    }

    /// Pushes the field's value and returns its Lua type.
    @inline(__always)
    private mutating func fetch(_ key: LuaKey) -> Int32 {
        var reference = host.hot.reference(of: key.id)
        if reference == 0 { reference = host.internKey(key) }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(reference))
        let type = lua_rawget(L, index)
        let seen = host.hot.ask(Int(reference), since: askedStart)
        if type != LUA_TNIL, !seen { present += 1 }
        return type
    }

    func fieldPath(_ key: LuaKey) -> String {
        var p = path
        LuaPath.append(key.name, to: &p)
        return p
    }

    func mismatch(_ key: LuaKey, expected: String) -> LuaError {
        let found = (try? host.value(at: -1)).map(\.errorDescription) ?? "an unreadable value"
        return LuaError(kind: .decoding, path: fieldPath(key), message: "expected \(expected), found \(found)")
    }

    func missing(_ key: LuaKey) -> LuaError {
        LuaError(kind: .decoding, path: fieldPath(key), message: "required field is missing")
    }

    // MARK: Fields

    public mutating func optionalInt(_ key: LuaKey) throws -> Int? {
        let type = fetch(key)
        defer { clua_pop(L, 1) }
        if type == LUA_TNIL { return nil }
        if type == LUA_TNUMBER {
            var isInteger: Int32 = 0
            let i = lua_tointegerx(L, -1, &isInteger)
            if isInteger != 0, let exact = Int(exactly: i) { return exact }
        }
        throw mismatch(key, expected: "an integer")
    }

    public mutating func int(_ key: LuaKey) throws -> Int {
        guard let v = try optionalInt(key) else { throw missing(key) }
        return v
    }

    public mutating func optionalDouble(_ key: LuaKey) throws -> Double? {
        let type = fetch(key)
        defer { clua_pop(L, 1) }
        if type == LUA_TNIL { return nil }
        if type == LUA_TNUMBER {
            let d = clua_tonumber(L, -1)
            if d.isFinite { return d }
        }
        throw mismatch(key, expected: "a finite number")
    }

    public mutating func double(_ key: LuaKey) throws -> Double {
        guard let v = try optionalDouble(key) else { throw missing(key) }
        return v
    }

    public mutating func optionalBool(_ key: LuaKey) throws -> Bool? {
        let type = fetch(key)
        defer { clua_pop(L, 1) }
        if type == LUA_TNIL { return nil }
        if type == LUA_TBOOLEAN { return lua_toboolean(L, -1) != 0 }
        throw mismatch(key, expected: "a boolean")
    }

    public mutating func bool(_ key: LuaKey) throws -> Bool {
        guard let v = try optionalBool(key) else { throw missing(key) }
        return v
    }

    public mutating func optionalString(_ key: LuaKey) throws -> String? {
        let type = fetch(key)
        defer { clua_pop(L, 1) }
        if type == LUA_TNIL { return nil }
        if type == LUA_TSTRING {
            return try host.string(at: -1, path: fieldPath(key))
        }
        throw mismatch(key, expected: "a string")
    }

    public mutating func string(_ key: LuaKey) throws -> String {
        guard let v = try optionalString(key) else { throw missing(key) }
        return v
    }

    /// A field whose value is one of the cases of a string enum.
    public mutating func optionalEnum<E: RawRepresentable & CaseIterable>(_ key: LuaKey, _ type: E.Type) throws -> E?
    where E.RawValue == String {
        guard let raw = try optionalString(key) else { return nil }
        guard let value = E(rawValue: raw) else {
            let cases = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw LuaError(kind: .decoding, path: fieldPath(key), message: "expected one of \(cases), found string \"\(raw)\"")
        }
        return value
    }

    public mutating func `enum`<E: RawRepresentable & CaseIterable>(_ key: LuaKey, _ type: E.Type) throws -> E
    where E.RawValue == String {
        guard let v = try optionalEnum(key, type) else { throw missing(key) }
        return v
    }

    /// Any field, as a `LuaValue`.
    public mutating func value(_ key: LuaKey) throws -> LuaValue {
        _ = fetch(key)
        defer { clua_pop(L, 1) }
        return try host.value(at: -1, path: fieldPath(key))
    }

    /// A nested table read as `T` (nil when absent).
    public mutating func optionalRecord<T: LuaTableDecodable>(_ key: LuaKey, _ type: T.Type) throws -> T? {
        let kind = fetch(key)
        defer { clua_pop(L, 1) }
        if kind == LUA_TNIL { return nil }
        guard kind == LUA_TTABLE else { throw mismatch(key, expected: "a table") }
        return try host.readRecord(type, at: lua_gettop(L), path: fieldPath(key))
    }

    public mutating func record<T: LuaTableDecodable>(_ key: LuaKey, _ type: T.Type) throws -> T {
        guard let v = try optionalRecord(key, type) else { throw missing(key) }
        return v
    }

    /// A list of tables, each read as `T` (empty when absent).
    public mutating func records<T: LuaTableDecodable>(_ key: LuaKey, _ type: T.Type) throws -> [T] {
        try optionalRecords(key, type) ?? []
    }

    /// A list of tables, each read as `T` (nil when absent).
    public mutating func optionalRecords<T: LuaTableDecodable>(_ key: LuaKey, _ type: T.Type) throws -> [T]? {
        let kind = fetch(key)
        defer { clua_pop(L, 1) }
        if kind == LUA_TNIL { return nil }
        guard kind == LUA_TTABLE else { throw mismatch(key, expected: "a list of tables") }
        rr_push_contents(L, -1)  // a frozen rule table is read through to its contents
        clua_replace(L, -2)
        let list = lua_gettop(L)
        let count = try host.sequenceLength(at: list, path: fieldPath(key))
        var out: [T] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            let elementPath = fieldPath(key) + "[\(i + 1)]"
            guard lua_rawgeti(L, list, lua_Integer(i + 1)) == LUA_TTABLE else {
                let found = (try? host.value(at: -1))?.errorDescription ?? "?"
                throw LuaError(kind: .decoding, path: elementPath, message: "expected a table, found \(found)")
            }
            out.append(try host.readRecord(type, at: lua_gettop(L), path: elementPath))
            clua_pop(L, 1)
        }
        return out
    }

    /// A list of strings (empty when absent).
    public mutating func strings(_ key: LuaKey) throws -> [String] {
        let kind = fetch(key)
        defer { clua_pop(L, 1) }
        if kind == LUA_TNIL { return [] }
        guard kind == LUA_TTABLE else { throw mismatch(key, expected: "a list of strings") }
        rr_push_contents(L, -1)  // a frozen rule table is read through to its contents
        clua_replace(L, -2)
        let list = lua_gettop(L)
        let count = try host.sequenceLength(at: list, path: fieldPath(key))
        var out: [String] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            defer { clua_pop(L, 1) }
            guard lua_rawgeti(L, list, lua_Integer(i + 1)) == LUA_TSTRING else {
                let found = (try? host.value(at: -1))?.errorDescription ?? "?"
                throw LuaError(kind: .decoding, path: fieldPath(key) + "[\(i + 1)]", message: "expected a string, found \(found)")
            }
            out.append(try host.string(at: -1, path: fieldPath(key) + "[\(i + 1)]"))
        }
        return out
    }
}

extension LuaHost {
    /// Reads the table at `index` as `T`, then rejects keys `T` did not read. Inlinable, as the
    /// record calls that use it: `T(from:)` is then a direct call in the caller's module, not one
    /// through a witness table with the record's metadata.
    @inlinable
    func readRecord<T: LuaTableDecodable>(_ type: T.Type, at index: Int32, path: String) throws -> T {
        var reader = beginRecord(at: index, path: path)
        defer { endRecord(reader) }
        let record = try T(from: &reader)
        try checkAllRead(reader)
        return record
    }

    /// Starts reading the table at `index` (`readRecord`): its contents pushed (a frozen rule
    /// table is read through), in host mode.
    @usableFromInline
    func beginRecord(at index: Int32, path: String) -> LuaTableReader {
        runtime.pointee.host_depth += 1
        rr_push_contents(L, index)
        return LuaTableReader(host: self, index: lua_gettop(L), path: path)
    }

    /// Ends `readRecord`: forgets the keys its reader asked for, pops the contents, leaves host mode.
    @usableFromInline
    func endRecord(_ reader: LuaTableReader) {
        hot.unwind(to: reader.askedStart)
        lua_settop(L, reader.index - 1)
        runtime.pointee.host_depth -= 1
    }

    /// Rejects the keys of the reader's table that it did not ask for.
    @usableFromInline
    func checkAllRead(_ reader: LuaTableReader) throws {
        var total = 0
        lua_pushnil(L)
        while lua_next(L, reader.index) != 0 {
            total += 1
            clua_pop(L, 1)
        }
        if total != reader.present { try rejectUnknownKeys(in: reader.index, reader: reader) }
    }

    private func rejectUnknownKeys(in table: Int32, reader: LuaTableReader) throws {
        let asked = hot.asked(since: reader.askedStart).compactMap { reference in keyNames[reference] }
        var unknown: [LuaValue] = []
        lua_pushnil(L)
        while lua_next(L, table) != 0 {
            let key = (try? value(at: -2)) ?? .nil
            if case .string(let name) = key, asked.contains(name) {} else { unknown.append(key) }
            clua_pop(L, 1)
        }
        unknown.sort(by: LuaTable.keyOrder)
        guard let first = unknown.first else { return }
        var path = reader.path
        LuaPath.append(first, to: &path)
        throw LuaError(
            kind: .decoding, path: path,
            message: LuaPath.unknownFieldMessage(first, others: unknown.dropFirst(), known: asked))
    }

    /// The length of the sequence at `index`, checking that its keys are exactly 1…n.
    func sequenceLength(at index: Int32, path: String) throws -> Int {
        let n = Int(lua_rawlen(L, index))
        var total = 0
        lua_pushnil(L)
        while lua_next(L, index) != 0 {
            total += 1
            clua_pop(L, 1)
        }
        guard total == n else {
            throw LuaError(
                kind: .decoding, path: path, message: "expected a list (keys 1, 2, … with no gaps), found a table with other keys")
        }
        return n
    }

    // MARK: Calling with records

    /// Pushes a record argument: the pooled table of `slot` in the outermost call, else a fresh one.
    @inlinable
    func pushArgument<T: LuaTableEncodable>(_ record: T, slot: Int, pooled: Bool) {
        if pooled {
            pushPooled(record, slot: slot)
            checkReused("argument \(slot + 1) (a pooled \(T.self))") { pushFreshArgument(record) }
        } else {
            pushFreshArgument(record)
        }
    }

    /// Pushes a fresh read-only table filled by `record`.
    @inlinable
    func pushFreshArgument<T: LuaTableEncodable>(_ record: T) {
        var writer = LuaTableWriter(host: self, index: pushInputTable(fieldCount: T.luaFieldCount))
        record.encode(to: &writer)
    }

    /// Runs the call whose `arguments` are pushed above the handler and function `beginCall` pushed,
    /// and reads its one result as `R`; errors in the result name the function.
    @inlinable
    func recordResult<R: LuaTableDecodable>(of function: LuaFunction, _: R.Type, arguments: Int32, call: EnteredCall) throws -> R {
        let result = try runRecordCall(function, arguments: arguments, call: call)
        do {
            return try readRecord(R.self, at: result, path: "")
        } catch {
            throw resultError(error, of: function)
        }
    }

    /// `recordResult`'s call: runs it (leaving host mode) and checks that it returned a table, whose
    /// stack index it returns.
    @usableFromInline
    func runRecordCall(_ function: LuaFunction, arguments: Int32, call: EnteredCall) throws -> Int32 {
        leaveHostMode()
        _ = try pcallRule(function, nargs: arguments, nresults: 1, handlerPushed: true)
        let result = call.top + 2  // above the handler
        guard lua_type(L, result) == LUA_TTABLE else {
            let found = (try? hostMode { try value(at: result) })?.errorDescription ?? "?"
            throw LuaError(
                kind: .decoding, file: function.source, line: function.line,
                message: "the function returned \(found) where a table was expected")
        }
        return result
    }

    /// An error reading the table `function` returned, naming the function.
    @usableFromInline
    func resultError(_ error: Error, of function: LuaFunction) -> Error {
        guard var error = error as? LuaError, error.file == nil else { return error }
        error.file = function.source
        error.line = function.line
        error.message = "in the table returned by the function at line \(function.line): " + error.message
        return error
    }
}
