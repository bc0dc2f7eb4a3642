/// What the per-call fast path keeps between calls: the registry references of interned keys (by
/// `LuaKey` id), of the texts kept by number (`LuaTableWriter.set(_:text:of:write:)`) and the
/// stack of keys that table readers asked for. It lives behind a `let`
/// pointer of `LuaHost`, so the hot path pays no reference counting and no exclusivity checks.
struct HotPathStorage {
    /// Nesting of record calls (a host function may call back into Lua): only the outermost call
    /// uses the pooled argument tables.
    var callDepth = 0
    /// The pooled argument tables, one per argument position and record type (see `pool(slot:type:)`),
    /// and the position and type each is for.
    private var pools: UnsafeMutablePointer<PooledTable>
    private var poolOwners: UnsafeMutablePointer<(slot: Int, type: ObjectIdentifier)>
    private var poolCount = 0
    var pooledTableCount: Int { poolCount }
    private var poolCapacity = 0

    private(set) var keyReferences: UnsafeMutablePointer<Int32>
    private(set) var keyCapacity: Int
    private(set) var asked: UnsafeMutablePointer<Int>
    private(set) var askedCount = 0
    private var askedCapacity: Int

    /// The kept texts: an open-addressing table of `textCapacity` (a power of two) slots, each a
    /// text's key (its kind and number, 0: empty) and registry reference.
    private var textKeys: UnsafeMutablePointer<UInt64> = .allocate(capacity: 0)
    private var textReferences: UnsafeMutablePointer<Int32> = .allocate(capacity: 0)
    private var textCapacity = 0
    private(set) var textCount = 0
    /// The most texts a host keeps: past it, a text is written and pushed each time.
    static let maxTexts = 4_096

    static func make() -> UnsafeMutablePointer<HotPathStorage> {
        let storage = UnsafeMutablePointer<HotPathStorage>.allocate(capacity: 1)
        let keys = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        keys.initialize(repeating: 0, count: 256)
        let asked = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        storage.initialize(
            to: HotPathStorage(
                pools: .allocate(capacity: 0), poolOwners: .allocate(capacity: 0), keyReferences: keys, keyCapacity: 256,
                asked: asked, askedCapacity: 64))
        return storage
    }

