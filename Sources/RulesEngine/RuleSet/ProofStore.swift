import BuiltInDefaults
import Foundation
import LuaHost

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The proofs kept on disk, so that another process proving the same file gets them
/// (``ProofCache`` keeps them within one process): `rulesrun` commands run one after the other, a
/// `watch` started again, the processes of a test run. One file per key (the digest of its bytes
/// names it), holding the key whole, the findings and a checksum; a file is used only when it reads
/// back whole, its checksum holds and its key is the key asked for, byte for byte: a file cut short,
/// changed or made up is ignored and the file proved again (and the file replaced). The key holds
/// the build of the code proving (``BuildIdentity``): a rebuilt binary never reads the proofs of
/// another. A file is written under a name of its own and renamed into place, so that two
/// processes never write the same file and a reader never sees half of one. Past `maxEntries` files
/// or `maxBytes` bytes, those used longest ago are removed (reading a file marks it used).
///
/// Where: `$RULESRUN_PROOF_CACHE`, else `proofs/` of the cache folder (`$XDG_CACHE_HOME/rulesrun`,
/// else `~/.cache/rulesrun`); `RULESRUN_PROOF_CACHE=off` keeps none. A folder that is not the
/// user's own, or that others may write to, is not used.
package struct ProofStore: Sendable {
    /// The environment variable naming the folder, or `off`.
    package static let variable = "RULESRUN_PROOF_CACHE"
    package static let defaultMaxEntries = 1_000
    package static let defaultMaxBytes = 64 << 20

    package let folder: String
    let identity: String
    let maxEntries: Int
    let maxBytes: Int

    /// The first bytes of a file (with the format's version).
    static let magic = "rulesrun proofs 1"
    /// The most bytes of findings a file holds (a file of more is not written, nor read).
    static let maxFindingsBytes = 16 << 20

    /// The store `environment` names; nil when it is `off`, or when the code has no build identity.
    package init?(environment: [String: String]) {
        guard let folder = Self.folder(in: environment), let identity = BuildIdentity.current else { return nil }
        self.init(folder: folder, identity: identity)
    }

    init(folder: String, identity: String, maxEntries: Int = defaultMaxEntries, maxBytes: Int = defaultMaxBytes) {
        self.folder = folder
        self.identity = identity
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// The folder `environment` names (a relative path is under the working folder), nil for `off`.
    package static func folder(in environment: [String: String]) -> String? {
        guard let given = environment[variable], !given.isEmpty else {
            return BuiltInDefaults.cacheFolder(environment: environment).appendingPathComponent("proofs").path
        }
        if given == "off" { return nil }
        return given.hasPrefix("/") ? given : WorkingFolder.current + "/" + given
    }

    /// Where one key's proofs are: its file, and the key's bytes that the file must hold.
    struct Slot {
        let path: String
        let key: [UInt8]
    }

    /// Nil for a key a file cannot hold.
    func slot(for key: ProofCache.Key) -> Slot? {
        guard let bytes = ProofRecord.key(key, identity: identity) else { return nil }
        var digest = FNV64()
        digest.add(bytes)
        return Slot(path: folder + "/" + digest.hex + ".proof", key: bytes)
    }

    /// The proofs the slot's file holds, when it holds the slot's key and reads back whole.
    func entry(at slot: Slot) -> ProofCache.Entry? {
        guard isOwnFolder() else { return nil }
        let fd = open(slot.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        let limit = slot.key.count + Self.maxFindingsBytes + 64 + Self.magic.utf8.count
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 8, info.st_size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { buffer in
            Self.whole(buffer.count) { done in read(fd, buffer.baseAddress! + done, buffer.count - done) }
        }
        guard count == bytes.count, let entry = Self.entry(in: bytes, key: slot.key) else { return nil }
        // Used now: the last to be removed.
        _ = futimens(fd, nil)
        return entry
    }

    /// Repeats `step` (one read or write of what is left from the offset it is given) until `count`
    /// bytes are done, the end, or an error other than EINTR; the bytes done.
    static func whole(_ count: Int, _ step: (Int) -> Int) -> Int {
        var done = 0
        while done < count {
            let n = step(done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return done
    }

    /// The proofs in a file's bytes, when they are a whole file of `key`.
    static func entry(in bytes: [UInt8], key: [UInt8]) -> ProofCache.Entry? {
        var checksum = FNV64()
        checksum.add(bytes.dropLast(8))
        var input = ProofRecord.Reader(bytes)
        do {
            guard try input.text() == magic, try input.data(max: key.count).elementsEqual(key) else { return nil }
            let findings = Array(try input.data(max: maxFindingsBytes))
            guard try input.integer() == Int64(bitPattern: checksum.digest), input.isAtEnd else { return nil }
            return try ProofRecord.entry(from: findings)
        } catch {
            return nil
        }
    }

    /// The bytes of the file of `entry` under `key`.
    static func file(_ entry: ProofCache.Entry, key: [UInt8]) -> [UInt8]? {
        let findings = ProofRecord.entry(entry)
        guard findings.count <= maxFindingsBytes else { return nil }
        var out = ProofRecord.Writer()
        out.text(magic)
        out.data(key)
        out.data(findings)
        var checksum = FNV64()
        checksum.add(out.bytes)
        out.integer(Int64(bitPattern: checksum.digest))
        return out.bytes
    }

    /// Writes the slot's file (nothing when it cannot: the proofs are only not kept), then removes
    /// the files used longest ago past the limits.
    func keep(_ entry: ProofCache.Entry, at slot: Slot) {
        guard let bytes = Self.file(entry, key: slot.key), bytes.count <= maxBytes / 4 else { return }
        if !FileManager.default.fileExists(atPath: folder) {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        guard isOwnFolder() else { return }
        let name = (slot.path as NSString).lastPathComponent
        let temporary = folder + "/" + Self.temporaryPrefix + name + "-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = bytes.withUnsafeBytes { buffer in
            Self.whole(buffer.count) { done in write(fd, buffer.baseAddress! + done, buffer.count - done) }
        }
        guard close(fd) == 0, written == bytes.count, rename(temporary, slot.path) == 0 else {
            unlink(temporary)
            return
        }
        prune()
    }

    /// The start of the name a file is written under before it is renamed into place.
    static let temporaryPrefix = ".proof-"
    /// How old a file left half-written (its writer was killed) is before it is removed.
    static let abandonedAfter: TimeInterval = 3600

    /// Removes the files used longest ago until at most `maxEntries` files of at most `maxBytes` in
    /// all are left, and the files of writers killed while writing. Only the store's own files:
    /// named `<16 hex digits>.proof` or `.proof-….tmp`.
    func prune() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        var files: [(name: String, bytes: Int, used: timespec)] = []
        let now = Date().timeIntervalSince1970
        for name in names {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasPrefix(Self.temporaryPrefix), name.hasSuffix(".tmp") {
                if now - Double(Self.modified(info).tv_sec) > Self.abandonedAfter { unlink(folder + "/" + name) }
            } else if Self.isEntryName(name) {
                files.append((name, Int(info.st_size), Self.modified(info)))
            }
        }
        var total = files.reduce(0) { $0 + $1.bytes }
        guard files.count > maxEntries || total > maxBytes else { return }
        files.sort { ($0.used.tv_sec, $0.used.tv_nsec, $0.name) < ($1.used.tv_sec, $1.used.tv_nsec, $1.name) }
        var count = files.count
        for file in files where count > maxEntries || total > maxBytes {
            unlink(folder + "/" + file.name)
            count -= 1
            total -= file.bytes
        }
    }

    static func modified(_ info: stat) -> timespec {
        #if os(Linux)
            info.st_mtim
        #else
            info.st_mtimespec
        #endif
    }

    /// Whether `name` is the name of an entry's file: 16 hexadecimal digits, then `.proof`.
    static func isEntryName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        return utf8.count == 22 && name.hasSuffix(".proof")
            && utf8.prefix(16).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// Whether the folder is a folder of this user's that no one else may write to (another's
    /// could hold findings made up to pass a broken rule set).
    func isOwnFolder() -> Bool {
        var info = stat()
        return stat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == geteuid() && info.st_mode & 0o022 == 0
    }
}
