import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesSim

struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Build, verify and inspect signed rule bundles: one file that an app's engine fetches and activates.",
        discussion: """
            `rulesrun bundle DIR --key KEY --out FILE` validates the rule folder (with its proofs) and runs its \
            tests; when both pass it writes one file holding every rule file (those the folder extends \
            included, so that it stands alone), a manifest (revision, creation time, the engine and rule \
            interface it needs, what validation proved and the tests' results) and an Ed25519 signature over \
            the manifest, which lists each file's SHA-256. docs/bundles.md

            Examples:
              rulesrun keygen release
              rulesrun bundle rules --key release.key --out rules.bundle
              rulesrun bundle verify rules.bundle --public-key release.pub
              rulesrun bundle inspect rules.bundle
            """,
        subcommands: [Build.self, Verify.self, Inspect.self],
        defaultSubcommand: Build.self
    )

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build", abstract: "Validate and test a rule folder, and write it as a signed bundle.")

        @Argument(help: "The rule folder.") var directory: String
        @Option(help: "The private key that signs the bundle (rulesrun keygen).") var key: String
        @Option(help: "The bundle file to write (replaced only once the new one is whole).") var out: String
        @Option(
            help:
                "The bundle's revision, 1 to 2147483647. Default: one more than --out's when it is a bundle signed by the same key, else 1."
        )
        var revision: Int?
        @Flag(help: "Mark the bundle as a rollback: an engine accepts it even below the revision it runs.") var rollback = false

        func run() throws {
            let signingKey: BundleSigningKey
            do { signingKey = try BundleSigningKey(file: key) } catch {
                Terminal.error("\(error)")
                throw ExitCode(2)
            }
            let revision = try self.revision ?? nextRevision(signingKey)
            guard (1...Int(Int32.max)).contains(revision) else {
                Terminal.error("--revision: expected 1 to \(Int32.max), found \(revision)")
                throw ExitCode(2)
            }
            try Output.check(out, option: "--out")
            // Validation with its proofs: an engine loading the bundle does not prove it again.
            let ruleSet: RuleSet
            do { ruleSet = try RuleSet.load(directory) } catch let error as RuleSetError {
                for problem in error.problems { Terminal.error(problem.description) }
                Terminal.error("\(directory): the rule set is not valid; no bundle was written")
                throw ExitCode(1)
            }
            let results = try RuleTestRunner.run(directory, validated: ruleSet.snapshot, properties: PropertyRunner())
            let failed = results.filter { $0.outcome.failsTheRun }
            if !failed.isEmpty {
                for result in failed.prefix(10) { Terminal.error("\(result.outcome.rawValue)  \(result.file):\(result.line) \(result.name)") }
                Terminal.error("\(directory): \(failed.count) test\(failed.count == 1 ? "" : "s") failed (rulesrun test \(directory) shows them); no bundle was written")
                throw ExitCode(1)
            }
            let bytes = try RuleBundle.build(
                folder: directory, key: signingKey, revision: revision, rollback: rollback, created: Date(),
                builtWith: RulesrunVersion.number, provedFunctions: ruleSet.provedInputs.count,
                provedInputs: ruleSet.provedInputs.reduce(0) { $0 + $1.inputs }, testsPassed: results.filter { $0.outcome == .passed }.count,
                testsFailed: 0)
            try BundleFile.replace(out, with: bytes)
            let bundle = try RuleBundle.read(bytes, source: out, trusting: [signingKey.publicKey])
            Terminal.line(
                "wrote \(out): revision \(revision)\(rollback ? " (rollback)" : ""), \(bundle.files.count) files, \(bytes.count) bytes, signed by \(signingKey.publicKey.id); "
                    + "\(bundle.manifest.provedFunctions) rule functions proved on \(bundle.manifest.provedInputs) inputs, \(bundle.manifest.testsPassed) tests passed")
        }

        /// One more than the revision of the bundle at `out`, when it is one that `key` signed.
        func nextRevision(_ key: BundleSigningKey) throws -> Int {
            let path = WorkingFolder.resolve(out)
            guard FileManager.default.fileExists(atPath: path) else { return 1 }
            do {
                let existing = try RuleBundle.read(try SourceFile.read(path, maxBytes: RuleBundle.maxBytes), source: out, trusting: [key.publicKey])
                return existing.manifest.revision + 1
            } catch {
                Terminal.error("\(out) exists, but its revision cannot be read (\(error)); give --revision")
                throw ExitCode(2)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify", abstract: "Check a bundle's signature, manifest and files against trusted public keys.")

        @Argument(help: "The bundle file.") var file: String
        @Option(name: .customLong("public-key"), help: "A trusted public key file (repeatable).") var publicKeys: [String]

        func run() throws {
            do {
                let keys = try publicKeys.map { path throws(BundleError) in try BundlePublicKey(file: path) }
                let bundle = try BundleFile.read(file, trusting: keys)
                // Loaded and type-checked as an engine would before activating it (no proofs).
                try BundleFile.withUnpacked(bundle) { folder in _ = try RuleSet.load(folder.path, proving: false) }
                Terminal.line(
                    "\(file): valid bundle, revision \(bundle.manifest.revision)\(bundle.manifest.rollback ? " (rollback)" : ""), signed by \(bundle.signer), "
                        + "\(bundle.files.count) files, the rules load")
            } catch let error as BundleError {
                Terminal.error("\(error)")
                throw ExitCode(1)
            } catch let error as RuleSetError {
                Terminal.error("\(file): the bundle's rules do not load:\n\(error)")
                throw ExitCode(1)
            }
        }
    }

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect", abstract: "Print a bundle's manifest: revision, build facts and files (its signature is not checked).")

        @Argument(help: "The bundle file.") var file: String
        @Flag(help: "Print the manifest as JSON.") var json = false

        func run() throws {
            do {
                let (manifest, signer) = try BundleFile.readUnverified(file)
                if json { return Terminal.line(manifest.jsonText) }
                Terminal.line("\(file): revision \(manifest.revision)\(manifest.rollback ? " (rollback)" : ""), signed by key \(signer) (not checked: bundle verify checks it)")
                Terminal.line("  created      \(manifest.created) by rulesrun \(manifest.builtWith) from \(manifest.source)")
                Terminal.line("  rule interface \(manifest.requiresRuleInterface); rules digest \(manifest.rulesDigest)")
                Terminal.line("  validation   \(manifest.provedFunctions) rule functions proved on \(manifest.provedInputs) inputs")
                Terminal.line("  tests        \(manifest.testsPassed) passed, \(manifest.testsFailed) failed")
                for f in manifest.files { Terminal.line("  \(f.path)  \(f.size) bytes  sha256 \(f.sha256.prefix(16))…") }
            } catch let error as BundleError {
                Terminal.error("\(error)")
                throw ExitCode(1)
            }
        }
    }
}

