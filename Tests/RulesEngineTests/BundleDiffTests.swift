import Foundation
import LuaHost
import RulesEngine
import Testing

/// `BundleDiff`: what differs between two bundles, file by file and, in the rules, knob by knob,
/// param by param and function by function (docs/bundles.md).
@Suite struct BundleDiffTests {
    static let key = BundleSigningKey.generate()

    /// The bundle of `folder`, read back (build facts given: the diff does not prove anything).
    static func bundle(_ folder: URL, revision: Int = 1, created: TimeInterval = 1_800_000_000) throws -> RuleBundle {
        let bytes = try RuleBundle.build(
            folder: folder.path, key: key, revision: revision, rollback: false, created: Date(timeIntervalSince1970: created),
            builtWith: "test", provedFunctions: 16, provedInputs: 89_000, testsPassed: 41, testsFailed: 0)
        return try RuleBundle.read(bytes, source: "b.bundle", trusting: [key.publicKey])
    }

    static let base = try! bundle(RuleFixture.rulesFolder)

    @Test func theSameRulesDifferOnlyInTheirManifest() throws {
        let later = try Self.bundle(RuleFixture.rulesFolder, revision: 2, created: 1_800_003_600)
        let diff = try BundleDiff(Self.base, source: "a", later, source: "b")
        #expect(diff.sameRules)
        #expect(diff.files.isEmpty && diff.knobs.isEmpty && diff.params.isEmpty && diff.functions.isEmpty)
        #expect(diff.manifest.map(\.name) == ["revision", "created"])
        #expect(diff.manifest.map(\.b) == [.int(2), .string("2027-01-15T09:00:00Z")])
    }

    /// A knob changed, a param declared, a function edited and lines inserted above the others:
    /// the functions that only moved are not listed.
    @Test func knobsParamsAndFunctionsThatDiffer() throws {
        let pricing = try RuleFixture.defaultSource("pricing.lua")
        let edited = RuleFixture.edit(
            pricing,
            [
                ("local M = {}\n", "local M = {}\n\nM.params = {\n  bonus = { type = \"integer\", min = 0, max = 9, default = 2 },\n}\n"),
                ("{ minutes = 15, credits = 25 }", "{ minutes = 15, credits = 30 }"),
                ("return math.min(balance, M.rollover_cap)", "return math.min(balance, M.rollover_cap + 0)"),
            ])
        let changed = try Self.bundle(try RuleFixture.folder(replacing: "pricing.lua", with: edited))
        let diff = try BundleDiff(Self.base, source: "a", changed, source: "b")
        #expect(!diff.sameRules)
        #expect(diff.files.map { "\($0.change) \($0.path)" } == ["changed pricing.lua"])
        #expect(
            diff.knobs.map { "\($0.path): \($0.a.map(\.description) ?? "-") → \($0.b.map(\.description) ?? "-")" } == [
                "pricing.credit_costs[2].credits: 25 → 30"
            ])
        #expect(
            diff.params.map { "\($0.path): \($0.a?.summary ?? "-") → \($0.b?.summary ?? "-")" } == [
                "pricing.params.bonus: - → bonus integer 0…9 = 2"
            ])
        #expect(
            diff.functions.map { "\($0.name): \($0.a?.description ?? "-") → \($0.b?.description ?? "-")" } == [
                "pricing.carried_credits: pricing.lua:65-67 → pricing.lua:69-71"
            ])
    }

    /// A folder that extends the default rules, its pricing.lua changed: its files at the top, the
    /// default ones under base/; the same bytes at another path are a move, not a removal.
    @Test func filesMovedUnderBaseAndAdded() throws {
        let folder = try RuleFixture.folder(replacing: "pricing.lua", with: "local M = base\nM.rollover_cap = 12\nreturn M\n")
        for name in RuleSet.fileNames where name != "pricing.lua" {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        try "\(RuleFixture.rulesFolder.path)\n".write(to: folder.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        let diff = try BundleDiff(Self.base, source: "a", try Self.bundle(folder), source: "b")
        #expect(
            diff.files.map { "\($0.change) \($0.a?.path ?? "-") \($0.b?.path ?? "-") \($0.sameAs ?? "-")" } == [
                "moved escalation.lua base/escalation.lua -", "moved streaks.lua base/streaks.lua -", "changed pricing.lua pricing.lua -",
                "moved quests.lua base/quests.lua -", "moved modes.lua base/modes.lua -", "added - extends -",
                "added - base/pricing.lua pricing.lua",
            ])
        #expect(diff.knobs.map(\.path) == ["pricing.rollover_cap"])
        #expect(diff.functions.isEmpty)  // the same source, now in base/pricing.lua
        // Back the other way: removals.
        let back = try BundleDiff(try Self.bundle(folder), source: "b", Self.base, source: "a")
        #expect(
            back.files.filter { $0.change == .removed }.map { "\($0.path) \($0.sameAs ?? "-")" } == [
                "extends -", "base/pricing.lua pricing.lua",
            ])
    }

    @Test func rulesThatDoNotLoadAreNamed() throws {
        let broken = try Self.bundle(try RuleFixture.folder(replacing: "pricing.lua", with: "return 3\n"))
        do {
            _ = try BundleDiff(Self.base, source: "a", broken, source: "broken.bundle")
            Issue.record("rules that do not load were compared")
        } catch {
            #expect(error.description.hasPrefix("broken.bundle: the bundle's rules do not load:\npricing.lua"), "\(error)")
        }
    }

    /// Nothing but the signature is left unchecked: a changed byte is still refused.
    @Test func readingWithoutVerifyingChecksEverythingButTheSignature() throws {
        let other = BundleSigningKey.generate()
        let bytes = try RuleBundle.build(
            folder: RuleFixture.rulesFolder.path, key: other, revision: 1, rollback: false, created: Date(), builtWith: "test",
            provedFunctions: 0, provedInputs: 0, testsPassed: 0, testsFailed: 0)
        #expect(try RuleBundle.readWithoutVerifying(bytes, source: "b").signer == other.publicKey.id)
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "credits = 25", with: "credits = 26")
        #expect(throws: BundleError("b", "pricing.lua: its SHA-256 is not the one the manifest signed (the file was changed)")) {
            try RuleBundle.readWithoutVerifying(Array(text.utf8), source: "b")
        }
    }
}
