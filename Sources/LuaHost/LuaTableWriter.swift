import CLua
import CLuaSupport

/// Fills a fresh Lua table from Swift. Runs in host mode: nothing here can raise.
public struct LuaTableWriter {
    /// The host, for the slow paths only: calling through it costs reference counting.
    unowned(unsafe) let host: LuaHost
    let L: OpaquePointer
    let index: Int32
    /// For a pooled argument table: where the written keys are recorded.
    let pool: UnsafeMutablePointer<PooledTable>?
    /// Whether the table is kept between calls (a history's, a kept list's): the tables nested in
    /// it are then kept tables too, whose writes the host counts, so that a rule's change to one is
    /// never seen by a later call.
    let kept: Bool

    @usableFromInline
    init(host: LuaHost, index: Int32, pool: UnsafeMutablePointer<PooledTable>? = nil, kept: Bool = false) {
        self.host = host
        self.L = host.L
        self.index = index
        self.pool = pool
        self.kept = kept
    }

    /// Pushes a nested table (a field's value): a plain one, or a kept one in a kept table; returns
    /// the stack index to fill it at (a kept table's contents, above it). `endNested` leaves the
    /// table itself on top.
    private func pushNested(arrays: Int, fields: Int) -> Int32 {
        if kept {
            rr_push_kept_table(L, Int32(clamping: arrays), Int32(clamping: fields))
            rr_push_contents(L, -1)
        } else {
            lua_createtable(L, Int32(clamping: arrays), Int32(clamping: fields))
        }
        return lua_gettop(L)
    }

    private func endNested() { if kept { clua_pop(L, 1) } }

    private func store() { lua_rawset(L, index) }

    @inline(__always)
    private func pushKey(_ key: LuaKey) {
        let reference = pushInterned(key)
        if let pool { pool.pointee.record(Int(reference)) }
    }

    /// Pushes the interned string of `key` (one registry lookup; interned on first use) and returns its reference.
    @inline(__always)
    private func pushInterned(_ key: LuaKey) -> Int32 {
        var reference = host.hot.reference(of: key.id)
        if reference == 0 { reference = host.internKey(key) }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(reference))
        return reference
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
    /// Sets `key` to the text of `text`, interned once per host as keys are: for values from a
    /// fixed set (an enumeration's raw values), pushed without a Swift string and without hashing.
    public mutating func set(_ key: LuaKey, text: LuaKey) {
        pushKey(key); _ = pushInterned(text); store()
    }
    /// Sets `key` to the text numbered `number` among the texts of `kind` (a day by its ordinal):
    /// the first time, `write` writes its UTF-8 bytes (at most 64) and returns how many; the host
    /// interns the string and keeps it (4,096 texts at most), so that the next time it is pushed
    /// without being written or hashed. Each kind numbers its texts its own way.
    public mutating func set(_ key: LuaKey, text number: Int, of kind: LuaKey, write: (UnsafeMutableRawBufferPointer) -> Int) {
        pushKey(key)
        host.pushText(number, of: kind, write: write)
        store()
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
        pushKey(key); pushRecord(record); store()
    }
    public mutating func set<T: LuaTableEncodable>(_ key: LuaKey, records: [T]) {
        pushKey(key)
        let list = pushNested(arrays: records.count, fields: 0)
        var i = 0
        while i < records.count {
            pushRecord(records[i])
            lua_rawseti(L, list, lua_Integer(i + 1))
            i += 1
        }
        endNested()
        store()
    }

