/// The memory of argument reuse, with one owner: the registry references of interned keys (by
/// `LuaKey` id), the pooled argument tables (`PooledTable`, each with its key lists), the pooled
/// and kept lists and records (`ListPool`, by role, type and key), the texts kept by number
/// (`LuaTableWriter.set(_:text:of:write:)`), and the stack of keys that table readers asked for.
/// Non-copyable and held by a `let` of `LuaHost`: the hot path pays no reference counting and no
/// exclusivity checks, and no other code allocates or frees any of this memory (its `deinit` frees
/// all of it, with the host).
struct HotPathStorage: ~Copyable {
    private let m: UnsafeMutablePointer<Memory>

    private struct Memory {
        /// Nesting of record calls (a host function may call back into Lua): only the outermost
        /// call reuses arguments.
        var callDepth = 0
        /// The pooled argument tables, one per argument position and record type (see
        /// `pool(slot:type:)`), and the position and type each is for.
        var pools = UnsafeMutablePointer<PooledTable>.allocate(capacity: 0)
        var poolOwners = UnsafeMutablePointer<(slot: Int, type: ObjectIdentifier)>.allocate(capacity: 0)
        var poolCount = 0, poolCapacity = 0
        /// The key lists of every `PooledTable` made (`makeTable`), freed with the storage.
        var tableKeys: [UnsafeMutablePointer<Int>] = []
        var keyReferences: UnsafeMutablePointer<Int32>
        var keyCapacity = 256
        var asked: UnsafeMutablePointer<Int>
        var askedCount = 0, askedCapacity = 64
        /// The kept texts: an open-addressing table of `textCapacity` (a power of two) slots, each
        /// a text's key (its kind and number, 0: empty) and registry reference.
        var textKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
        var textReferences = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
        var textCapacity = 0, textCount = 0
        /// The pooled lists by element type, the kept lists of one-field records by field, and
        /// the histories, kept lists and kept records by role, type and key (`keptPool`), with
        /// the element tables of the last.
        var listPools: [ObjectIdentifier: ListPool] = [:]
        var fieldListPools: [Int: ListPool] = [:]
        var keptPools: [KeptKey: ListPool] = [:]
        var keptTables = 0
    }

    /// The most texts a host keeps: past it, a text is written and pushed each time.
    static let maxTexts = 4_096
    /// At most this many histories, and this many element tables in all (a few MB of the state's
    /// memory, which counts against its ceiling), are kept by key; past either, new keys share one
    /// pool per role and record type.
    static let maxHistories = 256
    static let maxHistoryTables = 8_192

    init() {
        let keys = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        keys.initialize(repeating: 0, count: 256)
        m = .allocate(capacity: 1)
        m.initialize(to: Memory(keyReferences: keys, asked: .allocate(capacity: 64)))
    }

    deinit {
        let count = m.pointee.poolCount
        m.pointee.pools.deinitialize(count: count)
        m.pointee.pools.deallocate()
        m.pointee.poolOwners.deinitialize(count: count)
        m.pointee.poolOwners.deallocate()
        for keys in m.pointee.tableKeys { keys.deallocate() }
        m.pointee.keyReferences.deallocate()
        m.pointee.asked.deallocate()
        m.pointee.textKeys.deallocate()
        m.pointee.textReferences.deallocate()
        m.deinitialize(count: 1)
        m.deallocate()
    }

    var callDepth: Int {
        @inline(__always) get { m.pointee.callDepth }
        @inline(__always) nonmutating set { m.pointee.callDepth = newValue }
    }

    /// A new pooled table's key tracking, its key lists owned by the storage.
    func makeTable() -> PooledTable {
        let keys = UnsafeMutablePointer<Int>.allocate(capacity: 2 * PooledTable.capacity)
        keys.initialize(repeating: 0, count: 2 * PooledTable.capacity)
        m.pointee.tableKeys.append(keys)
        return PooledTable(keys: keys)
    }

    /// The pooled argument table of argument position `slot` for records of `type` (made on first
    /// use). One per type, not only per position: calls that alternate record types in a position
    /// (`pressure.next`'s day, `transition`'s check-in, `reminder_times`' window) would otherwise
    /// clear and rewrite the table's keys at every call. The pointer is valid until the next call of
    /// this function.
    func pool(slot: Int, type: ObjectIdentifier) -> UnsafeMutablePointer<PooledTable> {
        var i = 0
        while i < m.pointee.poolCount {
            if m.pointee.poolOwners[i].type == type, m.pointee.poolOwners[i].slot == slot { return m.pointee.pools + i }
            i += 1
        }
        if m.pointee.poolCount == m.pointee.poolCapacity {
            let capacity = max(8, m.pointee.poolCapacity * 2)
            m.pointee.pools = grown(m.pointee.pools, count: m.pointee.poolCount, capacity: capacity)
            m.pointee.poolOwners = grown(m.pointee.poolOwners, count: m.pointee.poolCount, capacity: capacity)
            m.pointee.poolCapacity = capacity
        }
        (m.pointee.pools + m.pointee.poolCount).initialize(to: makeTable())
        (m.pointee.poolOwners + m.pointee.poolCount).initialize(to: (slot, type))
        m.pointee.poolCount += 1
        return m.pointee.pools + m.pointee.poolCount - 1
    }

