import Foundation
import RulesEngine
import RulesModel
import Testing

/// A bundle changed in any way after it was signed is refused with a message naming what is
/// wrong: a byte of any file, a file added or removed, a manifest field, another key's signature,
/// a path that leaves the bundle, a huge or truncated file (docs/bundles.md).
@Suite struct RuleBundleTamperTests {
    static let key = BundleSigningKey.generate()
    static let other = BundleSigningKey.generate()
    /// The default rules, built once (their proofs are the builder's job: here the numbers are given).
    static let good: [UInt8] = try! RuleBundle.build(
        folder: RuleFixture.rulesFolder.path, key: key, revision: 3, rollback: false, created: Date(timeIntervalSince1970: 1_800_000_000),
        builtWith: "test", provedFunctions: 16, provedInputs: 89_000, testsPassed: 41, testsFailed: 0)

    /// The bundle as its parts: the manifest's text, the files, the signature's key id and value.
    struct Parts {
        var manifest: String
        var files: [(String, String)]

        init(_ bytes: [UInt8]) throws {
            guard case .object(let top) = try JSONLine.parse(utf8: bytes, firstIndex: 0),
                case .string(let manifest)? = top.first(where: { $0.0 == "manifest" })?.1,
                case .object(let files)? = top.first(where: { $0.0 == "files" })?.1
            else { throw CocoaError(.fileReadCorruptFile) }
            self.manifest = manifest
            self.files = files.map { name, value in
                guard case .string(let text) = value else { return (name, "") }
                return (name, text)
            }
        }

        func signed(by key: BundleSigningKey = RuleBundleTamperTests.key) throws -> [UInt8] {
            try RuleBundle.assemble(manifest: manifest, files: files, key: key)
        }
    }