    /// Pushes a nested table filled by `record`.
    private func pushRecord<T: LuaTableEncodable>(_ record: T) {
        var writer = LuaTableWriter(host: host, index: pushNested(arrays: 0, fields: T.luaFieldCount), kept: kept)
        record.encode(to: &writer)
        endNested()
    }
    /// Sets `key` to a table of named scalars whose names are not known in advance (a rule file's
    /// own params). Booleans, integers, numbers and strings only; other values are left out.
    /// While the host explains, the table reports the reads of its fields as params
    /// (`LuaCallTrace.Call.params`): a kept table whose reads go through a C function, which a rule
    /// may write into as into the plain table it gets otherwise.
    public mutating func set(_ key: LuaKey, fields: [(name: String, value: LuaValue)]) {
        pushKey(key)
        let traced = host.isExplaining
        let table: Int32
        if traced {
            rr_push_kept_table(L, 0, Int32(clamping: fields.count))
            rr_trace_params(L, -1, kept ? 0 : 1)
            rr_push_contents(L, -1)
            table = lua_gettop(L)
        } else {
            table = pushNested(arrays: 0, fields: fields.count)
        }
        for (name, value) in fields {
            switch value {
            case .boolean(let b): host.pushString(name); lua_pushboolean(L, b ? 1 : 0)
            case .integer(let i): host.pushString(name); lua_pushinteger(L, i)
            case .number(let d): host.pushString(name); lua_pushnumber(L, d)
            case .string(let s): host.pushString(name); host.pushString(s)
            default: continue
            }
            lua_rawset(L, table)
        }
        if traced { clua_pop(L, 1) } else { endNested() }
        store()
    }
    public mutating func set(_ key: LuaKey, list: [Int]) {
        pushKey(key)
        let table = pushNested(arrays: list.count, fields: 0)
        for i in list.indices { lua_pushinteger(L, lua_Integer(list[i])); lua_rawseti(L, table, lua_Integer(i + 1)) }
        endNested()
        store()
    }
    public mutating func set(_ key: LuaKey, list: [String]) {
        pushKey(key)
        let table = pushNested(arrays: list.count, fields: 0)
        for i in list.indices { host.pushString(list[i]); lua_rawseti(L, table, lua_Integer(i + 1)) }
        endNested()
        store()
    }
}