    /// `old`'s `count` values moved to a new buffer of `capacity`; `old` freed.
    private func grown<T>(_ old: UnsafeMutablePointer<T>, count: Int, capacity: Int) -> UnsafeMutablePointer<T> {
        let new = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        new.moveInitialize(from: old, count: count)
        old.deallocate()
        return new
    }

    /// The pooled list of element type `type`, made by `make` on first use.
    func listPool(_ type: ObjectIdentifier, make: () -> ListPool) -> ListPool {
        if let known = m.pointee.listPools[type] { return known }
        let pool = make()
        m.pointee.listPools[type] = pool
        return pool
    }

    /// The kept list of one-field records of field `id`, made by `make` on first use.
    func fieldListPool(_ id: Int, make: () -> ListPool) -> ListPool {
        if let known = m.pointee.fieldListPools[id] { return known }
        let pool = make()
        m.pointee.fieldListPools[id] = pool
        return pool
    }

    /// The kept pool of `key` for `count` element tables, made by `make` when missing. Past the
    /// caps, a new key gets the pool its role and record type share instead: its tables are reused
    /// by every such key, whose records it then writes in full, as a pooled list would.
    func keptPool(_ key: KeptKey, count: Int, make: () -> ListPool) -> ListPool {
        if let known = m.pointee.keptPools[key] { return known }
        var key = key
        if m.pointee.keptPools.count >= Self.maxHistories || m.pointee.keptTables + count > Self.maxHistoryTables {
            key = KeptKey(key.role, type: key.type, key: nil)
            if let shared = m.pointee.keptPools[key] { return shared }
        }
        let pool = make()
        m.pointee.keptPools[key] = pool
        return pool
    }

    /// Counts `count` new element tables of kept pools against `maxHistoryTables`.
    func countKeptTables(_ count: Int) { m.pointee.keptTables += count }

    /// How many of each reused argument the storage holds.
    var reused: LuaHost.ReusedArguments {
        LuaHost.ReusedArguments(
            pooledTables: m.pointee.poolCount, pooledLists: m.pointee.listPools.count, keptLists: m.pointee.keptPools.count,
            fieldLists: m.pointee.fieldListPools.count, keptTexts: m.pointee.textCount)
    }

    /// The registry reference of key `id`, or 0 when it is not interned yet.
    @inline(__always)
    func reference(of id: Int) -> Int32 { id < m.pointee.keyCapacity ? m.pointee.keyReferences[id] : 0 }

    func setReference(_ reference: Int32, of id: Int) {
        if id >= m.pointee.keyCapacity {
            let capacity = max(m.pointee.keyCapacity * 2, id + 64)
            let grown = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            grown.initialize(repeating: 0, count: capacity)
            grown.update(from: m.pointee.keyReferences, count: m.pointee.keyCapacity)
            m.pointee.keyReferences.deallocate()
            m.pointee.keyReferences = grown
            m.pointee.keyCapacity = capacity
        }
        m.pointee.keyReferences[id] = reference
    }

    var textCount: Int { m.pointee.textCount }

    /// The registry reference of the kept text `key` (non-zero), or 0.
    @inline(__always)
    func text(_ key: UInt64) -> Int32 {
        guard m.pointee.textCapacity > 0 else { return 0 }
        var i = slot(of: key)
        while m.pointee.textKeys[i] != 0 {
            if m.pointee.textKeys[i] == key { return m.pointee.textReferences[i] }
            i = (i + 1) & (m.pointee.textCapacity - 1)
        }
        return 0
    }

    /// Keeps the text `key` (non-zero, not kept yet) at `reference`; the table stays at most half full.
    func keep(text key: UInt64, at reference: Int32) {
        if 2 * (m.pointee.textCount + 1) > m.pointee.textCapacity {
            let (keys, references, capacity) = (m.pointee.textKeys, m.pointee.textReferences, m.pointee.textCapacity)
            m.pointee.textCapacity = max(256, 2 * capacity)
            m.pointee.textKeys = .allocate(capacity: m.pointee.textCapacity)
            m.pointee.textKeys.initialize(repeating: 0, count: m.pointee.textCapacity)
            m.pointee.textReferences = .allocate(capacity: m.pointee.textCapacity)
            m.pointee.textReferences.initialize(repeating: 0, count: m.pointee.textCapacity)
            m.pointee.textCount = 0
            for i in 0..<capacity where keys[i] != 0 { keep(text: keys[i], at: references[i]) }
            keys.deallocate()
            references.deallocate()
        }
        var i = slot(of: key)
        while m.pointee.textKeys[i] != 0 { i = (i + 1) & (m.pointee.textCapacity - 1) }
        m.pointee.textKeys[i] = key
        m.pointee.textReferences[i] = reference
        m.pointee.textCount += 1
    }

    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (m.pointee.textCapacity - 1)
    }

    var askedCount: Int { m.pointee.askedCount }

    /// Records that a reader asked for the key with registry reference `id`; returns whether it
    /// had already asked for it since `start`.
    @inline(__always)
    func ask(_ id: Int, since start: Int) -> Bool {
        var seen = false
        var i = start
        while i < m.pointee.askedCount {
            if m.pointee.asked[i] == id { seen = true; break }
            i += 1
        }
        if m.pointee.askedCount == m.pointee.askedCapacity {
            m.pointee.askedCapacity *= 2
            m.pointee.asked = grown(m.pointee.asked, count: m.pointee.askedCount, capacity: m.pointee.askedCapacity)
        }
        m.pointee.asked[m.pointee.askedCount] = id
        m.pointee.askedCount += 1
        return seen
    }

    /// The key ids asked for since `start`.
    func asked(since start: Int) -> [Int] { (start..<m.pointee.askedCount).map { m.pointee.asked[$0] } }

    /// Forgets what was asked since `start` (when a reader is done).
    @inline(__always)
    func unwind(to start: Int) { m.pointee.askedCount = min(m.pointee.askedCount, start) }
}

