import Foundation
import LuaHost
import Testing

@testable import RulesEngine

/// The proofs remembered in a process (``ProofCache``): by the files' bytes and the names messages
/// give them, not by their paths nor their folder's; the file used longest ago is the one forgotten.
struct ProofCacheTests {
    /// A copy of the default rules that no other test loads (a comment of its own in each file).
    static func uniqueRules() throws -> (folder: URL, mark: String) {
        let mark = UUID().uuidString
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-proofs-\(mark)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in RuleSet.fileNames {
            try ("-- \(mark)\n" + RuleFixture.defaultSource(name)).write(
                to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return (folder, mark)
    }

    static func remembered(_ mark: String) -> Int {
        ProofCache.remembered { key in key.contents.contains { String(decoding: $0.prefix(40), as: UTF8.self).contains(mark) } }
    }

    @Test func aFolderReachedByAnotherPathIsNotProvedAgain() throws {
        let (folder, mark) = try Self.uniqueRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two working folders, each with a link `r` to the same rules: "r" names two paths.
        var places: [URL] = []
        for _ in 0..<2 {
            let place = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-place-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: place.appendingPathComponent("r"), withDestinationURL: folder)
            places.append(place)
        }
        defer { for place in places { try? FileManager.default.removeItem(at: place) } }
        #expect(Self.remembered(mark) == 0)
        let first = try WorkingFolder.$path.withValue(places[0].path) { try RuleSet.load("r") }
        #expect(Self.remembered(mark) == RuleSet.fileNames.count)
        let second = try WorkingFolder.$path.withValue(places[1].path) { try RuleSet.load("r") }
        #expect(Self.remembered(mark) == RuleSet.fileNames.count)
        #expect(!first.provedInputs.isEmpty)
        #expect(first.provedInputs.map(\.0) == second.provedInputs.map(\.0))
        #expect(first.provedInputs.map(\.1) == second.provedInputs.map(\.1))
        // Another copy with a changed byte is proved on its own.
        let changed = try String(contentsOf: folder.appendingPathComponent("modes.lua"), encoding: .utf8) + "\n"
        try changed.write(to: folder.appendingPathComponent("modes.lua"), atomically: true, encoding: .utf8)
        _ = try WorkingFolder.$path.withValue(places[1].path) { try RuleSet.load("r") }
        #expect(Self.remembered(mark) == RuleSet.fileNames.count + 1)
    }

    /// A copy of a folder in another place (a test's or a variant's temporary folder) is the same
    /// files under the same names: proved once.
    @Test func aCopyOfAFolderElsewhereIsNotProvedAgain() throws {
        let (folder, mark) = try Self.uniqueRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: folder, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let first = try RuleSet.load(folder.path)
        let second = try RuleSet.load(copy.path)
        #expect(Self.remembered(mark) == RuleSet.fileNames.count)
        #expect(first.provedInputs.map(\.1) == second.provedInputs.map(\.1))
        #expect(first.unproved == second.unproved)
    }

    /// A knob override is in the keys of its file and of the files loaded after it, not of those
    /// before (their proofs ran before it was applied): two values of a pricing knob prove the
    /// escalation and streak files once, and both loads find the same proofs.
    @Test func anOverrideIsProvedWithItsFileAndTheFilesAfterItOnly() throws {
        let (folder, mark) = try Self.uniqueRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        func load(_ cap: Int64) throws -> RuleSet {
            try RuleSet.load(folder.path, overrides: [try KnobOverride(path: "pricing.rollover_cap", value: .integer(cap))])
        }
        let five = try load(5)
        #expect(Self.remembered(mark) == RuleSet.fileNames.count)
        let seven = try load(7)
        // pricing.lua and the two files after it (quests.lua, modes.lua) again; escalation.lua and streaks.lua remembered.
        #expect(RuleSet.fileNames.firstIndex(of: "pricing.lua") == 2)
        #expect(Self.remembered(mark) == RuleSet.fileNames.count + 3)
        #expect(five.provedInputs.map(\.1) == seven.provedInputs.map(\.1))
        #expect(five.unproved == seven.unproved)
    }
}
