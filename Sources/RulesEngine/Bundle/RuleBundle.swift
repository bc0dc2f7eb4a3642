import BuiltInDefaults
import Crypto
import Foundation
import LuaHost
import RulesModel

/// A rule set as one signed file that an app's engine can fetch, verify and activate
/// (`rulesrun bundle`; docs/bundles.md). The file is a JSON object:
///
/// ```
/// {"rulesrun_bundle": 1,
///  "manifest": "<the manifest's JSON text: revision, build facts, each file's path, size and SHA-256>",
///  "signature": {"key": "<the signing key's id>", "ed25519": "<base64>"},
///  "files": {"escalation.lua": "<its text>", …, "base/pricing.lua": "…", "extends": "base\n"}}
/// ```
///
/// The Ed25519 signature covers the manifest's exact bytes; the manifest lists every file with its
/// SHA-256, so a change to any byte of any file, a file added or removed, or a manifest field
/// changed is refused. A folder that extends another is held whole: its own files at the top, the
/// folder it extends under `base/` (and so on), each level's `extends` naming `base`, so that the
/// bundle stands alone. A bundle that runs an experiment (``BundleManifest/experiment``) holds its
/// first arm's rule set so, and each other arm's under `arms/ARM/` (its own `base/` levels included).
public struct RuleBundle: Sendable {
    public let manifest: BundleManifest
    /// The id of the key that signed it (one of the trusted keys).
    public let signer: String
    /// The files, in the manifest's order.
    public let files: [(path: String, bytes: [UInt8])]
    /// The bundle's bytes as read (what is kept on disk as the last good bundle).
    public let bytes: [UInt8]

    /// The largest bundle read, file, and number of files; the longest path inside it.
    public static let maxBytes = 32 << 20
    static let maxFileBytes = LuaLimits.default.maxSourceBytes
    static let maxFiles = 256
    static let maxPathLength = 200
    /// The deepest chain of `base/` folders (a folder extending one that extends …).
    static let maxDepth = 8

    /// The names a bundle's files may have at each level.
    static let ruleFileNames = RuleSet.fileNames + [RuleSet.metricsFileName]

    /// Reads and verifies the bundle `data` (from `source`, the file or URL messages name): its
    /// size and JSON, a signature by one of `keys` over its manifest, the manifest's fields, and
    /// that the files are exactly those the manifest lists, each with its size and SHA-256, at
    /// paths that stay inside the bundle. Nothing is loaded; throws the first problem found.
    public static func read(_ data: [UInt8], source: String, trusting keys: [BundlePublicKey]) throws(BundleError) -> RuleBundle {
        try read(data, source: source, keys: keys)
    }

    /// The bundle `data`, every check of ``read(_:source:trusting:)`` made but the signature's:
    /// `signer` is the key id the bundle names, not checked (`rulesrun bundle diff`; never for loading).
    package static func readWithoutVerifying(_ data: [UInt8], source: String) throws(BundleError) -> RuleBundle {
        try read(data, source: source, keys: nil)
    }

