import Foundation
import Logging
import LuaHost
import RulesModel
import RulesStore

/// An app's engine whose rules come from signed bundles (docs/embedding.md): it activates a bundle
/// only after every check, keeps the active and the last good bundle on disk, starts from them,
/// and rolls a new bundle back on its own when its rules start failing (probation).
///
/// - Activation (`activate(_:source:)`): the bundle is verified against the trusted keys
///   (``RuleBundle/read(_:source:trusting:)``), its revision must be above the active one (unless
///   it is a rollback) and not one rolled back before, its rules are loaded and type-checked (the
///   proofs ran when it was built); only then are they swapped in, in one step between two events:
///   an event sees the old rules or the new, never a mix. A bundle refused changes nothing.
/// - On disk, in `folder`: `active.bundle`, `last-good.bundle` (the last bundle that passed its
///   probation) and `status.json`, each replaced by a rename (never half-written), under a lock
///   file that keeps a second engine out of the folder.
/// - Probation: over the first ``Probation/events`` events after an activation, more than
///   ``Probation/maxFailures`` rule failures (`RULE_ERROR`, `RULE_VIOLATION`) roll back to the last
///   good bundle, and its revision is refused from then on (status and log say so).
/// - Experiments: a bundle with arms (``BundleManifest/experiment``) applies each user's events
///   under the rules of the user's arm (``BundleExperiment/armIndex(of:)``), and the first event a
///   user's arm decides is followed by an `exposure` event (experiment, arm, revision, time) in
///   the user's rows, which replay logs and analysis read.
/// - Fetching: ``update(from:isolation:)`` fetches with a ``BundleFetcher`` (HTTP, off the
///   caller's task) and activates what it brings (on the caller's actor).
///
/// Not `Sendable`, like ``Engine``: use it on one thread or task.
public final class BundledEngine {
    /// When a new bundle's rules are rolled back.
    public struct Probation: Sendable, Equatable {
        /// The events after an activation that are watched.
        public var events: Int
        /// The most rule failures among them that the bundle may have.
        public var maxFailures: Int

        public init(events: Int = 1_000, maxFailures: Int = 5) {
            self.events = events
            self.maxFailures = maxFailures
        }
    }

    /// What the bundles are doing, for the app's status page and logs.
    public struct Status: Sendable, Equatable {
        /// The revision whose rules are in force, and whether it is still on probation.
        public var activeRevision: Int
        public var onProbation: Bool
        /// The last good bundle's revision (nil: none yet).
        public var lastGoodRevision: Int?
        /// The last bundle offered, when, and what became of it (nil: activated).
        public var lastCheck: Date?
        public var lastError: String?
        /// Revisions rolled back by probation, refused from then on.
        public var refusedRevisions: [Int]
        /// Events and rule failures seen in the probation so far.
        public var probationEvents: Int
        public var probationFailures: Int
    }

    /// The engine of each arm of the active bundle's experiment (one for a bundle without one),
    /// all on the same store.
    public private(set) var engines: [Engine]
    /// The engine of the active bundle's first arm (its only one without an experiment).
    public var engine: Engine { engines[0] }
    public let store: Store
    public let folder: URL
    public let trustedKeys: [BundlePublicKey]
    public let probation: Probation
    public private(set) var status: Status
    /// The bundle whose rules are in force.
    private(set) var active: RuleBundle
    private var lastGood: RuleBundle?
    /// The users known to be exposed to their arm.
    private var exposed = Set<Exposed>()
    private let lock: Int32
    /// Its log (activations, refusals, probation); `rulesrun bench` raises its level.
    package var log = Logger(label: "rulesrun.bundles")

    /// A user exposed to an arm of an experiment (its three names, no string made per event).
    private struct Exposed: Hashable {
        var experiment: String
        var arm: String
        var user: String
    }

    static let activeName = "active.bundle", lastGoodName = "last-good.bundle", statusName = "status.json", lockName = ".lock"