/// An argument table kept between calls and refilled for each (see `LuaHost.pushPooled`). It
/// remembers which keys (by registry reference) the last fill wrote, so that keys the next fill
/// leaves out are cleared.
@usableFromInline
struct PooledTable {
    static let capacity = 32
    /// Registry reference of the table (0: not created yet).
    var reference: Int32 = 0
    /// Two lists of `capacity` key ids: the previous fill's and the current one's (owned by
    /// `HotPathStorage`, which made the table: `makeTable`).
    private let keys: UnsafeMutablePointer<Int>
    private var previousCount = 0
    private var currentCount = 0
    private var previousOffset = 0
    /// More keys than `capacity` were written: the next fill clears the whole table first.
    private(set) var overflowed = false

    fileprivate init(keys: UnsafeMutablePointer<Int>) { self.keys = keys }

    mutating func begin() {
        previousOffset = PooledTable.capacity - previousOffset
        swap(&previousCount, &currentCount)
        currentCount = 0
        overflowed = false
    }

    /// Records a written key by its registry reference (called by the writer).
    @inline(__always)
    mutating func record(_ id: Int) {
        if currentCount < PooledTable.capacity {
            keys[PooledTable.capacity - previousOffset + currentCount] = id
            currentCount += 1
        } else {
            overflowed = true
        }
    }

    /// The keys the previous fill wrote that this one did not.
    func stale() -> [Int32] {
        let currentOffset = PooledTable.capacity - previousOffset
        var out: [Int32] = []
        for i in 0..<previousCount {
            let id = keys[previousOffset + i]
            var found = false
            for j in 0..<currentCount where keys[currentOffset + j] == id { found = true; break }
            if !found { out.append(Int32(id)) }
        }
        return out
    }

    /// Whether this fill wrote exactly the keys of the previous one, in the same order (the usual case).
    func sameKeys() -> Bool {
        guard previousCount == currentCount else { return false }
        let currentOffset = PooledTable.capacity - previousOffset
        for i in 0..<currentCount where keys[previousOffset + i] != keys[currentOffset + i] { return false }
        return true
    }
}

/// The records of a history's previous fill.
@usableFromInline
final class KeptRecords<T> {
    @usableFromInline @exclusivity(unchecked) var items: [T]
    @usableFromInline init(_ items: [T]) { self.items = items }
}

/// A kept argument's pool: its role (each role lays its tables out its own way), its record type
/// and the caller's key (nil: the one the type shares in that role).
@usableFromInline
struct KeptKey: Hashable {
    /// A history (tables kept by their distance from the oldest record), a kept list (by position)
    /// or a kept record (one table).
    @usableFromInline
    enum Role: UInt8, Hashable { case history, list, record }
    let role: Role
    let type: ObjectIdentifier
    let key: String?
    @usableFromInline init(_ role: Role, type: ObjectIdentifier, key: String?) {
        self.role = role
        self.type = type
        self.key = key
    }
}

/// A list argument kept between calls and refilled for each (`PooledList`), one
/// per element type: the list table, a hidden sequence of its element tables (so that slots a rule
/// changed are set again), and the keys each element's last fill wrote.
@usableFromInline
final class ListPool {
    /// Registry references of the list table and of the hidden sequence of element tables.
    @exclusivity(unchecked) var list: Int32 = 0
    @exclusivity(unchecked) var elements: Int32 = 0
    /// The key tracking of each element table, by position.
    @exclusivity(unchecked) var fills: [PooledTable] = []
    /// The length of the previous fill.
    @exclusivity(unchecked) var count = 0
    /// A kept list (`rr_push_kept_table`): what its previous fill wrote (the integers, or the
    /// records of a history in a `KeptRecords`) and `args_written` then. Its tables still hold
    /// those values as long as no rule has written into a kept table since.
    @exclusivity(unchecked) var keptIntegers: [Int64] = []
    @usableFromInline @exclusivity(unchecked) var keptRecords: AnyObject?
    @usableFromInline @exclusivity(unchecked) var keptWritten: Int64 = -1
}