    static func destroy(_ storage: UnsafeMutablePointer<HotPathStorage>) {
        let count = storage.pointee.poolCount
        for i in 0..<count { storage.pointee.pools[i].deallocate() }
        storage.pointee.pools.deinitialize(count: count)
        storage.pointee.pools.deallocate()
        storage.pointee.poolOwners.deinitialize(count: count)
        storage.pointee.poolOwners.deallocate()
        storage.pointee.keyReferences.deallocate()
        storage.pointee.asked.deallocate()
        storage.pointee.textKeys.deallocate()
        storage.pointee.textReferences.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The pooled argument table of argument position `slot` for records of `type` (made on first
    /// use). One per type, not only per position: calls that alternate record types in a position
    /// (`pressure.next`'s day, `transition`'s check-in, `reminder_times`' window) would otherwise
    /// clear and rewrite the table's keys at every call. The pointer is valid until the next call of
    /// this function.
    mutating func pool(slot: Int, type: ObjectIdentifier) -> UnsafeMutablePointer<PooledTable> {
        var i = 0
        while i < poolCount {
            if poolOwners[i].type == type, poolOwners[i].slot == slot { return pools + i }
            i += 1
        }
        if poolCount == poolCapacity {
            let capacity = max(8, poolCapacity * 2)
            let grown = UnsafeMutablePointer<PooledTable>.allocate(capacity: capacity)
            grown.moveInitialize(from: pools, count: poolCount)
            pools.deallocate()
            pools = grown
            let owners = UnsafeMutablePointer<(slot: Int, type: ObjectIdentifier)>.allocate(capacity: capacity)
            owners.moveInitialize(from: poolOwners, count: poolCount)
            poolOwners.deallocate()
            poolOwners = owners
            poolCapacity = capacity
        }
        (pools + poolCount).initialize(to: PooledTable())
        (poolOwners + poolCount).initialize(to: (slot, type))
        poolCount += 1
        return pools + poolCount - 1
    }

    /// The registry reference of key `id`, or 0 when it is not interned yet.
    @inline(__always)
    func reference(of id: Int) -> Int32 { id < keyCapacity ? keyReferences[id] : 0 }

    mutating func setReference(_ reference: Int32, of id: Int) {
        if id >= keyCapacity {
            let capacity = max(keyCapacity * 2, id + 64)
            let grown = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
            grown.initialize(repeating: 0, count: capacity)
            grown.update(from: keyReferences, count: keyCapacity)
            keyReferences.deallocate()
            keyReferences = grown
            keyCapacity = capacity
        }
        keyReferences[id] = reference
    }

    /// The registry reference of the kept text `key` (non-zero), or 0.
    @inline(__always)
    func text(_ key: UInt64) -> Int32 {
        guard textCapacity > 0 else { return 0 }
        var i = slot(of: key)
        while textKeys[i] != 0 {
            if textKeys[i] == key { return textReferences[i] }
            i = (i + 1) & (textCapacity - 1)
        }
        return 0
    }

    /// Keeps the text `key` (non-zero, not kept yet) at `reference`; the table stays at most half full.
    mutating func keep(text key: UInt64, at reference: Int32) {
        if 2 * (textCount + 1) > textCapacity {
            let (keys, references, capacity) = (textKeys, textReferences, textCapacity)
            textCapacity = max(256, 2 * textCapacity)
            textKeys = .allocate(capacity: textCapacity)
            textKeys.initialize(repeating: 0, count: textCapacity)
            textReferences = .allocate(capacity: textCapacity)
            textReferences.initialize(repeating: 0, count: textCapacity)
            textCount = 0
            for i in 0..<capacity where keys[i] != 0 { keep(text: keys[i], at: references[i]) }
            keys.deallocate()
            references.deallocate()
        }
        var i = slot(of: key)
        while textKeys[i] != 0 { i = (i + 1) & (textCapacity - 1) }
        textKeys[i] = key
        textReferences[i] = reference
        textCount += 1
    }

    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (textCapacity - 1)
    }

    /// Records that a reader asked for the key with registry reference `id`; returns whether it
    /// had already asked for it since `start`.
    @inline(__always)
    mutating func ask(_ id: Int, since start: Int) -> Bool {
        var seen = false
        var i = start
        while i < askedCount {
            if asked[i] == id { seen = true; break }
            i += 1
        }
        if askedCount == askedCapacity {
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: askedCapacity * 2)
            grown.update(from: asked, count: askedCount)
            asked.deallocate()
            asked = grown
            askedCapacity *= 2
        }
        asked[askedCount] = id
        askedCount += 1
        return seen
    }

    /// The key ids asked for since `start`.
    func asked(since start: Int) -> [Int] { (start..<askedCount).map { asked[$0] } }

    /// Forgets what was asked since `start` (when a reader is done).
    @inline(__always)
    mutating func unwind(to start: Int) { askedCount = min(askedCount, start) }
}

/// An argument table kept between calls and refilled for each (see `LuaHost.pushPooled`). It
/// remembers which keys (by registry reference) the last fill wrote, so that keys the next fill
/// leaves out are cleared.
@usableFromInline
struct PooledTable {
    static let capacity = 32
    /// Registry reference of the table (0: not created yet).
    var reference: Int32 = 0
    /// Two lists of `capacity` key ids: the previous fill's and the current one's (see `deallocate`).
    private let keys: UnsafeMutablePointer<Int> = {
        let keys = UnsafeMutablePointer<Int>.allocate(capacity: 2 * PooledTable.capacity)
        keys.initialize(repeating: 0, count: 2 * PooledTable.capacity)
        return keys
    }()
    private var previousCount = 0
    private var currentCount = 0
    private var previousOffset = 0
    /// More keys than `capacity` were written: the next fill clears the whole table first.
    private(set) var overflowed = false

    /// Frees the key lists (by the owner, once).
    func deallocate() { keys.deallocate() }

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

/// A list argument kept between calls and refilled for each (see `LuaHost.call(_:list:)`), one
/// per element type: the list table, a hidden sequence of its element tables (so that slots a rule
/// changed are set again), and the keys each element's last fill wrote.
@usableFromInline
final class PooledList {
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

    deinit { for fill in fills { fill.deallocate() } }
}
