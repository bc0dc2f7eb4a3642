import Crypto
import Foundation
import RulesModel

/// What a bundle says about itself, signed: its revision, when it was built and by which engine,
/// what validation and the tests found when it was built, and every file it holds with its size
/// and SHA-256. The signature covers these exact bytes (``RuleBundle``).
public struct BundleManifest: Sendable, Equatable {
    /// The bundle format this engine reads and writes.
    public static let format = 1
    /// The rule interface this engine offers rule files (the records it passes, the fields it
    /// reads). A bundle built for another is refused.
    public static let ruleInterface = 1

    /// Raised by each bundle of a rule set; an engine refuses a lower one than it runs unless the
    /// bundle is a ``rollback``.
    public var revision: Int
    /// A bundle that goes back to earlier rules on purpose (built with `--rollback`).
    public var rollback: Bool
    /// When it was built (UTC, ISO 8601).
    public var created: String
    /// The rule folder it was built from, as given (for people; not used to load it).
    public var source: String
    /// The version of the rulesrun that built it, and the rule interface its rules need.
    public var builtWith: String
    public var requiresRuleInterface: Int
    /// What validation proved when it was built (the proofs do not run again when it is loaded).
    public var provedFunctions: Int
    public var provedInputs: Int
    /// The rule set's tests when it was built.
    public var testsPassed: Int
    public var testsFailed: Int
    /// The files, in order, with their sizes and SHA-256 (hex).
    public var files: [File]
    /// The experiment whose arms are the bundle's rule sets (nil: one rule set for every user).
    public var experiment: BundleExperiment?

    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int
        public var sha256: String

        public init(path: String, size: Int, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }

        /// The entry of a file holding `bytes`.
        package init(path: String, bytes: [UInt8]) {
            self.init(path: path, size: bytes.count, sha256: BundleManifest.hex(SHA256.hash(data: bytes)))
        }
    }

    /// The SHA-256 (hex) of the files' list: their paths, sizes and hashes, one line each.
    public var rulesDigest: String { Self.digest(files) }

    package static func digest(_ files: [File]) -> String {
        hex(SHA256.hash(data: Array(files.map { "\($0.path)\t\($0.size)\t\($0.sha256)\n" }.joined().utf8)))
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The manifest's JSON text, as signed.
    public var jsonText: String { json.description }

    /// The manifest as the bytes that are signed.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("bundle_format", .int(Self.format)), ("revision", .int(revision)), ("rollback", .bool(rollback)),
            ("created", .string(created)), ("source", .string(source)), ("built_with", .string(builtWith)),
            ("requires_rule_interface", .int(requiresRuleInterface)), ("rules_digest", .string(rulesDigest)),
            ("validation", .object([("proved_functions", .int(provedFunctions)), ("proved_inputs", .int(provedInputs))])),
            ("tests", .object([("passed", .int(testsPassed)), ("failed", .int(testsFailed))])),
        ]
        if let experiment { members.append(("experiment", experiment.json)) }
        members.append(
            ("files", .array(files.map { .object([("path", .string($0.path)), ("size", .int($0.size)), ("sha256", .string($0.sha256))]) })))
        return .object(members)
    }

    /// The manifest of `bytes` (the signed text), every field checked: `source` names the bundle.
    init(bytes: [UInt8], source file: String) throws(BundleError) {
        let value: JSONValue
        do { value = try JSONLine.parse(utf8: bytes, firstIndex: 0) } catch {
            throw BundleError(file, "manifest: not JSON (\(error.description))")
        }
        let reader = try ManifestReader(file: file, value: value, path: "manifest")
        try reader.onlyKeys([
            "bundle_format", "revision", "rollback", "created", "source", "built_with", "requires_rule_interface", "rules_digest",
            "validation", "tests", "files", "experiment",
        ])
        let format = try reader.int("bundle_format", 1...1_000)
        guard format == Self.format else {
            throw BundleError(file, "manifest.bundle_format: \(format), this engine reads bundles of format \(Self.format)")
        }
        revision = try reader.int("revision", 1...Int(Int32.max))
        rollback = try reader.bool("rollback")
        created = try reader.string("created", maxLength: 40)
        source = try reader.string("source", maxLength: 1000)
        builtWith = try reader.string("built_with", maxLength: 100)
        requiresRuleInterface = try reader.int("requires_rule_interface", 1...1_000)
        let validation = try reader.object("validation")
        try validation.onlyKeys(["proved_functions", "proved_inputs"])
        provedFunctions = try validation.int("proved_functions", 0...1_000)
        provedInputs = try validation.int("proved_inputs", 0...Int(Int32.max))
        let tests = try reader.object("tests")
        try tests.onlyKeys(["passed", "failed"])
        testsPassed = try tests.int("passed", 0...1_000_000)
        testsFailed = try tests.int("failed", 0...1_000_000)
        let list = try reader.array("files", maxCount: RuleBundle.maxFiles)
        files = []
        for (i, element) in list.enumerated() {
            let entry = try ManifestReader(file: file, value: element, path: "manifest.files[\(i)]")
            try entry.onlyKeys(["path", "size", "sha256"])
            let path = try entry.string("path", maxLength: RuleBundle.maxPathLength)
            let size = try entry.int("size", 0...RuleBundle.maxFileBytes)
            let hash = try entry.string("sha256", maxLength: 64)
            guard hash.count == 64, hash.allSatisfy({ "0123456789abcdef".contains($0) }) else {
                throw BundleError(file, "manifest.files[\(i)].sha256: expected 64 lowercase hex digits, found \"\(hash.prefix(80))\"")
            }
            files.append(File(path: path, size: size, sha256: hash))
        }
        experiment = try reader.members.contains { $0.0 == "experiment" } ? BundleExperiment(try reader.object("experiment")) : nil
        let digest = try reader.string("rules_digest", maxLength: 64)
        guard digest == rulesDigest else {
            throw BundleError(file, "manifest.rules_digest: \(digest.prefix(64)) is not the digest of manifest.files (\(rulesDigest))")
        }
    }

    init(
        revision: Int, rollback: Bool, created: String, source: String, builtWith: String, provedFunctions: Int, provedInputs: Int,
        testsPassed: Int, testsFailed: Int, files: [File], experiment: BundleExperiment? = nil
    ) {
        self.experiment = experiment
        self.revision = revision
        self.rollback = rollback
        self.created = created
        self.source = source
        self.builtWith = builtWith
        requiresRuleInterface = Self.ruleInterface
        self.provedFunctions = provedFunctions
        self.provedInputs = provedInputs
        self.testsPassed = testsPassed
        self.testsFailed = testsFailed
        self.files = files
    }
}