    /// An engine on `store` with the rules of the bundles in `folder`: the active bundle, else
    /// (when it no longer verifies or loads) the last good one, else `initial` (the bundle an app
    /// ships with, activated as a new one). Throws a ``BundleError`` when none can be activated,
    /// or when another engine holds the folder.
    public init(
        store: Store, folder: URL, trustedKeys: [BundlePublicKey], initial: [UInt8]? = nil, probation: Probation = Probation()
    ) throws {
        self.folder = folder
        self.trustedKeys = trustedKeys
        self.probation = probation
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        lock = open(folder.appendingPathComponent(Self.lockName).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            if lock >= 0 { close(lock) }
            throw BundleError(folder.path, "another engine holds this bundle folder (its \(Self.lockName) is locked)")
        }
        let refused = Self.refusedRevisions(folder.appendingPathComponent(Self.statusName))
        var problems: [String] = []
        var chosen: (RuleBundle, [RuleSet])?
        var lastGood: RuleBundle?
        for name in [Self.activeName, Self.lastGoodName] {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            do {
                let bundle = try RuleBundle.read(try Self.bytes(url), source: url.path, trusting: trustedKeys)
                if name == Self.lastGoodName { lastGood = bundle }
                if chosen == nil, !refused.contains(bundle.manifest.revision) || name == Self.lastGoodName {
                    chosen = (bundle, try Self.load(bundle, source: url.path))
                }
            } catch {
                problems.append("\(error)")
            }
        }
        if chosen == nil, let initial {
            let bundle = try RuleBundle.read(initial, source: "the initial bundle", trusting: trustedKeys)
            chosen = (bundle, try Self.load(bundle, source: "the initial bundle"))
            try RuleBundle.replaceFile(initial, to: folder.appendingPathComponent(Self.activeName))
        }
        guard let (bundle, rules) = chosen else {
            close(lock)
            throw BundleError(
                folder.path, "no bundle to start from" + (problems.isEmpty ? " (give the app's initial bundle)" : ": " + problems.joined(separator: "; ")))
        }
        self.store = store
        engines = rules.map { Engine(store: store, rules: $0) }
        active = bundle
        self.lastGood = lastGood
        status = Status(
            activeRevision: bundle.manifest.revision, onProbation: false, lastGoodRevision: lastGood?.manifest.revision,
            lastCheck: nil, lastError: problems.isEmpty ? nil : problems.joined(separator: "; "), refusedRevisions: refused,
            probationEvents: 0, probationFailures: 0)
        if lastGood == nil {
            // The bundle it starts from is the good one until another passes probation.
            try RuleBundle.replaceFile(bundle.bytes, to: folder.appendingPathComponent(Self.lastGoodName))
            self.lastGood = bundle
            status.lastGoodRevision = bundle.manifest.revision
        }
        try saveStatus()
    }

    deinit { close(lock) }

    /// Applies `event` (``Engine/apply(_:)``), counting rule failures while a bundle is on probation.
    public func apply(_ event: EngineEvent) throws(EngineError) -> Engine.Outcome {
        let experiment = active.manifest.experiment
        let arm = experiment?.armIndex(of: event.user) ?? 0
        do {
            let outcome = try engines[arm].apply(event)
            if let experiment {
                shareCommitted(by: arm)
                expose(event, to: arm, of: experiment)
            }
            watch(failed: false)
            return outcome
        } catch {
            watch(failed: error.code == .ruleError || error.code == .ruleViolation)
            throw error
        }
    }

    /// Verifies, loads and activates the bundle `bytes` (from `source`, for messages); on any
    /// problem throws it and changes nothing (the active rules stay in force, and the status says why).
    @discardableResult
    public func activate(_ bytes: [UInt8], source: String) throws(BundleError) -> Status {
        status.lastCheck = Date()
        do throws(BundleError) {
            let bundle = try RuleBundle.read(bytes, source: source, trusting: trustedKeys)
            let revision = bundle.manifest.revision
            if status.refusedRevisions.contains(revision) {
                throw BundleError(source, "revision \(revision) was rolled back by probation and is refused from now on")
            }
            if revision <= active.manifest.revision, !bundle.manifest.rollback {
                throw BundleError(
                    source,
                    "revision \(revision) is not above the active revision \(active.manifest.revision) (a bundle built with --rollback may go back)")
            }
            let rules = try Self.load(bundle, source: source)
            try RuleBundle.replaceFile(bytes, to: folder.appendingPathComponent(Self.activeName))
            // One step, between two events.
            use(rules, of: bundle)
            (status.activeRevision, status.onProbation, status.lastError) = (revision, true, nil)
            (status.probationEvents, status.probationFailures) = (0, 0)
            log.info("activated bundle revision \(revision) from \(source) (on probation for \(probation.events) events)")
            try? saveStatus()
            return status
        } catch {
            status.lastError = error.description
            log.warning("refused bundle: \(error.description)")
            try? saveStatus()
            throw error
        }
    }

    private func watch(failed: Bool) {
        guard status.onProbation else { return }
        status.probationEvents += 1
        if failed { status.probationFailures += 1 }
        if status.probationFailures > probation.maxFailures {
            rollBack()
        } else if status.probationEvents >= probation.events {
            // Passed: it becomes the last good bundle.
            status.onProbation = false
            if (try? RuleBundle.replaceFile(active.bytes, to: folder.appendingPathComponent(Self.lastGoodName))) != nil {
                lastGood = active
                status.lastGoodRevision = active.manifest.revision
            }
            log.info("bundle revision \(active.manifest.revision) passed its probation (\(status.probationFailures) rule failures in \(status.probationEvents) events)")
            try? saveStatus()
        }
    }