    func refusal(_ bytes: [UInt8], trusting keys: [BundlePublicKey] = [key.publicKey]) -> String {
        do {
            _ = try RuleBundle.read(bytes, source: "b.bundle", trusting: keys)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func theGoodBundleIsReadWithEveryFile() throws {
        let bundle = try RuleBundle.read(Self.good, source: "b.bundle", trusting: [Self.other.publicKey, Self.key.publicKey])
        #expect(bundle.manifest.revision == 3 && bundle.signer == Self.key.publicKey.id)
        #expect(bundle.files.map(\.path) == ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"])
        let rules = try String(contentsOf: RuleFixture.rulesFolder.appendingPathComponent("streaks.lua"), encoding: .utf8)
        #expect(bundle.files[1].bytes == Array(rules.utf8))
    }

    /// Any byte of any file, changed in place (the bundle's JSON still whole).
    @Test func aChangedByteOfAnyFileIsRefused() throws {
        let parts = try Parts(Self.good)
        for i in parts.files.indices {
            var changed = parts
            let text = changed.files[i].1
            let at = text.index(text.startIndex, offsetBy: text.count / 2)
            changed.files[i].1 = String(text[..<at]) + (text[at] == "a" ? "b" : "a") + String(text[text.index(after: at)...])
            // The same manifest and signature: only the file changed.
            let bytes = try RuleBundle.assemble(manifest: parts.manifest, files: changed.files, key: Self.key)
            #expect(refusal(bytes) == "b.bundle: \(parts.files[i].0): its SHA-256 is not the one the manifest signed (the file was changed)")
        }
    }

    @Test func aFileAddedOrRemovedIsRefused() throws {
        var added = try Parts(Self.good)
        added.files.append(("metrics.lua", "return {}"))
        #expect(refusal(try added.signed()) == "b.bundle: metrics.lua: the bundle holds it, but the manifest does not list it")
        var removed = try Parts(Self.good)
        removed.files.remove(at: 2)
        #expect(refusal(try removed.signed()) == "b.bundle: pricing.lua: listed in the manifest, but the bundle does not hold it")
    }

    @Test func aChangedManifestFieldBreaksTheSignature() throws {
        let parts = try Parts(Self.good)
        let text = String(decoding: Self.good, as: UTF8.self)
        for (old, new) in [("\\\"revision\\\":3", "\\\"revision\\\":4"), ("\\\"rollback\\\":false", "\\\"rollback\\\":true")] {
            #expect(text.contains(old))
            let bytes = Array(text.replacingOccurrences(of: old, with: new).utf8)
            #expect(refusal(bytes).hasSuffix("the signature is not key \(Self.key.publicKey.id)'s signature of the manifest: the manifest was changed after it was signed"))
        }
        _ = parts
    }

    @Test func anotherKeysSignatureIsRefused() throws {
        let parts = try Parts(Self.good)
        // Signed by a key the engine does not trust.
        #expect(refusal(try parts.signed(by: Self.other)) == "b.bundle: signed by key \(Self.other.publicKey.id), which is not a trusted key (trusted: \(Self.key.publicKey.id))")
        // Another key's signature under the trusted key's id.
        let forged = String(decoding: try parts.signed(by: Self.other), as: UTF8.self)
            .replacingOccurrences(of: Self.other.publicKey.id, with: Self.key.publicKey.id)
        #expect(refusal(Array(forged.utf8)).contains("the signature is not key \(Self.key.publicKey.id)'s signature"))
        #expect(refusal(Self.good, trusting: []) == "b.bundle: signed by key \(Self.key.publicKey.id), which is not a trusted key (trusted: none)")
    }

    /// Paths that would leave the folder a bundle is unpacked into, even in a manifest the trusted key signed.
    @Test(arguments: ["../escalation.lua", "/etc/escalation.lua", "base/../../escalation.lua", "tests/x.lua", "base/base/../x", "evil.sh"])
    func aPathThatLeavesTheBundleIsRefused(path: String) throws {
        var parts = try Parts(Self.good)
        let text = "return {}"
        parts.files.append((path, text))
        parts.manifest = try Self.manifest(parts.manifest, adding: path, text)
        let message = refusal(try parts.signed())
        #expect(message.contains("\(path): not a path a bundle may hold"), "\(message)")
    }

    @Test func aTruncatedOrHugeBundleIsRefused() throws {
        #expect(refusal(Array(Self.good.prefix(Self.good.count / 2))).hasPrefix("b.bundle: not a bundle (malformed or truncated JSON"))
        #expect(refusal([]) == "b.bundle: empty: not a bundle")
        let huge = [UInt8](repeating: 0x20, count: RuleBundle.maxBytes + 1)
        #expect(refusal(huge) == "b.bundle: \(RuleBundle.maxBytes + 1) bytes, more than the \(RuleBundle.maxBytes) a bundle may have")
        // A file larger than a rule file may be, listed and signed as such.
        var parts = try Parts(Self.good)
        let big = String(repeating: "-", count: 4 << 20 + 1)
        parts.files[0].1 = big
        parts.manifest = try Self.manifest(parts.manifest, replacing: "escalation.lua", big)
        #expect(refusal(try parts.signed()).contains("manifest.files[0].size: expected a whole number from 0 to \(4 << 20)"))
    }

    @Test func otherFormatsAndFieldsAreRefused() throws {
        var parts = try Parts(Self.good)
        parts.manifest = parts.manifest.replacingOccurrences(of: "\"requires_rule_interface\":1", with: "\"requires_rule_interface\":2")
        #expect(refusal(try parts.signed()).contains("manifest.requires_rule_interface: 2, this engine offers rule interface 1"))
        var unknown = try Parts(Self.good)
        unknown.manifest = unknown.manifest.replacingOccurrences(of: "\"rollback\":false", with: "\"rollback\":false,\"channel\":\"beta\"")
        #expect(refusal(try unknown.signed()).contains("manifest: unknown field 'channel'"))
        let text = String(decoding: Self.good, as: UTF8.self)
        #expect(refusal(Array(text.replacingOccurrences(of: "{\"rulesrun_bundle\":1", with: "{\"rulesrun_bundle\":2").utf8)).contains("rulesrun_bundle: expected 1"))
    }

    /// The manifest's text with a file added (its size and SHA-256, and the digest of the list).
    static func manifest(_ text: String, adding path: String, _ contents: String) throws -> String {
        try edit(text) { $0.append(BundleManifest.File(path: path, bytes: Array(contents.utf8))) }
    }

    static func manifest(_ text: String, replacing path: String, _ contents: String) throws -> String {
        try edit(text) { files in
            let i = files.firstIndex { $0.path == path }!
            files[i] = BundleManifest.File(path: path, bytes: Array(contents.utf8))
        }
    }

    /// The manifest's text with its file list changed, and the list's digest with it.
    static func edit(_ text: String, _ change: (inout [BundleManifest.File]) -> Void) throws -> String {
        guard case .object(var members) = try JSONLine.parse(text, firstIndex: 0),
            case .array(let list)? = members.first(where: { $0.0 == "files" })?.1
        else { throw CocoaError(.fileReadCorruptFile) }
        var files = list.map { item -> BundleManifest.File in
            guard case .object(let f) = item, case .string(let path) = f[0].1, case .int(let size) = f[1].1, case .string(let hash) = f[2].1
            else { return BundleManifest.File(path: "", size: 0, sha256: "") }
            return BundleManifest.File(path: path, size: size, sha256: hash)
        }
        change(&files)
        for i in members.indices {
            switch members[i].0 {
            case "files":
                members[i].1 = .array(files.map { .object([("path", .string($0.path)), ("size", .int($0.size)), ("sha256", .string($0.sha256))]) })
            case "rules_digest": members[i].1 = .string(BundleManifest.digest(files))
            default: break
            }
        }
        return JSONValue.object(members).description
    }
}