/// Reads the members of a JSON object of a bundle, each checked, errors naming the field's path.
struct ManifestReader {
    let file: String
    let members: [(String, JSONValue)]
    let path: String

    init(file: String, value: JSONValue, path: String) throws(BundleError) {
        guard case .object(let members) = value else { throw BundleError(file, "\(path): expected an object, found \(Self.kind(value))") }
        self.file = file
        self.members = members
        self.path = path
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    func onlyKeys(_ keys: [String]) throws(BundleError) {
        for (key, _) in members where !keys.contains(key) {
            throw BundleError(file, "\(path): unknown field '\(key.prefix(80))' (expected \(keys.joined(separator: ", ")))")
        }
    }

    func value(_ key: String) throws(BundleError) -> JSONValue {
        guard let value = members.first(where: { $0.0 == key })?.1 else { throw BundleError(file, "\(path).\(key): missing") }
        return value
    }

    func int(_ key: String, _ range: ClosedRange<Int>) throws(BundleError) -> Int {
        guard case .int(let n) = try value(key), range.contains(n) else {
            throw BundleError(file, "\(path).\(key): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    func bool(_ key: String) throws(BundleError) -> Bool {
        guard case .bool(let b) = try value(key) else { throw BundleError(file, "\(path).\(key): expected true or false") }
        return b
    }

    func string(_ key: String, maxLength: Int) throws(BundleError) -> String {
        guard case .string(let s) = try value(key), s.utf8.count <= maxLength * 4, s.count <= maxLength else {
            throw BundleError(file, "\(path).\(key): expected a string of at most \(maxLength) characters")
        }
        return s
    }

    func object(_ key: String) throws(BundleError) -> ManifestReader {
        try ManifestReader(file: file, value: try value(key), path: "\(path).\(key)")
    }

    func array(_ key: String, maxCount: Int) throws(BundleError) -> [JSONValue] {
        guard case .array(let items) = try value(key), items.count <= maxCount else {
            throw BundleError(file, "\(path).\(key): expected a list of at most \(maxCount) elements")
        }
        return items
    }
}