    /// Back to the last good bundle; the failing revision is refused from then on.
    private func rollBack() {
        let failing = active.manifest.revision
        let message =
            "revision \(failing) rolled back by probation: \(status.probationFailures) rule failures in its first \(status.probationEvents) events (at most \(probation.maxFailures) allowed)"
        status.onProbation = false
        status.refusedRevisions.append(failing)
        status.lastError = message
        log.error("\(message)")
        guard let good = lastGood, let rules = try? Self.load(good, source: Self.lastGoodName) else {
            try? saveStatus()
            return
        }
        use(rules, of: good)
        status.activeRevision = good.manifest.revision
        try? RuleBundle.replaceFile(good.bytes, to: folder.appendingPathComponent(Self.activeName))
        try? saveStatus()
    }

    /// Puts the rules of `bundle`'s arms in force: the engines of arms that stay are kept (with
    /// what they cached of their users), given their arm's new rules.
    private func use(_ rules: [RuleSet], of bundle: RuleBundle) {
        for (arm, set) in rules.enumerated() {
            if arm < engines.count { engines[arm].use(set) } else { engines.append(Engine(store: store, rules: set)) }
        }
        engines.removeLast(engines.count - rules.count)
        active = bundle
    }

    /// Tells the engines of the other arms that `arm`'s engine committed its last event: each
    /// engine keeps its users' contexts between their events (``KeptContexts``) only while nothing
    /// else writes to the store, and the arms share one store; told, they keep those of their
    /// other users (an event writes only its own user's rows) instead of reading every user again.
    private func shareCommitted(by arm: Int) {
        guard let event = engines[arm].lastCommitted else { return }
        for other in engines.indices where other != arm { engines[other].kept.anotherEngineCommitted(event) }
    }

    /// After an event of `event`'s user decided under `arm`: its exposure to the arm, once.
    private func expose(_ event: EngineEvent, to arm: Int, of experiment: BundleExperiment) {
        let name = experiment.arms[arm].name
        let key = Exposed(experiment: experiment.name, arm: name, user: event.user)
        guard !exposed.contains(key) else { return }
        do {
            // Recorded by an earlier run (the set starts empty at each start)?
            if try engines[arm].exposure(ofUser: event.user, experiment: experiment.name, arm: name) == nil {
                _ = try engines[arm].apply(
                    EngineEvent.exposure(user: event.user, at: event.at, experiment: experiment.name, arm: name, revision: active.manifest.revision))
                shareCommitted(by: arm)
            }
            exposed.insert(key)
        } catch {
            log.error("could not record the exposure of \(event.user) to \(experiment.name)/\(name): \(error)")
        }
    }

    /// The rules of each of the bundle's arms (its one rule set without an experiment), loaded and
    /// type-checked, each in a Lua state of its own (no proofs).
    package static func load(_ bundle: RuleBundle, source: String) throws(BundleError) -> [RuleSet] {
        var sets: [RuleSet] = []
        for arm in bundle.manifest.experiment?.arms.indices ?? 0..<1 {
            let name = bundle.manifest.experiment.map { " (arm \($0.arms[arm].name))" } ?? ""
            do {
                sets.append(try bundle.withUnpacked(arm: arm) { top in try RuleSet.load(top.path, proving: false) })
            } catch let error as RuleSetError {
                throw BundleError(source, "its rules\(name) do not load: \(error.problems.map(\.description).joined(separator: "; "))")
            } catch {
                throw BundleError(source, "cannot unpack it\(name): \(error)")
            }
        }
        return sets
    }

    static func bytes(_ url: URL) throws(BundleError) -> [UInt8] {
        do { return try SourceFile.read(url.path, maxBytes: RuleBundle.maxBytes) } catch { throw BundleError(url.path, error.description) }
    }

    private func saveStatus() throws(BundleError) {
        let value: JSONValue = .object([
            ("active_revision", .int(status.activeRevision)), ("on_probation", .bool(status.onProbation)),
            ("last_good_revision", status.lastGoodRevision.map(JSONValue.int) ?? .null),
            ("last_error", status.lastError.map(JSONValue.string) ?? .null),
            ("refused_revisions", .array(status.refusedRevisions.map(JSONValue.int))),
        ])
        try RuleBundle.replaceFile(Array((value.description + "\n").utf8), to: folder.appendingPathComponent(Self.statusName))
    }

    /// The revisions refused by an earlier run (a missing or unreadable status refuses none).
    static func refusedRevisions(_ url: URL) -> [Int] {
        guard let bytes = try? SourceFile.read(url.path, maxBytes: 1 << 20), case .object(let members)? = try? JSONLine.parse(utf8: bytes),
            case .array(let list)? = members.first(where: { $0.0 == "refused_revisions" })?.1
        else { return [] }
        return list.compactMap { if case .int(let n) = $0 { n } else { nil } }
    }
}
