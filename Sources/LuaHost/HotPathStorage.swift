/// What the per-call fast path keeps between calls: the registry references of interned keys (by
/// `LuaKey` id) and the stack of keys that table readers asked for. It lives behind a `let`
/// pointer of `LuaHost`, so the hot path pays no reference counting and no exclusivity checks.
struct HotPathStorage {
    private(set) var keyReferences: UnsafeMutablePointer<Int32>
    private(set) var keyCapacity: Int
    private(set) var asked: UnsafeMutablePointer<Int>
    private(set) var askedCount = 0
    private var askedCapacity: Int

    static func make() -> UnsafeMutablePointer<HotPathStorage> {
        let storage = UnsafeMutablePointer<HotPathStorage>.allocate(capacity: 1)
        let keys = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
        keys.initialize(repeating: 0, count: 256)
        let asked = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        storage.initialize(to: HotPathStorage(keyReferences: keys, keyCapacity: 256, asked: asked, askedCapacity: 64))
        return storage
    }

    static func destroy(_ storage: UnsafeMutablePointer<HotPathStorage>) {
        storage.pointee.keyReferences.deallocate()
        storage.pointee.asked.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
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

    /// Records that a reader asked for key `id`; returns whether it had already asked since `start`.
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
