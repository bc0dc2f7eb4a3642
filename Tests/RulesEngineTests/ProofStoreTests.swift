import Foundation
import LuaHost
import Testing

@testable import RulesEngine

#if canImport(Glibc)
    import Glibc
#endif

/// The proofs kept on disk (``ProofStore``): a file is read only when it is whole, its checksum
/// holds and it holds the key asked for byte for byte; the files used longest ago go past the
/// limits; a folder others may write to is not used.
struct ProofStoreTests {
    /// An empty folder of the test's own (mode 0700, as the store makes its folder).
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    static func key(_ policy: String = "pricing.lua", contents: String = "return base\n") -> ProofCache.Key {
        ProofCache.Key(
            policy: policy, files: ["escalation.lua", policy], contents: [Array("return base\n".utf8), Array(contents.utf8)],
            overrides: [try! KnobOverride(path: "pricing.rollover_cap", value: .integer(20))], limits: "\(LuaLimits.default)",
            randomSeed: 7, randomState: [1, 2, 3, 4])
    }

    /// Findings with every field set: a problem with and without a line and a field, a budget problem.
    static let entry = ProofCache.Entry(
        outcomes: [
            ProofCache.Outcome(
                name: "price", inputs: 4_400, unproved: "more than 6 unlocks today",
                problems: [
                    RuleProblem(file: "pricing.lua", line: 12, message: "price(…) returned -1 credits", field: "credit_costs[1]"),
                    RuleProblem(file: "pricing.lua", message: "ünïcode — and\nnew lines"),
                ], budgetProblem: nil),
            ProofCache.Outcome(
                name: "carried_credits", inputs: 0, unproved: nil, problems: [],
                budgetProblem: RuleProblem(file: "pricing.lua", line: 3, message: "validation stopped")),
        ], start: 1_000, instructions: 123_456, randomState: [9, 8, 7])

    static func bytes(_ entry: ProofCache.Entry?) -> [UInt8]? { entry.map(ProofRecord.entry) }