    /// `keys`: the trusted keys, or nil to leave the signature unchecked.
    private static func read(_ data: [UInt8], source: String, keys: [BundlePublicKey]?) throws(BundleError) -> RuleBundle {
        let (top, manifestBytes, keyID, raw) = try envelope(data, source: source)
        if let keys {
            let trusted = keys.map(\.id).joined(separator: ", ")
            guard let key = keys.first(where: { $0.id == keyID }) else {
                throw BundleError(
                    source, "signed by key \(keyID), which is not a trusted key (trusted: \(keys.isEmpty ? "none" : trusted))")
            }
            guard key.isValidSignature([UInt8](raw), for: manifestBytes) else {
                throw BundleError(
                    source, "the signature is not key \(keyID)'s signature of the manifest: the manifest was changed after it was signed")
            }
        }
        let manifest = try BundleManifest(bytes: manifestBytes, source: source)
        guard manifest.requiresRuleInterface == BundleManifest.ruleInterface else {
            throw BundleError(
                source,
                "manifest.requires_rule_interface: \(manifest.requiresRuleInterface), this engine offers rule interface \(BundleManifest.ruleInterface) (built with \(manifest.builtWith))")
        }
        // The files: exactly those listed, each as signed.
        guard case .object(let held) = try top.value("files") else { throw BundleError(source, "bundle.files: expected an object of texts by path") }
        var files: [(String, [UInt8])] = []
        for entry in manifest.files {
            try checkPath(entry.path, experiment: manifest.experiment, source: source)
            guard let value = held.first(where: { $0.0 == entry.path })?.1 else {
                throw BundleError(source, "\(entry.path): listed in the manifest, but the bundle does not hold it")
            }
            guard case .string(let text) = value else { throw BundleError(source, "bundle.files.\(entry.path): expected the file's text") }
            let bytes = Array(text.utf8)
            guard bytes.count == entry.size else {
                throw BundleError(source, "\(entry.path): \(bytes.count) bytes, the manifest signed \(entry.size)")
            }
            guard BundleManifest.hex(SHA256.hash(data: bytes)) == entry.sha256 else {
                throw BundleError(source, "\(entry.path): its SHA-256 is not the one the manifest signed (the file was changed)")
            }
            files.append((entry.path, bytes))
        }
        if let extra = held.first(where: { path, _ in !manifest.files.contains { $0.path == path } }) {
            throw BundleError(source, "\(extra.0.prefix(200)): the bundle holds it, but the manifest does not list it")
        }
        for arm in manifest.experiment?.arms.indices ?? 0..<1 {
            let prefix = manifest.experiment?.prefix(ofArm: arm) ?? ""
            let own = files.filter { arm == 0 ? !$0.0.hasPrefix("arms/") : $0.0.hasPrefix(prefix) }
            try checkChain(own.map { String($0.0.dropFirst(prefix.count)) }, files: own, prefix: prefix, source: source)
        }
        return RuleBundle(manifest: manifest, signer: keyID, files: files, bytes: data)
    }

    /// The bundle's parts: its top object, the manifest's bytes, the signing key's id and the signature.
    private static func envelope(_ data: [UInt8], source: String) throws(BundleError) -> (ManifestReader, [UInt8], String, Data) {
        guard data.count <= maxBytes else {
            throw BundleError(source, "\(data.count) bytes, more than the \(maxBytes) a bundle may have")
        }
        guard !data.isEmpty else { throw BundleError(source, "empty: not a bundle") }
        let value: JSONValue
        do { value = try JSONLine.parse(utf8: data, firstIndex: 0) } catch {
            throw BundleError(source, "not a bundle (\(error.kind == .syntax ? "malformed or truncated JSON" : "bad JSON"): \(error.description))")
        }
        let top = try ManifestReader(file: source, value: value, path: "bundle")
        try top.onlyKeys(["rulesrun_bundle", "manifest", "signature", "files"])
        guard case .int(1)? = top.members.first(where: { $0.0 == "rulesrun_bundle" })?.1 else {
            throw BundleError(source, "not a bundle of this format (rulesrun_bundle: expected 1)")
        }
        guard case .string(let manifestText) = try top.value("manifest") else {
            throw BundleError(source, "bundle.manifest: expected the manifest's JSON text in a string")
        }
        // The signature first: nothing a key we do not trust wrote is read further.
        let signature = try top.object("signature")
        try signature.onlyKeys(["key", "ed25519"])
        let keyID = try signature.string("key", maxLength: 16)
        guard case .string(let encoded) = try signature.value("ed25519"), let raw = Data(base64Encoded: encoded), raw.count == 64 else {
            throw BundleError(source, "bundle.signature.ed25519: expected a 64-byte Ed25519 signature in base64")
        }
        return (top, Array(manifestText.utf8), keyID, raw)
    }

    /// The manifest of bundle `data` and the id of the key that says it signed it, its signature
    /// NOT checked (`rulesrun bundle inspect`; never for loading).
    public static func manifestWithoutVerifying(_ data: [UInt8], source: String) throws(BundleError) -> (BundleManifest, String) {
        let (_, manifestBytes, keyID, _) = try envelope(data, source: source)
        return (try BundleManifest(bytes: manifestBytes, source: source), keyID)
    }

