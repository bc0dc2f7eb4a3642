import CLua
import CLuaSupport

/// Records passed as views: an empty read-only proxy in front of the fields (as a frozen table
/// is), read through a C `__index` that records the bit of each field read (`rr_push_view_table`).
/// The rule sees the same values and runs the same instructions as with an input table; `pairs`,
/// `next`, `#` and the sandbox's `rawget` see the fields too, and count as reading all of them.
extension LuaHost {
    /// Pushes `record` as a view: the pooled view of `slot` in the outermost call, else a new one.
    @inlinable
    func pushView<T: LuaTableViewable>(_ record: T, slot: Int, pooled: Bool) {
        if pooled {
            let pool = pushPooledView(slot: slot, type: ObjectIdentifier(LuaViewOf<T>.self), fieldCount: T.luaFieldCount) {
                T.luaViewKeys
            }
            let contents = pushViewContents()
            refill(contents, from: record, keys: pool)
            popViewContents(contents)
            checkReused("argument \(slot + 1) (the pooled view of \(T.self))") { pushFreshView(record) }
        } else {
            pushFreshView(record)
        }
    }

    /// Pushes a new view of `record`.
    @inlinable
    func pushFreshView<T: LuaTableViewable>(_ record: T) {
        pushNewView(fieldCount: T.luaFieldCount, keys: T.luaViewKeys)
        let contents = pushViewContents()
        var writer = LuaTableWriter(host: self, index: contents)
        record.encode(to: &writer)
        popViewContents(contents)
    }

    /// Pushes the pooled view of `slot` for records of `type` (made, its fields declared, on first
    /// use); returns its key tracking.
    @usableFromInline
    func pushPooledView(slot: Int, type: ObjectIdentifier, fieldCount: Int, keys: () -> [LuaKey]) -> UnsafeMutablePointer<PooledTable> {
        pushPooledTable(slot: slot, type: type) { pushNewView(fieldCount: fieldCount, keys: keys()) }.keys
    }

    /// Pushes a new view whose fields are `keys`, each declared as the bit of its position.
    @usableFromInline
    func pushNewView(fieldCount: Int, keys: [LuaKey]) {
        precondition(keys.count <= 63, "a view declares at most 63 fields")
        rr_push_view_table(L, Int32(clamping: fieldCount))
        let view = lua_gettop(L)
        for (bit, key) in keys.enumerated() {
            pushKey(key)
            rr_view_declare(L, view, Int32(bit))
        }
    }

    /// Pushes the contents of the view on top of the stack (where its fields are written); returns
    /// their stack index.
    @usableFromInline
    func pushViewContents() -> Int32 {
        rr_push_contents(L, -1)
        return lua_gettop(L)
    }

    /// Pops the contents `pushViewContents` pushed, leaving the view on top.
    @usableFromInline
    func popViewContents(_ contents: Int32) { lua_settop(L, contents - 1) }

    /// Runs a call whose result is a `LuaReadAnswer`.
    @usableFromInline
    func runViewCall(_ function: LuaFunction, arguments: Int32, call: EnteredCall) throws -> LuaReadAnswer {
        let outer = runtime.pointee.view_reads
        runtime.pointee.view_reads = 0
        defer { runtime.pointee.view_reads |= outer }
        var before = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var after = before
        let stamped = withUnsafeMutableBytes(of: &before) { rr_random_stamp(runtime, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        let value = try runCallFirst(function, arguments: arguments, call: call)
        var reads = LuaFieldReads(rawValue: runtime.pointee.view_reads)
        if stamped != 0 {
            _ = withUnsafeMutableBytes(of: &after) { rr_random_stamp(runtime, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            let drew = withUnsafeBytes(of: before) { b in withUnsafeBytes(of: after) { a in !a.elementsEqual(b) } }
            if drew { reads = .all }
        }
        return LuaReadAnswer(value: value, reads: reads)
    }
}

/// The pool identity of views of `T` (apart from input tables of `T`).
@usableFromInline
enum LuaViewOf<T> {}
