import CLua
import CLuaSupport

/// Fills a fresh Lua table from Swift. Runs in host mode: nothing here can raise.
public struct LuaTableWriter {
    /// The host, for the slow paths only: calling through it costs reference counting.
    unowned(unsafe) let host: LuaHost
    let L: OpaquePointer
    let hot: UnsafeMutablePointer<HotPathStorage>
    let index: Int32
    /// For a pooled argument table: where the written keys are recorded.
    let pool: UnsafeMutablePointer<PooledTable>?

    init(host: LuaHost, index: Int32, pool: UnsafeMutablePointer<PooledTable>? = nil) {
        self.host = host
        self.L = host.L
        self.hot = host.hot
        self.index = index
        self.pool = pool
    }

    private func store() { lua_rawset(L, index) }

    @inline(__always)
    private func pushKey(_ key: LuaKey) {
        var reference = hot.pointee.reference(of: key.id)
        if reference == 0 { reference = host.internKey(key) }
        if let pool { pool.pointee.record(Int(reference)) }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(reference))
    }

    public mutating func set(_ key: LuaKey, _ value: Int) {
        pushKey(key); lua_pushinteger(L, lua_Integer(value)); store()
    }
    public mutating func set(_ key: LuaKey, _ value: Int64) {
        pushKey(key); lua_pushinteger(L, value); store()
    }
    public mutating func set(_ key: LuaKey, _ value: Double) {
        pushKey(key); lua_pushnumber(L, value); store()
    }
    public mutating func set(_ key: LuaKey, _ value: Bool) {
        pushKey(key); lua_pushboolean(L, value ? 1 : 0); store()
    }
    public mutating func set(_ key: LuaKey, _ value: String) {
        pushKey(key); host.pushString(value); store()
    }
    /// Sets the field when the value is present; leaves it nil otherwise.
    public mutating func set(_ key: LuaKey, _ value: Int?) { if let value { set(key, value) } }
    public mutating func set(_ key: LuaKey, _ value: String?) { if let value { set(key, value) } }
    public mutating func set(_ key: LuaKey, _ value: Double?) { if let value { set(key, value) } }
    public mutating func set(_ key: LuaKey, _ value: Bool?) { if let value { set(key, value) } }

    public mutating func set(_ key: LuaKey, _ value: LuaValue) throws {
        pushKey(key); try host.push(value); store()
    }
    public mutating func set<T: LuaTableEncodable>(_ key: LuaKey, record: T) {
        pushKey(key); host.pushRecord(record); store()
    }
    public mutating func set<T: LuaTableEncodable>(_ key: LuaKey, records: [T]) {
        pushKey(key)
        lua_createtable(L, Int32(clamping: records.count), 0)
        var i = 0
        while i < records.count {
            host.pushRecord(records[i])
            lua_rawseti(L, -2, lua_Integer(i + 1))
            i += 1
        }
        store()
    }
    /// Sets `key` to a table of named scalars whose names are not known in advance (a rule file's
    /// own params). Booleans, integers, numbers and strings only; other values are left out.
    public mutating func set(_ key: LuaKey, fields: [(name: String, value: LuaValue)]) {
        pushKey(key)
        lua_createtable(L, 0, Int32(clamping: fields.count))
        for (name, value) in fields {
            switch value {
            case .boolean(let b): host.pushString(name); lua_pushboolean(L, b ? 1 : 0)
            case .integer(let i): host.pushString(name); lua_pushinteger(L, i)
            case .number(let d): host.pushString(name); lua_pushnumber(L, d)
            case .string(let s): host.pushString(name); host.pushString(s)
            default: continue
            }
            lua_rawset(L, -3)
        }
        store()
    }
    public mutating func set(_ key: LuaKey, list: [Int]) {
        pushKey(key)
        lua_createtable(L, Int32(clamping: list.count), 0)
        for (i, v) in list.enumerated() { lua_pushinteger(L, lua_Integer(v)); lua_rawseti(L, -2, lua_Integer(i + 1)) }
        store()
    }
    public mutating func set(_ key: LuaKey, list: [String]) {
        pushKey(key)
        lua_createtable(L, Int32(clamping: list.count), 0)
        for (i, v) in list.enumerated() { host.pushString(v); lua_rawseti(L, -2, lua_Integer(i + 1)) }
        store()
    }
}