/// Bundle files on disk, for the commands.
enum BundleFile {
    static func bytes(_ path: String) throws(BundleError) -> [UInt8] {
        do { return try SourceFile.read(WorkingFolder.resolve(path), maxBytes: RuleBundle.maxBytes) } catch {
            throw BundleError(path, error.description)
        }
    }

    static func read(_ path: String, trusting keys: [BundlePublicKey]) throws(BundleError) -> RuleBundle {
        try RuleBundle.read(try bytes(path), source: path, trusting: keys)
    }

    /// The manifest and signer of the bundle at `path`, its signature not checked (`inspect`).
    static func readUnverified(_ path: String) throws(BundleError) -> (BundleManifest, String) {
        try RuleBundle.manifestWithoutVerifying(try bytes(path), source: path)
    }

    /// Calls `body` with the bundle unpacked in a new temporary folder, removed afterwards.
    static func withUnpacked<T>(_ bundle: RuleBundle, _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(try bundle.unpack(into: folder))
    }

    /// Writes `bytes` beside `path`, then renames it over `path`: a reader sees the old bundle or
    /// the new one, whole, never a part.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        let target = URL(fileURLWithPath: WorkingFolder.resolve(path))
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).new")
        do {
            try Data(bytes).write(to: temporary, options: .withoutOverwriting)
            guard rename(temporary.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            Terminal.error("cannot write \(path): \(error)")
            throw ExitCode(2)
        }
    }
}