    /// A path inside a bundle: `NAME` or `base/…/NAME`, NAME a rule file, `metrics.lua` or `extends`,
    /// or such a path under `arms/ARM/` for an arm of the experiment but the control.
    static func checkPath(_ path: String, experiment: BundleExperiment?, source: String) throws(BundleError) {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let name = parts.removeLast()
        if parts.first == "arms", parts.count >= 2, let experiment, experiment.arms.dropFirst().contains(where: { $0.name == parts[1] }) {
            parts.removeFirst(2)
        }
        guard !path.hasPrefix("/"), parts.allSatisfy({ $0 == "base" }), parts.count <= maxDepth,
            ruleFileNames.contains(name) || name == "extends"
        else {
            throw BundleError(
                source,
                "\(path.prefix(200)): not a path a bundle may hold (a rule file, \(RuleSet.metricsFileName) or extends, at the top or under base/"
                    + (experiment == nil ? ")" : ", or so under arms/ARM/ for an arm of the experiment but the first)"))
        }
    }

    /// Each level of an arm's files (`paths`, without the arm's `prefix`) but the deepest extends
    /// the next (`extends` holds `base`); the deepest extends nothing.
    static func checkChain(_ paths: [String], files: [(String, [UInt8])], prefix: String, source: String) throws(BundleError) {
        let depth = paths.map { $0.components(separatedBy: "/").count - 1 }.max() ?? 0
        for level in 0...depth {
            let path = prefix + String(repeating: "base/", count: level) + "extends"
            let extends = files.first { $0.0 == path }
            if level < depth {
                guard let extends, String(decoding: extends.1, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "base" else {
                    throw BundleError(source, "\(path): expected 'base' (the level below), as a bundle is built")
                }
            } else if extends != nil {
                throw BundleError(source, "\(path): the deepest level of a bundle's rule set extends nothing")
            }
        }
    }

    /// The index in the experiment's arms of the arm named `name` (nil: the control, 0); throws
    /// when the bundle has no such arm.
    public func armIndex(_ name: String?) throws(BundleError) -> Int {
        guard let name else { return 0 }
        guard let experiment = manifest.experiment else {
            throw BundleError(manifest.source, "arm \(name.prefix(60)): this bundle runs no experiment (it has one rule set)")
        }
        guard let index = experiment.arms.firstIndex(where: { $0.name == name }) else {
            throw BundleError(
                manifest.source,
                "arm \(name.prefix(60)): experiment \(experiment.name) has arms \(experiment.arms.map(\.name).joined(separator: ", "))")
        }
        return index
    }

    /// Writes the rule set of arm `arm` (the index in the experiment's arms; 0, the control, for a
    /// bundle without one) into `folder` (new or empty) as rule folders that `RuleSet.load`
    /// reads: each level in a folder of its own (`0`, `1`, …; each `extends` naming the next), and
    /// returns the top one's path.
    @discardableResult
    public func unpack(into folder: URL, arm: Int = 0) throws -> URL {
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("0"), withIntermediateDirectories: true)
        let prefix = manifest.experiment?.prefix(ofArm: arm) ?? ""
        for file in files {
            // The control's files are the bundle's own; another arm's are under its prefix.
            guard arm == 0 ? !file.path.hasPrefix("arms/") : file.path.hasPrefix(prefix) else { continue }
            let (path, bytes) = (String(file.path.dropFirst(prefix.count)), file.bytes)
            let level = path.components(separatedBy: "/").count - 1
            let name = (path as NSString).lastPathComponent
            let url = folder.appendingPathComponent("\(level)").appendingPathComponent(name)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            // An `extends` holds `base` (checked): on disk, the next level's folder.
            try Data(name == "extends" ? Array("../\(level + 1)\n".utf8) : bytes).write(to: url, options: .withoutOverwriting)
        }
        return folder.appendingPathComponent("0")
    }

    /// Calls `body` with the bundle unpacked (``unpack(into:)``) in a new temporary folder, which
    /// is removed afterwards.
    package func withUnpacked<T>(arm: Int = 0, _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(try unpack(into: folder, arm: arm))
    }