extension LuaHost {
    /// Pushes a kept text (`LuaTableWriter.set(_:text:of:write:)`): one registry lookup once kept.
    func pushText(_ number: Int, of kind: LuaKey, write: (UnsafeMutableRawBufferPointer) -> Int) {
        // The kind's id above the number's low 48 bits: never 0, since ids start at 1.
        let key = UInt64(truncatingIfNeeded: kind.id) << 48 | UInt64(truncatingIfNeeded: number) & 0xFFFF_FFFF_FFFF
        let kept = hot.text(key)
        if kept != 0 {
            lua_rawgeti(L, clua_registryindex(), lua_Integer(kept))
            checkReused(text: number, of: kind, write: write)
            return
        }
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
            let count = min(max(0, write(buffer)), buffer.count)
            _ = lua_pushlstring(L, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), count)
        }
        if limits.argumentReuse == .kept, hot.textCount < HotPathStorage.maxTexts {
            lua_pushvalue(L, -1)
            hot.keep(text: key, at: luaL_ref(L, clua_registryindex()))
        }
    }

    /// Pushes an interned key: one registry lookup (interned on first use).
    @inline(__always)
    func pushKey(_ key: LuaKey) {
        var reference = hot.reference(of: key.id)
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
        hot.setReference(reference, of: key.id)
        return reference
    }

    /// Pushes a list of records: the pooled list in the outermost call, else fresh tables.
    @usableFromInline
    func pushList<T: LuaTableEncodable>(_ items: [T], slot: Int, pooled: Bool) {
        if pooled {
            pushPooledList(items)
            checkReused("argument \(slot + 1) (the pooled list of \(T.self))") { pushFreshList(items) }
        } else {
            pushFreshList(items)
        }
    }

    /// Pushes a fresh read-only list of fresh read-only tables filled by `items`.
    func pushFreshList<T: LuaTableEncodable>(_ items: [T]) {
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

    /// Pushes a fresh kept list of fresh kept tables of the one field `field` (`FieldRecords`).
    func pushFreshRecords(_ values: [Int], field: LuaKey) {
        rr_push_kept_table(L, 0, 0)
        rr_push_contents(L, -1)
        let slots = lua_gettop(L)
        for (i, value) in values.enumerated() {
            rr_push_kept_table(L, 0, 1)
            rr_push_contents(L, -1)
            pushKey(field)
            lua_pushinteger(L, lua_Integer(value))
            lua_rawset(L, -3)
            clua_pop(L, 1)
            lua_rawseti(L, slots, lua_Integer(i + 1))
        }
        clua_pop(L, 1)
    }

    /// Pushes a list of records of one integer field `field` (`FieldRecords`): the kept list of
    /// the field in the outermost call, filled in C, else fresh tables.
    func pushFieldRecords(_ values: [Int], field: LuaKey, slot: Int, _ call: EnteredCall) {
        guard call.kept else { return pushFreshRecords(values, field: field) }
        let pool = hot.fieldListPool(field.id) { makePooledList(kept: true) }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.list))
        let list = lua_gettop(L)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.elements))
        pushKey(field)
        let integers = values.map(Int64.init)
        if pool.keptWritten != runtime.pointee.args_written { pool.keptIntegers = [] }
        integers.withUnsafeBufferPointer { values in
            pool.keptIntegers.withUnsafeBufferPointer { kept in
                rr_fill_int_records(
                    L, list, list + 1, values.baseAddress, Int32(clamping: values.count), Int32(clamping: pool.count),
                    kept.baseAddress, Int32(clamping: kept.count))
            }
        }
        pool.keptIntegers = integers
        pool.keptWritten = runtime.pointee.args_written
        pool.count = values.count
        lua_settop(L, list)
        checkReused("argument \(slot + 1) (the kept list of \(field.name) records)") { pushFreshRecords(values, field: field) }
    }

    /// Starts a call from Swift: checks the stack has `stackSlots` free, pushes the traceback handler
    /// when `handler` is true (see `pcall`'s `handlerPushed`) and the function, and enters host mode
    /// for the caller to push the arguments. The outermost call (`pooled`) may reuse pooled tables.
    /// `endCall` restores the stack.
    @usableFromInline
    func beginCall(_ function: LuaFunction, stackSlots: Int32, handler: Bool) throws -> EnteredCall {
        let top = lua_gettop(L)
        guard lua_checkstack(L, stackSlots) != 0 else { throw stackError() }
        let call = EnteredCall(top: top, reuse: hot.callDepth == 0 ? limits.argumentReuse : .none)
        hot.callDepth += 1
        runtime.pointee.host_depth += 1
        if handler { clua_pushcfunction(L, rr_traceback) }
        do {
            try pushFunction(function)
        } catch {
            runtime.pointee.host_depth -= 1
            endCall(call)
            throw error
        }
        return call
    }

    /// Ends a call `beginCall` started: the stack back to its top before the call.
    @usableFromInline
    func endCall(_ call: EnteredCall) {
        hot.callDepth -= 1
        lua_settop(L, call.top)
    }

    /// Leaves the host mode `beginCall` entered (once the arguments are pushed).
    @usableFromInline
    func leaveHostMode() { runtime.pointee.host_depth -= 1 }

    /// Runs the call whose `arguments` are pushed (leaving host mode) and returns its results.
    @usableFromInline
    func runCall(_ function: LuaFunction, arguments: Int32, call: EnteredCall) throws -> [LuaValue] {
        leaveHostMode()
        let n = try pcallRule(function, nargs: arguments, nresults: clua_multret())
        return try results(count: n, from: call.top + 1, file: function.source, of: function)
    }

    /// The same, returning the first result only (nil when there is none), without an array.
    @usableFromInline
    func runCallFirst(_ function: LuaFunction, arguments: Int32, call: EnteredCall) throws -> LuaValue {
        leaveHostMode()
        let n = try pcallRule(function, nargs: arguments, nresults: clua_multret())
        return try firstResult(count: n, from: call.top + 1, file: function.source, of: function)
    }

    /// The same for a `LuaStringsResult`.
    @usableFromInline
    func runCallForStrings(_ function: LuaFunction, arguments: Int32, call: EnteredCall) throws -> LuaStringsResult {
        leaveHostMode()
        let n = try pcallRule(function, nargs: arguments, nresults: clua_multret())
        if n == 1, let strings = try converting(file: function.source, of: function, { stringList(at: call.top + 1) }) {
            return .strings(strings)
        }
        return .other(try firstResult(count: n, from: call.top + 1, file: function.source, of: function))
    }

    /// The table at `index` as strings when it is a list (keys 1…n) of UTF-8 strings that `value(at:)`
    /// would convert, charged as it charges; nil, charging nothing, otherwise.
    private func stringList(at index: Int32) -> [String]? {
        guard lua_type(L, index) == LUA_TTABLE, lua_checkstack(L, 4) != 0 else { return nil }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        rr_push_contents(L, index)
        let table = lua_gettop(L)
        let count = Int(lua_rawlen(L, table))
        guard count <= limits.maxConvertedEntries else { return nil }
        var total = 0
        lua_pushnil(L)
        while lua_next(L, table) != 0 {
            total += 1
            clua_pop(L, 1)
            if total > count { return nil }
        }
        guard total == count else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(count)
        var i = 0
        while i < count {
            guard lua_rawgeti(L, table, lua_Integer(i + 1)) == LUA_TSTRING else { return nil }
            var length = 0
            guard let p = lua_tolstring(L, -1, &length),
                let text = String(validating: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self)
            else { return nil }
            strings.append(text)
            clua_pop(L, 1)
            i += 1
        }
        _ = rr_charge_host(runtime, Int64(count) * LuaHost.conversionCostPerEntry)
        return strings
    }

    /// Pushes an integer argument.
    @usableFromInline
    func pushInteger(_ value: Int64) { lua_pushinteger(L, value) }

    /// Pushes a fresh read-only argument table sized for `fieldCount` fields; returns its stack index.
    @usableFromInline
    func pushInputTable(fieldCount: Int) -> Int32 {
        rr_push_input_table(L, Int32(clamping: fieldCount))
        return lua_gettop(L)
    }

    /// A new pooled list: its list table and the hidden sequence of its element tables, both held
    /// in the registry.
    private func makePooledList(kept: Bool = false) -> ListPool {
        let pool = ListPool()
        if kept { rr_push_kept_table(L, 0, 0) } else { rr_push_input_table(L, 0) }
        pool.list = luaL_ref(L, clua_registryindex())
        lua_createtable(L, 0, 0)
        pool.elements = luaL_ref(L, clua_registryindex())
        return pool
    }

    /// Pushes the pooled list of `T`s, refilled from `items`: each element table as `pushPooled`
    /// refills an argument table, the list's slots set again (a rule may have changed them), and
    /// the slots beyond `items` (left from a longer list) cleared.
    private func pushPooledList<T: LuaTableEncodable>(_ items: [T]) {
        let pool = hot.listPool(ObjectIdentifier(T.self)) { makePooledList() }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.list))
        let list = lua_gettop(L)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.elements))
        let elements = lua_gettop(L)
        makeElements(pool, count: items.count, at: elements, fieldCount: T.luaFieldCount, kept: false)
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
        clearSlots(pool, from: items.count, in: list)
        lua_settop(L, list)
    }

    /// Makes the element tables `pool` lacks for `count` records, in its hidden sequence at
    /// `elements`: input tables, or kept tables (a history's, a kept list's or record's, counted in
    /// `HotPathStorage.maxHistoryTables`).
    private func makeElements(_ pool: ListPool, count: Int, at elements: Int32, fieldCount: Int, kept: Bool) {
        if kept { hot.countKeptTables(max(0, count - pool.fills.count)) }
        while pool.fills.count < count {
            if kept {
                rr_push_kept_table(L, 0, Int32(clamping: fieldCount))
            } else {
                rr_push_input_table(L, Int32(clamping: fieldCount))
            }
            lua_rawseti(L, elements, lua_Integer(pool.fills.count + 1))
            pool.fills.append(hot.makeTable())
        }
    }

    /// Clears the slots of the list table `slots` from `count` on that the previous fill set, and
    /// records `count` as the fill's length.
    private func clearSlots(_ pool: ListPool, from count: Int, in slots: Int32) {
        for i in count..<max(count, pool.count) {
            lua_pushnil(L)
            lua_rawseti(L, slots, lua_Integer(i + 1))
        }
        pool.count = count
    }

    /// Pushes `items` as a kept list is pushed (a kept table of kept tables, which a rule may
    /// write into), built fresh: what a call that keeps nothing passes for a history or a kept list.
    @usableFromInline
    func pushFreshKept<T: LuaTableEncodable>(_ items: [T]) {
        rr_push_kept_table(L, 0, 0)
        rr_push_contents(L, -1)
        let slots = lua_gettop(L)
        var i = 0
        while i < items.count {
            pushFreshKept(record: items[i])
            lua_rawseti(L, slots, lua_Integer(i + 1))
            i += 1
        }
        clua_pop(L, 1)
    }

    /// Pushes `record` as a kept record is pushed (a kept table, which a rule may write into),
    /// built fresh.
    @usableFromInline
    func pushFreshKept<T: LuaTableEncodable>(record: T) {
        rr_push_kept_table(L, 0, Int32(clamping: T.luaFieldCount))
        rr_push_contents(L, -1)
        var writer = LuaTableWriter(host: self, index: lua_gettop(L), kept: true)
        record.encode(to: &writer)
        clua_pop(L, 1)
    }

    /// Pushes the record `record` kept under `key` (a record that goes with a history, such as its
    /// task; nil: one for the record type): its table is written again only when the record differs
    /// from the previous fill's under that key, or a rule has written into a kept table since.
    /// Inlinable, so that the comparison runs specialized (generic, it cost more than the fill).
    @inlinable
    func pushKeptRecord<T: LuaKeptRecord>(_ record: T, key: String?) {
        let pool = pushKeptTable(KeptKey(.record, type: ObjectIdentifier(T.self), key: key), fieldCount: T.luaFieldCount) {
            KeptRecords<T>([])
        }
        let kept = unsafeDowncast(pool.keptRecords!, to: KeptRecords<T>.self)
        if pool.keptWritten != argumentsWritten || kept.items.count != 1 || kept.items[0] != record {
            refillKept(pool, from: record)
            kept.items = [record]
            pool.keptWritten = argumentsWritten
        }
    }

    /// The writes of rules into kept tables so far (`rt->args_written`).
    @usableFromInline
    var argumentsWritten: Int64 { runtime.pointee.args_written }

    /// Pushes the one kept table of the pool of `key`, made (with its records box) when missing.
    @usableFromInline
    func pushKeptTable(_ key: KeptKey, fieldCount: Int, records: () -> AnyObject) -> ListPool {
        let pool = historyPool(key, count: 1, records: records)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.elements))
        let elements = lua_gettop(L)
        makeElements(pool, count: 1, at: elements, fieldCount: fieldCount, kept: true)
        lua_rawgeti(L, elements, 1)
        clua_remove(L, elements)
        return pool
    }

    /// Writes `record` into the kept table on top of the stack (its contents, through the pool's
    /// key tracking).
    @usableFromInline
    func refillKept<T: LuaTableEncodable>(_ pool: ListPool, from record: T) {
        rr_push_contents(L, -1)
        pool.fills.withUnsafeMutableBufferPointer { refill(lua_gettop(L), from: record, keys: $0.baseAddress!, kept: true) }
        clua_pop(L, 1)
    }

    /// A history's fill, or a kept list's (`byAge` false: tables kept by their position): the
    /// records compared and written here, specialized (inlinable), the tables in `fillKept`.
    @inlinable
    func pushKept<T: LuaKeptRecord>(_ items: [T], key: String?, byAge: Bool) {
        let role: KeptKey.Role = byAge ? .history : .list
        let pool = historyPool(KeptKey(role, type: ObjectIdentifier(T.self), key: key), count: items.count) { KeptRecords<T>([]) }
        let kept = unsafeDowncast(pool.keptRecords!, to: KeptRecords<T>.self)
        let old = kept.items
        let keptCount = pool.keptWritten == argumentsWritten ? old.count : 0
        // The same records, and no rule has written into a kept table since: every table and slot
        // still holds what this fill would write (one comparison of the arrays).
        let same = keptCount == items.count && old == items
        fillKept(pool, count: items.count, keptCount: same ? -1 : keptCount, fieldCount: T.luaFieldCount, byAge: byAge) { i, previous in
            previous < 0 || old[previous] != items[i]
        } write: { i, table, keys in
            refill(table, from: items[i], keys: keys, kept: true)
        }
        if !same {
            kept.items = items
            pool.keptWritten = argumentsWritten
        }
    }

    /// Pushes the list of `pool` and fills its tables: `count` records, of which the previous fill
    /// wrote `keptCount` (-1: the same records, nothing to write); `differs(i, previous)` tells
    /// whether record `i` differs from the previous fill's record `previous` (-1: none), and `write`
    /// writes record `i` into the table at a stack index through its key tracking.
    @usableFromInline
    func fillKept(
        _ pool: ListPool, count: Int, keptCount: Int, fieldCount: Int, byAge: Bool, differs: (Int, Int) -> Bool,
        write: (Int, Int32, UnsafeMutablePointer<PooledTable>) -> Void
    ) {
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.list))
        if keptCount < 0 { return }
        let list = lua_gettop(L)
        rr_push_contents(L, list)
        let slots = lua_gettop(L)
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.elements))
        let elements = lua_gettop(L)
        makeElements(pool, count: count, at: elements, fieldCount: fieldCount, kept: true)
        pool.fills.withUnsafeMutableBufferPointer { fills in
            var i = 0
            while i < count {
                let place = byAge ? count - 1 - i : i
                let previous = byAge ? keptCount - 1 - place : (i < keptCount ? i : -1)
                lua_rawgeti(L, elements, lua_Integer(place + 1))
                if differs(i, previous) {
                    rr_push_contents(L, -1)
                    write(i, lua_gettop(L), fills.baseAddress! + place)
                    clua_pop(L, 1)
                }
                lua_rawseti(L, slots, lua_Integer(i + 1))
                i += 1
            }
        }
        clearSlots(pool, from: count, in: slots)
        lua_settop(L, list)
    }

    /// The kept pool of `key` (`HotPathStorage.keptPool`), made (a kept table and its records
    /// box) when missing.
    @usableFromInline
    func historyPool(_ key: KeptKey, count: Int, records: () -> AnyObject) -> ListPool {
        hot.keptPool(key, count: count) {
            let pool = makePooledList(kept: true)
            pool.keptRecords = records()
            return pool
        }
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
    @inlinable
    func pushPooled<T: LuaTableEncodable>(_ record: T, slot: Int) {
        let pool = pushPooledTable(slot: slot, type: ObjectIdentifier(T.self), fieldCount: T.luaFieldCount)
        refill(pool.table, from: record, keys: pool.keys)
    }

    /// Pushes the pooled argument table of position `slot` for records of `type` (created on first
    /// use); returns its stack index and its key tracking.
    @usableFromInline
    func pushPooledTable(slot: Int, type: ObjectIdentifier, fieldCount: Int) -> (table: Int32, keys: UnsafeMutablePointer<PooledTable>) {
        pushPooledTable(slot: slot, type: type) { rr_push_input_table(L, Int32(clamping: fieldCount)) }
    }

    /// The same for a pooled table that `make` pushes on first use (an input table, or a view).
    @inline(__always)
    func pushPooledTable(slot: Int, type: ObjectIdentifier, make: () -> Void) -> (table: Int32, keys: UnsafeMutablePointer<PooledTable>) {
        let pool = hot.pool(slot: slot, type: type)
        if pool.pointee.reference == 0 {
            make()
            pool.pointee.reference = luaL_ref(L, clua_registryindex())
        }
        lua_rawgeti(L, clua_registryindex(), lua_Integer(pool.pointee.reference))
        return (lua_gettop(L), pool)
    }

    /// Writes `record` into the pooled table at stack index `table`, clearing the keys the
    /// previous fill (tracked in `keys`) wrote and this one does not.
    @inlinable
    func refill<T: LuaTableEncodable>(_ table: Int32, from record: T, keys: UnsafeMutablePointer<PooledTable>, kept: Bool = false) {
        beginRefill(table, keys: keys)
        var writer = LuaTableWriter(host: self, index: table, pool: keys, kept: kept)
        record.encode(to: &writer)
        if restartOverflowedRefill(table, keys: keys) {
            var writer = LuaTableWriter(host: self, index: table, pool: keys, kept: kept)
            record.encode(to: &writer)
        } else {
            endRefill(table, keys: keys)
        }
    }

    /// After a fill that wrote more keys than are tracked, which of the previous fill's keys it
    /// left out is not known: clears the table for the fill to be written again (the next fill
    /// clears it first, too) and returns true. Returns false otherwise.
    @usableFromInline
    func restartOverflowedRefill(_ table: Int32, keys: UnsafeMutablePointer<PooledTable>) -> Bool {
        guard keys.pointee.overflowed else { return false }
        clearTable(at: table)
        keys.pointee.begin()
        return true
    }

    @usableFromInline
    func beginRefill(_ table: Int32, keys: UnsafeMutablePointer<PooledTable>) {
        if keys.pointee.overflowed { clearTable(at: table) }
        keys.pointee.begin()
    }

    @usableFromInline
    func endRefill(_ table: Int32, keys: UnsafeMutablePointer<PooledTable>) {
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

/// A call `beginCall` started: the stack top before it, and which arguments it reuses (only the
/// outermost call reuses any, as `LuaLimits.argumentReuse` allows).
public struct EnteredCall {
    @usableFromInline let top: Int32
    /// Pooled argument tables, lists and views.
    @usableFromInline let pooled: Bool
    /// Kept histories, lists and records (`pooled` too).
    @usableFromInline let kept: Bool

    @usableFromInline
    init(top: Int32, reuse: ArgumentReuse) {
        self.top = top
        self.pooled = reuse != .none
        self.kept = reuse == .kept
    }
}
