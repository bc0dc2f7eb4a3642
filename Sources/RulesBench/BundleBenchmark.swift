import BuiltInDefaults
import Crypto
import Foundation
import LuaHost
import RulesEngine
import RulesStore

/// Rule bundles (docs/bundles.md), each against a floor measured in the same run:
///
/// - Activation of the default rule set's bundle (built in the run from the built-in rules, signed
///   with a new key), each step from the bundle's file: the floor reads the file and computes one
///   SHA-256 over its bytes (the least any verification does); `verify` is ``RuleBundle/read(_:source:trusting:)``
///   (the signature, every file's size and SHA-256, the manifest); `activate` is the whole
///   ``BundledEngine/activate(_:source:)`` of a new revision into an engine running the previous
///   one (verify, unpack, load and type-check, swap, the files and status on disk). With one rule
///   set, and with a two-arm experiment (two rule sets loaded).
/// - Assignment per event: ``BundleExperiment/armIndex(of:)`` against one SHA-256 of
///   `salt:u123456`; and ``BundledEngine/apply(_:)`` of ticks for many users (in-memory store) on
///   a bundle with an experiment against the same on a bundle without one (both arms hold the same
///   rules): every user in one arm (the difference: the arm's assignment and the exposure check of
///   each event), and half the users in each arm (two engines in turn).
///
/// Times are the thread's CPU time, the fastest round (activation: also the wall time); the
/// measurements compared run in turn, so that the machine's load weighs on them alike.
package enum BundleBenchmark {
    /// One bundle's activation.
    package struct Activation: Sendable, Encodable {
        /// Rule sets in the bundle (1, or the experiment's arms).
        package var arms: Int
        package var bytes: Int
        /// Reading the file and one SHA-256 over its bytes.
        package var floor_ms: Double
        /// Reading the file and ``RuleBundle/read(_:source:trusting:)``.
        package var verify_ms: Double
        /// Reading the file and ``BundledEngine/activate(_:source:)``.
        package var activate_ms: Double
        /// The same activation's wall time (the fastest).
        package var activate_wall_ms: Double
        package var verify_over_floor: Double
        package var activate_over_floor: Double
    }

    /// The arm of a user, against the hash it is made of.
    package struct Assignment: Sendable, Encodable {
        package var calls: Int
        /// One SHA-256 of a short string (`salt:u123456`), its bytes ready.
        package var sha256_ns: Double
        /// ``BundleExperiment/armIndex(of:)``: the bucket's hash from the user's name, then its arm.
        package var arm_index_ns: Double
        package var arm_index_over_sha256: Double
    }

    /// The cost of an experiment per event applied.
    package struct Events: Sendable, Encodable {
        package var users: Int
        /// Events per round, in chunks of one tick of every user, timed on each bundle in turn
        /// (the fastest chunk counts).
        package var events: Int
        /// Per event, on a bundle without an experiment.
        package var plain_us: Double
        /// Per event, on a bundle whose experiment puts every user in one arm: what assigning the
        /// arm and checking the exposure add, and that share of `plain_us`.
        package var control_only_us: Double
        package var control_only_overhead_us: Double
        package var control_only_overhead_share: Double
        /// Per event, on a bundle with a two-arm experiment, half the users in each (two engines in
        /// turn), `experiment_us - plain_us`, and its share of `plain_us`.
        package var experiment_us: Double
        package var overhead_us: Double
        package var overhead_share: Double
        /// Users read from the store by each of the three in the timed rounds (0: every event
        /// started from its user's kept context, ``Engine/usersRead``).
        package var users_read: [Int]
    }

    package struct Result: Sendable, Encodable {
        package var rounds: Int
        package var one_arm: Activation
        package var two_arms: Activation
        package var assignment: Assignment
        package var events: Events
    }

    /// The target for activating the default rule set's bundle, in milliseconds.
    package static let activationTargetMs = 50.0

    /// The experiment of the two-arm bundles: half the users each.
    static func experiment() throws -> BundleExperiment {
        try BundleExperiment.allocate(name: "bench", salt: "bench-salt", shares: [("control", 5_000), ("b", 5_000)], previous: nil)
    }

    /// The default rules as a bundle of `revision` (both arms of `experiment` hold them).
    static func bundle(_ revision: Int, experiment: BundleExperiment?, key: BundleSigningKey) throws -> [UInt8] {
        try RuleBundle.build(
            folder: BuiltInDefaults.name, experiment: experiment, arms: experiment == nil ? [:] : ["b": BuiltInDefaults.name], key: key,
            revision: revision, rollback: false, created: Date(timeIntervalSince1970: 1_800_000_000), builtWith: "rulesrun bench",
            provedFunctions: 0, provedInputs: 0, testsPassed: 0, testsFailed: 0)
    }

    /// Runs the benchmark, its files in `directory` (left for the caller to remove).
    ///
    /// - Parameters:
    ///   - calls: calls per round of the assignment's measurements.
    ///   - events: events per round of the per-event measurement (spread over at most 200 users).
    package static func run(directory: URL, calls: Int, events: Int, rounds: Int) throws -> Result {
        let rounds = max(1, rounds)
        let one = try activation(experiment: nil, rounds: rounds, directory: directory.appendingPathComponent("one-arm"))
        let two = try activation(experiment: try experiment(), rounds: rounds, directory: directory.appendingPathComponent("two-arms"))
        return Result(
            rounds: rounds, one_arm: one, two_arms: two, assignment: try assignment(calls: max(1, calls), rounds: rounds),
            events: try perEvent(events: max(1, events), rounds: rounds, directory: directory.appendingPathComponent("events")))
    }

    static func activation(experiment: BundleExperiment?, rounds: Int, directory: URL) throws -> Activation {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = BundleSigningKey.generate()
        // Revision 1 runs; each round activates the next.
        let files = try (1...(rounds + 1)).map { revision in
            let url = directory.appendingPathComponent("r\(revision).bundle")
            try Data(try bundle(revision, experiment: experiment, key: key)).write(to: url)
            return url
        }
        func read(_ url: URL) throws -> [UInt8] { try SourceFile.read(url.path, maxBytes: RuleBundle.maxBytes) }
        let probe = files[1]
        var sink = 0
        // The floor and the verification take well under a millisecond: ten times as many rounds,
        // in turn (the machine's load weighs on both alike).
        var floor = Double.infinity, verify = Double.infinity
        for _ in 0..<(rounds * 10) {
            floor = min(
                floor, try LuaHostBenchmark.time(1) { _ in sink &+= SHA256.hash(data: try read(probe)).withUnsafeBytes { Int($0[0]) } })
            verify = min(
                verify,
                try LuaHostBenchmark.time(1) { _ in
                    sink &+= try RuleBundle.read(try read(probe), source: probe.path, trusting: [key.publicKey]).files.count
                })
        }
        let engine = try BundledEngine(
            store: try Store.inMemory(), folder: directory.appendingPathComponent("engine"), trustedKeys: [key.publicKey],
            initial: try read(files[0]))
        engine.log.logLevel = .warning  // its activations are the table's, not lines of the log
        var activate = Double.infinity, wall = Double.infinity
        for url in files.dropFirst() {
            let started = DispatchTime.now().uptimeNanoseconds
            activate = min(activate, try LuaHostBenchmark.time(1) { _ in try engine.activate(try read(url), source: url.path) })
            wall = min(wall, Double(DispatchTime.now().uptimeNanoseconds - started))
        }
        guard engine.status.activeRevision == rounds + 1, engine.engines.count == (experiment?.arms.count ?? 1) else {
            throw BundleError(directory.path, "the benchmark's engine did not activate every revision (\(engine.status))")
        }
        if sink == 42 { print("") }
        return Activation(
            arms: engine.engines.count, bytes: try read(probe).count, floor_ms: floor / 1e6, verify_ms: verify / 1e6,
            activate_ms: activate / 1e6, activate_wall_ms: wall / 1e6, verify_over_floor: verify / floor,
            activate_over_floor: activate / floor)
    }

    /// The users of the assignment's measurements (names like an app's: `u123456`).
    static let users = (0..<1024).map { "u\(123_000 + $0)" }

    static func assignment(calls: Int, rounds: Int) throws -> Assignment {
        let experiment = try experiment()
        let keys = users.map { Array("\(experiment.salt):\($0)".utf8) }
        var sink = 0
        var sha = Double.infinity, arm = Double.infinity
        for _ in 0..<rounds {
            sha = min(sha, LuaHostBenchmark.time(calls) { i in sink &+= SHA256.hash(data: keys[i & 1023]).withUnsafeBytes { Int($0[0]) } })
            arm = min(arm, LuaHostBenchmark.time(calls) { i in sink &+= experiment.armIndex(of: users[i & 1023]) })
        }
        if sink == 42 { print("") }
        return Assignment(calls: calls, sha256_ns: sha, arm_index_ns: arm, arm_index_over_sha256: arm / sha)
    }

    static func perEvent(events: Int, rounds: Int, directory: URL) throws -> Events {
        let key = BundleSigningKey.generate()
        let halves = try experiment()
        let controlOnly = try BundleExperiment.allocate(
            name: halves.name, salt: halves.salt, shares: [("control", 10_000), ("b", 0)], previous: nil)
        // Without an experiment, every user in one arm, half the users in each.
        let engines = try [nil, controlOnly, halves].enumerated().map { index, experiment in
            try BundledEngine(
                store: try Store.inMemory(), folder: directory.appendingPathComponent("engine-\(index)"), trustedKeys: [key.publicKey],
                initial: try bundle(1, experiment: experiment, key: key))
        }
        let users = Array(Self.users.prefix(min(200, events)))
        // Chunk c: a tick of every user, a second after the chunk before.
        let start: Int64 = 1_772_438_400_000  // 2026-03-02T08:00:00Z
        func chunk(_ c: Int) -> [EngineEvent] {
            users.map { EngineEvent(at: Timestamp(millis: start + Int64(c) * 1_000), user: $0, kind: .tick) }
        }
        // Every user created, and exposed to its arm, before the timed rounds.
        for engine in engines { for event in chunk(0) { _ = try engine.apply(event) } }
        let arm = halves.armIndex(of: users[0])
        guard try engines[2].engines[arm].exposure(ofUser: users[0], experiment: halves.name, arm: halves.arms[arm].name) != nil else {
            throw BundleError(directory.path, "the benchmark's experiment did not expose \(users[0]) to its arm")
        }
        func read(_ engine: BundledEngine) -> Int { engine.engines.reduce(0) { $0 + $1.usersRead } }
        let readBefore = engines.map(read)
        // Each round's events in chunks, each chunk timed on the three in turn (the machine's load
        // weighs on them alike): the fastest chunk counts.
        var best = [Double](repeating: .infinity, count: engines.count)
        let chunks = (events + users.count - 1) / users.count
        for c in 1...(rounds * chunks) {
            let events = chunk(c)
            for (index, engine) in engines.enumerated() {
                best[index] = min(best[index], try LuaHostBenchmark.time(events.count) { i in _ = try engine.apply(events[i]) })
            }
        }
        let us = best.map { $0 / 1_000 }
        return Events(
            users: users.count, events: chunks * users.count, plain_us: us[0], control_only_us: us[1],
            control_only_overhead_us: us[1] - us[0], control_only_overhead_share: (us[1] - us[0]) / us[0], experiment_us: us[2],
            overhead_us: us[2] - us[0], overhead_share: (us[2] - us[0]) / us[0],
            users_read: zip(engines, readBefore).map { read($0) - $1 })
    }
}