extension LuaHost {
    /// Pushes an interned key: one registry lookup (interned on first use).
    @inline(__always)
    func pushKey(_ key: LuaKey) {
        var reference = hot.pointee.reference(of: key.id)
        if reference == 0 { reference = internKey(key) }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(reference))
    }

    /// Interns a key and returns its registry reference (keys with the same name have the same id,
    /// so they share one reference).
    @discardableResult
    func internKey(_ key: LuaKey) -> Int32 {
        _ = lua_pushlstring(
            L, UnsafeRawPointer(key.staticName.utf8Start).assumingMemoryBound(to: CChar.self),
            key.staticName.utf8CodeUnitCount)
        let reference = luaL_ref(L, clua_registryindex())
        keyNames[Int(reference)] = key.name
        hot.pointee.setReference(reference, of: key.id)
        return reference
    }

    /// Calls a rule function whose one argument is a list of records (a Lua sequence of tables),
    /// built straight from Swift values through interned keys; returns the function's results.
    /// The list and its tables are read-only for the rule, as record arguments are; the outermost
    /// call reuses them between calls (see `PooledList`).
    public func call<T: LuaTableEncodable>(_ function: LuaFunction, list items: [T]) throws -> [LuaValue] {
        try callWithOneArgument(function) { pooled in pushList(items, pooled: pooled) }
    }

    /// Calls a rule function whose arguments are a list of records and one record (as
    /// `call(_:list:)` and `call(_:record:)` build them), and returns its results.
    public func call<T: LuaTableEncodable, B: LuaTableEncodable>(_ function: LuaFunction, list items: [T], _ b: B) throws -> [LuaValue] {
        try callWithArguments(function, count: 2) { pooled in
            pushList(items, pooled: pooled)
            pushArgument(b, slot: 1, pooled: pooled)
        }
    }

    /// Pushes a list of records: the pooled list in the outermost call, else fresh tables.
    func pushList<T: LuaTableEncodable>(_ items: [T], pooled: Bool) {
        if pooled {
            pushPooledList(items)
        } else {
            rr_push_input_table(L, 0)
            var i = 0
            while i < items.count {
                rr_push_input_table(L, Int32(clamping: T.luaFieldCount))
                var writer = LuaTableWriter(host: self, index: lua_gettop(L))
                items[i].encode(to: &writer)
                lua_rawseti(L, -2, lua_Integer(i + 1))
                i += 1
            }
        }
    }

    /// Calls a function with one record argument (read-only, pooled by the outermost call, as in
    /// `call(_:_:returning:)`) and returns its results as values, whatever they are.
    public func call<A: LuaTableEncodable>(_ function: LuaFunction, record a: A) throws -> [LuaValue] {
        try callWithOneArgument(function) { pooled in pushArgument(a, slot: 0, pooled: pooled) }
    }

    /// Calls a rule function whose one argument is a list of records of one integer field `field`
    /// (`{ {exits = 2}, {exits = 0}, … }`), as `call(_:list:)` does, filled in C.
    public func call(_ function: LuaFunction, records values: [Int], field: LuaKey) throws -> [LuaValue] {
        try callWithOneArgument(function) { pooled in
            let pool: PooledList
            if pooled, let known = fieldListPools[field.id] {
                pool = known
            } else {
                pool = makePooledList()
                if pooled { fieldListPools[field.id] = pool }
            }
            lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.list))
            let list = lua_gettop(L)
            lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.elements))
            pushKey(field)
            values.map(Int64.init).withUnsafeBufferPointer {
                rr_fill_int_records(L, list, list + 1, $0.baseAddress, Int32(clamping: $0.count), Int32(clamping: pool.count))
            }
            pool.count = values.count
            lua_settop(L, list)
            if !pooled {
                luaL_unref(L, clua_registryindex(), pool.list)
                luaL_unref(L, clua_registryindex(), pool.elements)
            }
        }
    }

    /// `call(_:record:)`'s first result (nil when the function returns nothing), for a rule that
    /// answers with one value: no array is made for it.
    public func callFirst<A: LuaTableEncodable>(_ function: LuaFunction, record a: A) throws -> LuaValue {
        try callWithArguments(function, count: 1, { pooled in pushArgument(a, slot: 0, pooled: pooled) }) { n, first in
            try firstResult(count: n, from: first, file: function.source, of: function)
        }
    }

    /// `call(_:list:_:)`'s first result (nil when the function returns nothing), without an array.
    public func callFirst<T: LuaTableEncodable, B: LuaTableEncodable>(_ function: LuaFunction, list items: [T], _ b: B) throws -> LuaValue {
        try callWithArguments(
            function, count: 2,
            { pooled in
                pushList(items, pooled: pooled)
                pushArgument(b, slot: 1, pooled: pooled)
            }
        ) { n, first in try firstResult(count: n, from: first, file: function.source, of: function) }
    }

    /// Calls `function` with the one argument `push` pushes (in host mode; `pooled` is true for the
    /// outermost call, which may reuse pooled tables) under the call budget, and returns its results.
    @inline(__always)
    private func callWithOneArgument(_ function: LuaFunction, _ push: (_ pooled: Bool) throws -> Void) throws -> [LuaValue] {
        try callWithArguments(function, count: 1, push)
    }

    /// Calls `function` with the `count` arguments `push` pushes, as `callWithOneArgument` does.
    @inline(__always)
    private func callWithArguments(_ function: LuaFunction, count: Int32, _ push: (_ pooled: Bool) throws -> Void) throws -> [LuaValue] {
        try callWithArguments(function, count: count, push) { n, first in
            try results(count: n, from: first, file: function.source, of: function)
        }
    }

    /// The same, the results (their count and the stack index of the first) converted by `convert`.
    @inline(__always)
    private func callWithArguments<Out>(
        _ function: LuaFunction, count: Int32, _ push: (_ pooled: Bool) throws -> Void,
        convert: (_ count: Int32, _ first: Int32) throws -> Out
    ) throws -> Out {
        try enteringCall(stackSlots: 8) { pooled, top in
            try hostMode {
                try pushFunction(function)
                try push(pooled)
            }
            let n = try pcallRule(function, nargs: count, nresults: clua_multret())
            return try convert(n, top + 1)
        }
    }

    /// Runs a call from Swift: `body` gets whether it is the outermost call (which may reuse pooled
    /// tables) and the stack top before it; the stack is restored to that top afterwards.
    @inline(__always)
    func enteringCall<T>(stackSlots: Int32, _ body: (_ pooled: Bool, _ top: Int32) throws -> T) throws -> T {
        let top = lua_gettop(L)
        let pooled = hot.pointee.callDepth == 0
        hot.pointee.callDepth += 1
        defer {
            hot.pointee.callDepth -= 1
            lua_settop(L, top)
        }
        guard lua_checkstack(L, stackSlots) != 0 else { throw stackError() }
        return try body(pooled, top)
    }

    /// A new pooled list: its list table and the hidden sequence of its element tables, both held
    /// in the registry.
    private func makePooledList() -> PooledList {
        let pool = PooledList()
        rr_push_input_table(L, 0)
        pool.list = luaL_ref(L, clua_registryindex())
        lua_createtable(L, 0, 0)
        pool.elements = luaL_ref(L, clua_registryindex())
        return pool
    }

    /// Pushes the pooled list of `T`s, refilled from `items`: each element table as `pushPooled`
    /// refills an argument table, the list's slots set again (a rule may have changed them), and
    /// the slots beyond `items` (left from a longer list) cleared.
    private func pushPooledList<T: LuaTableEncodable>(_ items: [T]) {
        let pool: PooledList
        if let known = listPools[ObjectIdentifier(T.self)] {
            pool = known
        } else {
            pool = makePooledList()
            listPools[ObjectIdentifier(T.self)] = pool
        }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.list))
        let list = lua_gettop(L)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.elements))
        let elements = lua_gettop(L)
        while pool.fills.count < items.count {
            rr_push_input_table(L, Int32(clamping: T.luaFieldCount))
            lua_rawseti(L, elements, lua_Integer(pool.fills.count + 1))
            pool.fills.append(PooledTable())
        }
        // Index loops: this runs unspecialized, where `enumerated()` would look up tuple metadata per item.
        pool.fills.withUnsafeMutableBufferPointer { fills in
            var i = 0
            while i < items.count {
                lua_rawgeti(L, elements, lua_Integer(i + 1))
                refill(lua_gettop(L), from: items[i], keys: fills.baseAddress! + i)
                lua_rawseti(L, list, lua_Integer(i + 1))
                i += 1
            }
        }
        for i in items.count..<max(items.count, pool.count) {
            lua_pushnil(L)
            lua_rawseti(L, list, lua_Integer(i + 1))
        }
        pool.count = items.count
        lua_settop(L, list)
    }

    /// Pushes a fresh table filled by `record`.
    func pushRecord<T: LuaTableEncodable>(_ record: T) {
        lua_createtable(L, 0, Int32(clamping: T.luaFieldCount))
        var writer = LuaTableWriter(host: self, index: lua_gettop(L))
        record.encode(to: &writer)
    }

    /// Pushes the pooled argument table of position `slot`, refilled from `record`. Reusing it
    /// saves creating and collecting a table per call. It is read-only for rules (new keys,
    /// `rawset` and `setmetatable` are refused), and keys the previous fill wrote but this one
    /// does not are cleared, so nothing of one call is seen by the next.
    func pushPooled<T: LuaTableEncodable>(_ record: T, slot: Int) {
        let pool = hot.pointee.pools + slot
        if pool.pointee.reference == 0 {
            rr_push_input_table(L, Int32(clamping: T.luaFieldCount))
            pool.pointee.reference = luaL_ref(L, clua_registryindex())
        }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.pointee.reference))
        refill(lua_gettop(L), from: record, keys: pool)
    }

    /// Writes `record` into the pooled table at stack index `table`, clearing the keys the
    /// previous fill (tracked in `keys`) wrote and this one does not.
    private func refill<T: LuaTableEncodable>(_ table: Int32, from record: T, keys: UnsafeMutablePointer<PooledTable>) {
        if keys.pointee.overflowed { clearTable(at: table) }
        keys.pointee.begin()
        var writer = LuaTableWriter(host: self, index: table, pool: keys)
        record.encode(to: &writer)
        if !keys.pointee.sameKeys() {
            for reference in keys.pointee.stale() {
                lua_rawgeti(L, clua_registryindex(), lua_Integer(reference))
                lua_pushnil(L)
                lua_rawset(L, table)
            }
        }
    }

    private func clearTable(at table: Int32) {
        lua_pushnil(L)
        while lua_next(L, table) != 0 {
            clua_pop(L, 1)
            lua_pushvalue(L, -1)
            lua_pushnil(L)
            lua_rawset(L, table)
        }
    }
}