    @Test func aKeptEntryIsReadBackAsItWas() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = ProofStore(folder: folder, identity: "build-1")
        let slot = try #require(store.slot(for: Self.key()))
        #expect(store.entry(at: slot) == nil)
        store.keep(Self.entry, at: slot)
        #expect(Self.bytes(store.entry(at: slot)) == Self.bytes(Self.entry))
        let read = try #require(store.entry(at: slot))
        #expect(read.outcomes.map(\.problems) == Self.entry.outcomes.map(\.problems))
        #expect(read.outcomes.map(\.budgetProblem) == Self.entry.outcomes.map(\.budgetProblem))
        // Another key (one byte of a file's contents, another build) has a file of its own.
        let other = try #require(store.slot(for: Self.key(contents: "return base \n")))
        #expect(other.path != slot.path && store.entry(at: other) == nil)
        let rebuilt = ProofStore(folder: folder, identity: "build-2")
        #expect(rebuilt.entry(at: try #require(rebuilt.slot(for: Self.key()))) == nil)
        // Only the file of the written key, and no file left half-written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [(slot.path as NSString).lastPathComponent])
    }

    /// A file cut short, changed, made of other bytes or holding another key is not read: nil,
    /// never a crash, and never findings of another key.
    @Test func aDamagedOrForeignFileIsNotRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = ProofStore(folder: folder, identity: "build-1")
        let slot = try #require(store.slot(for: Self.key()))
        let whole = try #require(ProofStore.file(Self.entry, key: slot.key))
        func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: slot.path)) }
        try write(whole)
        #expect(store.entry(at: slot) != nil)
        var damaged: [(String, [UInt8])] = [("empty", []), ("garbage", Array(repeating: 0xAB, count: whole.count))]
        for length in [1, 8, 30, whole.count / 2, whole.count - 9, whole.count - 1] { damaged.append(("cut at \(length)", Array(whole.prefix(length)))) }
        for position in [0, 20, whole.count / 3, whole.count / 2, whole.count - 20, whole.count - 1] {
            var bytes = whole
            bytes[position] ^= 0x01
            damaged.append(("byte \(position) changed", bytes))
        }
        damaged.append(("a byte more", whole + [0]))
        // Another key's whole file under this key's name (its checksum holds).
        let quests = try #require(store.slot(for: Self.key("quests.lua")))
        let foreign = try #require(ProofStore.file(Self.entry, key: quests.key))
        damaged.append(("another key's file", foreign))
        for (what, bytes) in damaged {
            try write(bytes)
            #expect(store.entry(at: slot) == nil, "\(what)")
        }
        // Checksums that hold over values no proof records: a count past the bytes, an instruction
        // count near overflow, an unknown tag, invalid UTF-8.
        func forged(_ findings: (inout ProofRecord.Writer) -> Void) -> [UInt8] {
            var body = ProofRecord.Writer()
            findings(&body)
            return file(body.bytes)
        }
        func file(_ findings: [UInt8]) -> [UInt8] {
            var out = ProofRecord.Writer()
            out.text(ProofStore.magic)
            out.data(slot.key)
            out.data(findings)
            var checksum = FNV64()
            checksum.add(out.bytes)
            out.integer(Int64(bitPattern: checksum.digest))
            return out.bytes
        }
        let made: [(String, [UInt8])] = [
            ("instructions near overflow", forged { $0.integer(0); $0.integer(.max); $0.data([UInt8]()); $0.integer(0) }),
            ("negative start", forged { $0.integer(-1); $0.integer(0); $0.data([UInt8]()); $0.integer(0) }),
            ("a count past the bytes", forged { $0.integer(0); $0.integer(0); $0.data([UInt8]()); $0.integer(3) }),
            ("a huge count", forged { $0.integer(0); $0.integer(0); $0.data([UInt8]()); $0.integer(.max) }),
            (
                "an unknown tag",
                forged {
                    $0.integer(0); $0.integer(0); $0.data([UInt8]()); $0.integer(1); $0.text("price"); $0.integer(1); $0.integer(7)
                }
            ),
            (
                "invalid UTF-8",
                forged { $0.integer(0); $0.integer(0); $0.data([UInt8]()); $0.integer(1); $0.data([0xFF, 0xFE]) }
            ),
            ("bytes after the findings", file(ProofRecord.entry(Self.entry) + [0])),
        ]
        for (what, bytes) in made {
            try write(bytes)
            #expect(store.entry(at: slot) == nil, "\(what)")
        }
        // Not a file: a folder, a link to a good file.
        try FileManager.default.removeItem(atPath: slot.path)
        try FileManager.default.createDirectory(atPath: slot.path, withIntermediateDirectories: false)
        #expect(store.entry(at: slot) == nil)
        try FileManager.default.removeItem(atPath: slot.path)
        let elsewhere = folder + "/good"
        try Data(whole).write(to: URL(fileURLWithPath: elsewhere))
        try FileManager.default.createSymbolicLink(atPath: slot.path, withDestinationPath: elsewhere)
        #expect(store.entry(at: slot) == nil)
        // Kept again, the file is whole again.
        try FileManager.default.removeItem(atPath: slot.path)
        store.keep(Self.entry, at: slot)
        #expect(Self.bytes(store.entry(at: slot)) == Self.bytes(Self.entry))
    }

    /// Past the limits, the files used longest ago are removed (reading a file uses it), and so
    /// are files left half-written long ago; other files of the folder are left alone.
    @Test func theFilesUsedLongestAgoAreRemoved() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = ProofStore(folder: folder, identity: "build-1", maxEntries: 3, maxBytes: 1 << 20)
        let slots = try (0..<4).map { try #require(store.slot(for: Self.key(contents: "return base -- \($0)\n"))) }
        for slot in slots.prefix(3) { store.keep(Self.entry, at: slot) }
        // Used at 1,000 s, 2,000 s and 3,000 s after 1970: 0 the longest ago, then 1, then 2.
        for (i, slot) in slots.prefix(3).enumerated() {
            var times = [timeval(tv_sec: 1_000 * (i + 1), tv_usec: 0), timeval(tv_sec: 1_000 * (i + 1), tv_usec: 0)]
            #expect(utimes(slot.path, &times) == 0)
        }
        let abandoned = folder + "/" + ProofStore.temporaryPrefix + "0123456789abcdef.proof-1-2.tmp"
        let other = folder + "/notes.txt"
        for path in [abandoned, other] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: path))
            var times = [timeval(tv_sec: 1_000, tv_usec: 0), timeval(tv_sec: 1_000, tv_usec: 0)]
            #expect(utimes(path, &times) == 0)
        }
        #expect(store.entry(at: slots[0]) != nil)
        store.keep(Self.entry, at: slots[3])
        let left = try Set(FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(left == Set([slots[0], slots[2], slots[3]].map { ($0.path as NSString).lastPathComponent } + ["notes.txt"]))

        // The bytes: room for two files.
        let file = try #require(ProofStore.file(Self.entry, key: slots[0].key)).count
        let small = ProofStore(folder: folder, identity: "build-1", maxEntries: 100, maxBytes: 2 * file + file / 2)
        small.prune()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter(ProofStore.isEntryName).count == 2)
    }

    /// A folder others may write to, or another user's, is neither read nor written.
    @Test func aFolderOthersMayWriteIsNotUsed() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = ProofStore(folder: folder, identity: "build-1")
        let slot = try #require(store.slot(for: Self.key()))
        store.keep(Self.entry, at: slot)
        #expect(chmod(folder, 0o777) == 0)
        #expect(store.entry(at: slot) == nil)
        let other = try #require(store.slot(for: Self.key("quests.lua")))
        store.keep(Self.entry, at: other)
        #expect(!FileManager.default.fileExists(atPath: other.path))
        #expect(chmod(folder, 0o700) == 0)
        #expect(store.entry(at: slot) != nil)
        // A folder that does not exist yet is made, the user's alone.
        let nested = ProofStore(folder: folder + "/a/b", identity: "build-1")
        nested.keep(Self.entry, at: try #require(nested.slot(for: Self.key())))
        var info = stat()
        #expect(stat(folder + "/a/b", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test func theEnvironmentNamesTheFolder() throws {
        #expect(ProofStore.folder(in: [ProofStore.variable: "off"]) == nil)
        #expect(ProofStore.folder(in: [ProofStore.variable: "/tmp/p", "XDG_CACHE_HOME": "/x"]) == "/tmp/p")
        #expect(WorkingFolder.$path.withValue("/work") { ProofStore.folder(in: [ProofStore.variable: "cache"]) } == "/work/cache")
        #expect(ProofStore.folder(in: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]) == "/x/rulesrun/proofs")
        #expect(ProofStore.folder(in: [ProofStore.variable: "", "HOME": "/h"]) == "/h/.cache/rulesrun/proofs")
        // Not a relative XDG_CACHE_HOME (the XDG rule): the home's.
        #expect(ProofStore.folder(in: ["XDG_CACHE_HOME": "x", "HOME": "/h"]) == "/h/.cache/rulesrun/proofs")
    }

    /// The build identity: the build ids of this test binary, the Lua library and the Swift
    /// runtime, read from memory.
    @Test func theBuildIdentityNamesTheImagesInMemory() throws {
        #if os(Linux)
            let identity = try #require(BuildIdentity.current)
            let ids = identity.split(separator: " ")
            #expect((2...3).contains(ids.count), "\(identity)")
            #expect(ids.allSatisfy { $0.count >= 16 && $0.allSatisfy(\.isHexDigit) }, "\(identity)")
            #expect(Set(ids).count == ids.count)
        #endif
    }

    /// A rule set loaded with a store keeps each file's proofs there, the failing ones too, and
    /// what a file holds is what the proofs found.
    @Test func aRuleSetsProofsAreKeptWithTheirFindings() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = ProofStore(folder: folder, identity: "build-1")
        // Files no other test loads (none of them remembered in this process yet).
        let (rules, _) = try ProofCacheTests.uniqueRules()
        defer { try? FileManager.default.removeItem(at: rules) }
        let streaks = rules.appendingPathComponent("streaks.lua")
        let header = "function M.earned.bonus(streak_count)\n"
        try RuleFixture.edit(
            try String(contentsOf: streaks, encoding: .utf8), [(header, header + "  if streak_count == 37 then return math.maxinteger end\n")]
        ).write(to: streaks, atomically: true, encoding: .utf8)
        let error = try #require(throws: RuleSetError.self) { try ProofCache.$store.withValue(store) { try RuleSet.load(rules.path) } }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter(ProofStore.isEntryName)
        #expect(files.count == RuleSet.fileNames.count)
        let kept = try files.flatMap { name -> [RuleProblem] in
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            var input = ProofRecord.Reader(bytes)
            _ = try input.text()
            let key = Array(try input.data(max: bytes.count))
            let entry = try #require(ProofStore.entry(in: bytes, key: key))
            return entry.outcomes.flatMap(\.problems)
        }
        #expect(kept.count == 1 && error.problems == kept, "\(error.problems) \(kept)")
        #expect(kept.first?.message.contains("earned.bonus(37) returned integer 9223372036854775807") == true)
    }
}