    /// The rule folder of arm `arm` unpacked (``unpack(into:arm:)``) into the per-user cache
    /// (`bundles/<digest>/<arm>` of `BuiltInDefaults.cacheFolder`), once: into a temporary folder
    /// renamed into place, so that a folder of that name is always whole, whoever wrote it. For
    /// commands that read a bundle's rules as a folder (`simulate --rules FILE.bundle`; a rollout's arms, in
    /// `bundles/<digest>/rollout-<arm>`, apart from the arms named one by one).
    package func cachedFolder(arm: Int = 0, rollout: Bool = false) throws -> URL {
        let digest = BundleManifest.hex(SHA256.hash(data: bytes)).prefix(32)
        // A rollout's arms apart from the arms named one by one: its control's folder says it is a rollout's.
        let name = rollout ? "rollout-\(arm)" : "\(arm)"
        let target = BuiltInDefaults.cacheFolder().appendingPathComponent("bundles/\(digest)/\(name)", isDirectory: true)
        return try BuiltInDefaults.folderOnce(target) { try unpack(into: $0, arm: arm) }.appendingPathComponent("0")
    }

    /// Writes `bytes` beside `url` under a new name, then renames it over `url`: a reader sees the
    /// old file or the new one, whole, never a part (the bundle files of `rulesrun bundle` and of
    /// ``BundledEngine``).
    package static func replaceFile(_ bytes: [UInt8], to url: URL) throws(BundleError) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).new")
        do {
            try Data(bytes).write(to: temporary, options: .withoutOverwriting)
            guard rename(temporary.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw BundleError(url.path, "cannot write it: \(error)")
        }
    }

    /// The bundle of the rule folder at `path` (its own files and those of the folders it extends),
    /// signed with `key`. With an `experiment`, `path` is its first arm's rule set (the control)
    /// and `arms` gives the folder of each other arm, by name. `validation` and `tests` are what
    /// was found when building it.
    public static func build(
        folder path: String, experiment: BundleExperiment? = nil, arms: [String: String] = [:], key: BundleSigningKey, revision: Int,
        rollback: Bool, created: Date, builtWith: String, provedFunctions: Int, provedInputs: Int, testsPassed: Int, testsFailed: Int
    ) throws -> [UInt8] {
        var files = try files(ofFolder: path, prefix: "")
        for (index, arm) in (experiment?.arms ?? []).enumerated().dropFirst() {
            guard let folder = arms[arm.name] else { throw BundleError(path, "arm \(arm.name): no rule folder given for it") }
            files += try Self.files(ofFolder: folder, prefix: experiment!.prefix(ofArm: index))
        }
        let manifest = BundleManifest(
            revision: revision, rollback: rollback, created: ISO8601DateFormatter().string(from: created), source: path,
            builtWith: builtWith, provedFunctions: provedFunctions, provedInputs: provedInputs, testsPassed: testsPassed,
            testsFailed: testsFailed,
            files: files.map { BundleManifest.File(path: $0.0, bytes: $0.1) }, experiment: experiment)
        return try assemble(manifest: manifest.jsonText, files: files.map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }, key: key)
    }

    /// The files of the rule folder at `path` and of those it extends, each level under one more
    /// `base/`, all under `prefix`.
    static func files(ofFolder path: String, prefix: String) throws -> [(String, [UInt8])] {
        let sources = try RuleSources(path)
        var files: [(String, [UInt8])] = []
        for (level, link) in sources.chain.enumerated() {
            let levelPrefix = prefix + String(repeating: "base/", count: level)
            for name in ruleFileNames {
                let url = link.folder.root.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: url.path) else { continue }
                files.append((levelPrefix + name, try SourceFile.read(url.path, maxBytes: maxFileBytes)))
            }
            if level < sources.chain.count - 1 { files.append((levelPrefix + "extends", Array("base\n".utf8))) }
        }
        return files
    }

    /// The bundle file of `manifest` (its text, as signed) and `files`, signed by `key` (which the
    /// signature names by its id).
    package static func assemble(manifest: String, files: [(String, String)], key: BundleSigningKey) throws -> [UInt8] {
        let signature = try key.sign(Array(manifest.utf8))
        let document: JSONValue = .object([
            ("rulesrun_bundle", .int(1)), ("manifest", .string(manifest)),
            ("signature", .object([("key", .string(key.publicKey.id)), ("ed25519", .string(Data(signature).base64EncodedString()))])),
            ("files", .object(files.map { ($0.0, .string($0.1)) })),
        ])
        return Array((document.description + "\n").utf8)
    }
}
