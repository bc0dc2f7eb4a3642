import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesModel
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
            the manifest, which lists each file's SHA-256. With --experiment, DIR is the control arm and each \
            --arm NAME=DIR another arm; a user's arm is a salted SHA-256 of its name, the arms' shares in basis \
            points (--allocation), kept as the rollout grows (docs/bundles.md#experiments). docs/bundles.md

            Examples:
              rulesrun keygen release
              rulesrun bundle rules --key release.key --out rules.bundle
              rulesrun bundle rules --key release.key --out rules.bundle --experiment esc-2026 --arm lenient=rules-lenient \
            --allocation control=90%,lenient=10%
              rulesrun bundle verify rules.bundle --public-key release.pub
              rulesrun bundle fetch https://cdn.example.com/rules.bundle --public-key release.pub
              rulesrun bundle inspect rules.bundle
              rulesrun bundle diff live.bundle rules.bundle
            """,
        subcommands: [Build.self, Verify.self, Fetch.self, Inspect.self, Diff.self],
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
        @Option(help: "Run an experiment of this name: DIRECTORY is its first arm (the control), --arm adds the others.")
        var experiment: String?
        @Option(help: "The experiment's salt (default: its name): another salt assigns users independently.") var salt: String?
        @Option(help: "The control arm's name.") var control = "control"
        @Option(help: "Another arm of the experiment and its rule folder, NAME=DIRECTORY (repeatable).") var arm: [String] = []
        @Option(
            help: """
                Each arm's share of users, NAME=SHARE,… with SHARE in basis points (2500) or percent (25%); adding up to                 10000 (100%). Default: equal shares, the remainder to the control.
                """)
        var allocation: String?
        @Option(name: .customLong("kill-switch"), help: "Put every user on this arm (all 10000 basis points).") var killSwitch: String?
        @Option(
            help:
                "The bundle this one replaces, whose experiment's buckets each arm keeps (default: --out, when it runs the same experiment and salt)."
        )
        var previous: String?

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
            let (experiment, arms) = try self.experimentArms()
            // Validation with its proofs (an engine loading the bundle does not prove it again) and the tests, of every arm.
            var (proved, inputs, passed) = (0, 0, 0)
            for folder in [directory] + arms.values.sorted() {
                let ruleSet: RuleSet
                do { ruleSet = try RuleSet.load(folder) } catch let error as RuleSetError {
                    for problem in error.problems { Terminal.error(problem.description) }
                    Terminal.error("\(folder): the rule set is not valid; no bundle was written")
                    throw ExitCode(1)
                }
                let results = try RuleTestRunner.run(folder, validated: ruleSet.snapshot, properties: PropertyRunner())
                let failed = results.filter { $0.outcome.failsTheRun }
                if !failed.isEmpty {
                    for result in failed.prefix(10) { Terminal.error("\(result.outcome.rawValue)  \(result.file):\(result.line) \(result.name)") }
                    Terminal.error("\(folder): \(failed.count) test\(failed.count == 1 ? "" : "s") failed (rulesrun test \(folder) shows them); no bundle was written")
                    throw ExitCode(1)
                }
                proved += ruleSet.provedInputs.count
                inputs += ruleSet.provedInputs.reduce(0) { $0 + $1.inputs }
                passed += results.filter { $0.outcome == .passed }.count
            }
            let bytes = try RuleBundle.build(
                folder: directory, experiment: experiment, arms: arms, key: signingKey, revision: revision, rollback: rollback,
                created: Date(), builtWith: RulesrunVersion.number, provedFunctions: proved, provedInputs: inputs, testsPassed: passed,
                testsFailed: 0)
            try BundleFile.replace(out, with: bytes)
            let bundle = try RuleBundle.read(bytes, source: out, trusting: [signingKey.publicKey])
            Terminal.line(
                "wrote \(out): revision \(revision)\(rollback ? " (rollback)" : ""), \(bundle.files.count) files, \(bytes.count) bytes, signed by \(signingKey.publicKey.id); "
                    + "\(bundle.manifest.provedFunctions) rule functions proved on \(bundle.manifest.provedInputs) inputs, \(bundle.manifest.testsPassed) tests passed")
            if let experiment { Terminal.line(BundleCommand.describe(experiment)) }
        }

        /// The experiment of the options (nil without --experiment) and each other arm's folder.
        func experimentArms() throws -> (BundleExperiment?, [String: String]) {
            guard let experiment else {
                if !arm.isEmpty || allocation != nil || killSwitch != nil || salt != nil {
                    Terminal.error("--arm, --allocation, --kill-switch and --salt belong to an experiment: give --experiment NAME")
                    throw ExitCode(2)
                }
                return (nil, [:])
            }
            var folders: [(String, String)] = []
            for entry in arm {
                guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex, entry.index(after: equals) != entry.endIndex else {
                    Terminal.error("--arm \(entry.prefix(80)): expected NAME=DIRECTORY")
                    throw ExitCode(2)
                }
                folders.append((String(entry[..<equals]), String(entry[entry.index(after: equals)...])))
            }
            let names = [control] + folders.map(\.0)
            var shares: [(name: String, basisPoints: Int)]
            if let killSwitch {
                guard names.contains(killSwitch), allocation == nil else {
                    Terminal.error("--kill-switch \(killSwitch.prefix(60)): expected one of the arms (\(names.joined(separator: ", "))), without --allocation")
                    throw ExitCode(2)
                }
                shares = names.map { ($0, $0 == killSwitch ? BundleExperiment.buckets : 0) }
            } else if let allocation {
                shares = try Self.shares(allocation, arms: names)
            } else {
                let each = BundleExperiment.buckets / names.count
                shares = names.map { ($0, each) }
                shares[0].basisPoints += BundleExperiment.buckets - each * names.count
            }
            let previous = try previousExperiment()
            do {
                let made = try BundleExperiment.allocate(name: experiment, salt: salt ?? experiment, shares: shares, previous: previous)
                return (made, Dictionary(folders, uniquingKeysWith: { a, _ in a }))
            } catch {
                Terminal.error("--experiment: \(error.message)")
                throw ExitCode(2)
            }
        }

        /// `NAME=SHARE,…` as basis points by arm, in the arms' order; every arm named once.
        static func shares(_ text: String, arms: [String]) throws -> [(name: String, basisPoints: Int)] {
            var given: [String: Int] = [:]
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, arms.contains(pair[0]), given[pair[0]] == nil, let share = basisPoints(pair[1]) else {
                    Terminal.error(
                        "--allocation: \"\(part.prefix(60))\": expected ARM=SHARE, ARM one of \(arms.joined(separator: ", ")) (each once), "
                            + "SHARE in basis points (2500) or percent with at most two decimals (25%, 12.5%)")
                    throw ExitCode(2)
                }
                given[pair[0]] = share
            }
            guard given.count == arms.count else {
                Terminal.error("--allocation: give every arm's share (missing: \(arms.filter { given[$0] == nil }.joined(separator: ", ")))")
                throw ExitCode(2)
            }
            return arms.map { ($0, given[$0]!) }
        }

        /// `2500` or `25%` / `12.5%` as basis points.
        static func basisPoints(_ text: String) -> Int? {
            guard text.hasSuffix("%") else { return Int(text).flatMap { (0...BundleExperiment.buckets).contains($0) ? $0 : nil } }
            let number = text.dropLast().split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(number.count), let whole = Int(number[0]), whole >= 0, number.count == 1 || (1...2).contains(number[1].count),
                number[0].allSatisfy(\.isNumber)
            else { return nil }
            let fraction = number.count == 2 ? Int(number[1].padding(toLength: 2, withPad: "0", startingAt: 0)) : 0
            guard let fraction, whole * 100 + fraction <= BundleExperiment.buckets else { return nil }
            return whole * 100 + fraction
        }

        /// The experiment of --previous (else of --out, when it exists), whose buckets the arms keep.
        func previousExperiment() throws -> BundleExperiment? {
            let path = previous ?? out
            guard previous != nil || FileManager.default.fileExists(atPath: WorkingFolder.resolve(path)) else { return nil }
            do { return try BundleFile.readUnverified(path).0.experiment } catch {
                Terminal.error("\(previous == nil ? "--out" : "--previous") \(error)")
                throw ExitCode(2)
            }
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
                // Loaded and type-checked as an engine does before activating it (no proofs), every arm.
                _ = try BundledEngine.load(bundle, source: file)
                Terminal.line("\(file): \(BundleCommand.verdict(bundle))")
            } catch {
                Terminal.error("\(error)")
                throw ExitCode(1)
            }
        }
    }

    /// `valid bundle, revision 3, signed by K, 12 files, the rules load`.
    static func verdict(_ bundle: RuleBundle) -> String {
        "valid bundle, revision \(bundle.manifest.revision)\(bundle.manifest.rollback ? " (rollback)" : ""), signed by \(bundle.signer), "
            + "\(bundle.files.count) files, the rules load"
    }

    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch", abstract: "Fetch a bundle over HTTP as an app's engine does, check it as it does, and keep it (--out).",
            discussion: """
                One GET of URL by the app's fetcher (its limits: 32 MiB, at most 5 redirects, --timeout), then every \
                check of bundle verify against the trusted keys, the rules of every arm loaded. Exit 0 when the bundle \
                passes (written to --out, replacing it only once whole, when given), 1 when the fetch fails or the bundle \
                is refused. To check what a static host serves before the apps poll it. docs/bundles.md#fetching

                Example:
                  rulesrun bundle fetch https://cdn.example.com/rules.bundle --public-key release.pub --out live.bundle
                """)

        @Argument(help: "The bundle's URL (http or https).") var url: String
        @Option(name: .customLong("public-key"), help: "A trusted public key file (repeatable).") var publicKeys: [String]
        @Option(help: "Write the bundle here once it passed.") var out: String?
        @Option(help: "Seconds the fetch may take, 1 to 600.", transform: WholeNumber.parser(1...600)) var timeout = 30

        func run() throws {
            if let out { try Output.check(out, option: "--out") }
            do {
                let keys = try publicKeys.map { path throws(BundleError) in try BundlePublicKey(file: path) }
                guard let address = URL(string: url) else { throw BundleError(url, "not a URL") }
                let fetcher = try BundleFetcher(url: address, timeout: .seconds(timeout))
                guard case .new(let bytes, let etag) = try Self.wait(fetcher) else { throw BundleError(url, "no body (not modified)") }
                let bundle = try RuleBundle.read(bytes, source: url, trusting: keys)
                _ = try BundledEngine.load(bundle, source: url)
                if let out { try BundleFile.replace(out, with: bytes) }
                Terminal.line("\(url): \(BundleCommand.verdict(bundle)); \(bytes.count) bytes\(etag.map { ", ETag \($0)" } ?? ", no ETag")")
            } catch let error as ExitCode {
                throw error
            } catch {
                Terminal.error("\(error)")
                throw ExitCode(1)
            }
        }

        /// The fetch, waited for (the command is not async).
        static func wait(_ fetcher: BundleFetcher) throws(BundleFetchError) -> BundleFetcher.Outcome {
            final class Box: @unchecked Sendable { var result: Result<BundleFetcher.Outcome, BundleFetchError>? }
            let (box, done) = (Box(), DispatchSemaphore(value: 0))
            Task {
                do throws(BundleFetchError) { box.result = .success(try await fetcher.fetch()) } catch { box.result = .failure(error) }
                done.signal()
            }
            done.wait()
            return try box.result!.get()
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
                if let experiment = manifest.experiment { Terminal.line("  " + BundleCommand.describe(experiment)) }
                for f in manifest.files { Terminal.line("  \(f.path)  \(f.size) bytes  sha256 \(f.sha256.prefix(16))…") }
            } catch {
                Terminal.error("\(error)")
                throw ExitCode(1)
            }
        }
    }
}

extension BundleCommand {
    /// One line: the experiment, its salt, and each arm's share and buckets.
    static func describe(_ experiment: BundleExperiment) -> String {
        let arms = experiment.arms.map { arm in
            let percent = String(format: "%.2f", Double(arm.basisPoints) / 100)
            let buckets = arm.buckets.prefix(4).map { "\($0.lowerBound)-\($0.upperBound - 1)" }.joined(separator: " ")
            return "\(arm.name) \(arm.basisPoints) bp (\(percent) %\(buckets.isEmpty ? "" : ", buckets \(buckets)")\(arm.buckets.count > 4 ? " …" : ""))"
        }
        return "experiment   \(experiment.name) (salt \(experiment.salt)): " + arms.joined(separator: ", ")
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "What differs between two bundles: manifest fields, files, and the knobs, params and functions of their rules.",
            discussion: """
                Lists the manifest's fields that differ (revision, created, tests.passed, …, signature.key), the files \
                changed, moved (the same bytes at another path), removed and added, and, in the rules, each knob whose \
                value differs (by the path sweep --set takes: pricing.credit_costs[2].credits), each param declared \
                differently (M.params: type, range, default, doc) and each function of a file's table whose source \
                differs, with its lines in each bundle. The signatures are not checked (bundle verify checks them); \
                every other check of a bundle is made, and each bundle's rules are loaded as an engine loads them, \
                without proofs. Exit 0 when both hold the same files (the same rules, whatever their revisions), 1 when \
                they differ, 2 when a bundle cannot be read or its rules do not load. docs/bundles.md

                Example:
                  rulesrun bundle diff live.bundle rules.bundle
                """)

        @Argument(help: "The bundle before (A).") var a: String
        @Argument(help: "The bundle after (B).") var b: String
        @Flag(help: "Print the differences as one JSON object.") var json = false

        func run() throws {
            let diff: BundleDiff
            do {
                let (x, y) = (try BundleFile.readUnverifiedBundle(a), try BundleFile.readUnverifiedBundle(b))
                diff = try BundleDiff(x, source: a, y, source: b)
            } catch {
                Terminal.error("\(error)")
                throw ExitCode(2)
            }
            if json { Terminal.print(Self.json(diff, a: a, b: b).description) } else { printText(diff) }
            if !diff.sameRules { throw ExitCode(1) }
        }

        /// Text: the verdict, then one section per kind of difference that has any.
        func printText(_ diff: BundleDiff) {
            Terminal.line("\(a) → \(b): \(Self.verdict(diff)) (signatures not checked: bundle verify checks them)")
            func section(_ title: String, _ lines: [String]) {
                guard !lines.isEmpty else { return }
                Terminal.line(title)
                for line in lines { Terminal.line("  " + line) }
            }
            section("manifest", diff.manifest.map { "\($0.name): \(Self.shown($0.a)) → \(Self.shown($0.b))" })
            section(
                "files",
                diff.files.map { file in
                    switch file.change {
                    case .changed: "changed  \(file.path)  \(file.a!.size) → \(file.b!.size) bytes"
                    case .moved: "moved    \(file.a!.path) → \(file.b!.path)  (the same \(file.b!.size) bytes)"
                    case .removed:
                        "removed  \(file.path)  \(file.a!.size) bytes" + (file.sameAs.map { " (the same bytes as B's \($0))" } ?? "")
                    case .added:
                        "added    \(file.path)  \(file.b!.size) bytes" + (file.sameAs.map { " (the same bytes as A's \($0))" } ?? "")
                    }
                })
            section("knobs", diff.knobs.map { "\($0.path): \(Self.shown($0.a)) → \(Self.shown($0.b))" })
            section("params", diff.params.map { "\($0.path): \(Self.shown($0.a, $0.b)) → \(Self.shown($0.b, $0.a))" })
            section(
                "functions",
                diff.functions.map { "\($0.name): \($0.a.map(\.description) ?? "(none)") → \($0.b.map(\.description) ?? "(none)")" })
        }

        static func verdict(_ diff: BundleDiff) -> String {
            guard !diff.sameRules else { return "the same rules (the same files)" }
            func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
            let counts = [
                count(diff.files.count, "file"), count(diff.knobs.count, "knob"), count(diff.params.count, "param"),
                count(diff.functions.count, "function"),
            ]
            return "the rules differ: " + counts.joined(separator: ", ")
        }

        /// A manifest field's value: numbers and booleans as written, strings as they are.
        static func shown(_ value: JSONValue) -> String {
            if case .string(let s) = value { return SourceFile.excerpt(s, limit: 100) }
            return value.description
        }

        /// A knob's value as Lua writes it (a long string cut), or `(none)`.
        static func shown(_ value: LuaValue?) -> String {
            guard let value else { return "(none)" }
            return SourceFile.excerpt(value.description, limit: 100)
        }

        /// A param as validate prints it (`night_surcharge integer 0…200 = 50`), its doc too when
        /// only the doc differs from `other`'s; `(none)`.
        static func shown(_ param: RuleParams.Param?, _ other: RuleParams.Param?) -> String {
            guard let param else { return "(none)" }
            guard let other, other.summary == param.summary else { return param.summary }
            return "\(param.summary), doc \(param.doc.map { "\"\(SourceFile.excerpt($0, limit: 100))\"" } ?? "(none)")"
        }

        /// `--json`: `{"a", "b", "signatures_checked": false, "same_rules", "manifest": [{"field", "a", "b"}],
        /// "files": [{"change", "path", "a", "b", "same_as"}], "knobs": [{"path", "a", "b"}],
        /// "params": [{"path", "a", "b"}], "functions": [{"name", "a", "b"}]}`; null where a bundle lacks it.
        static func json(_ diff: BundleDiff, a: String, b: String) -> JSONValue {
            func file(_ f: BundleManifest.File?) -> JSONValue {
                f.map { .object([("path", .string($0.path)), ("size", .int($0.size)), ("sha256", .string($0.sha256))]) } ?? .null
            }
            func location(_ l: BundleDiff.Location?) -> JSONValue {
                guard let l else { return .null }
                let (first, last) = (l.lines.lowerBound, l.lines.upperBound)
                return .object([("file", .string(l.file)), ("first_line", .int(first)), ("last_line", .int(last))])
            }
            return .object([
                ("a", .string(a)), ("b", .string(b)), ("signatures_checked", .bool(false)), ("same_rules", .bool(diff.sameRules)),
                ("manifest", .array(diff.manifest.map { .object([("field", .string($0.name)), ("a", $0.a), ("b", $0.b)]) })),
                (
                    "files",
                    .array(
                        diff.files.map {
                            .object([
                                ("change", .string($0.change.rawValue)), ("path", .string($0.path)), ("a", file($0.a)), ("b", file($0.b)),
                                ("same_as", $0.sameAs.map(JSONValue.string) ?? .null),
                            ])
                        })
                ),
                ("knobs", .array(diff.knobs.map { .object([("path", .string($0.path)), ("a", json($0.a)), ("b", json($0.b))]) })),
                (
                    "params",
                    .array(
                        diff.params.map {
                            .object([
                                ("path", .string($0.path)), ("a", $0.a.map { .object($0.jsonMembers) } ?? .null),
                                ("b", $0.b.map { .object($0.jsonMembers) } ?? .null),
                            ])
                        })
                ),
                (
                    "functions",
                    .array(diff.functions.map { .object([("name", .string($0.name)), ("a", location($0.a)), ("b", location($0.b))]) })
                ),
            ])
        }

        /// A knob's value in JSON: a number, a boolean, a string, `{}` for an empty table; a table
        /// too deep to walk as its Lua text; null where the bundle lacks it.
        static func json(_ value: LuaValue?) -> JSONValue {
            switch value {
            case nil, .nil?: .null
            case .boolean(let b)?: .bool(b)
            case .integer(let i)?: .int(Int(i))
            case .number(let d)?: d.isFinite ? .double(d) : .string(d.description)
            case .string(let s)?: .string(s)
            case .table(let t)? where t.isEmpty: .emptyObject
            case let other?: .string(other.description)
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

    /// The bundle at `path`, every check made but its signature's (`diff`).
    static func readUnverifiedBundle(_ path: String) throws(BundleError) -> RuleBundle {
        try RuleBundle.readWithoutVerifying(try bytes(path), source: path)
    }

    /// Writes `bytes` beside `path`, then renames it over `path`: a reader sees the old bundle or
    /// the new one, whole, never a part.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        do { try RuleBundle.replaceFile(bytes, to: URL(fileURLWithPath: WorkingFolder.resolve(path))) } catch {
            Terminal.error("cannot write \(path): \(error.message)")
            throw ExitCode(2)
        }
    }
}
