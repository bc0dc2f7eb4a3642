import Foundation
import LuaHost
import RulesEngine
import RulesModel
import Synchronization

/// The users of an input (``AnalysisInput``), each replayed alone under the rules of its arm, a
/// chunk at a time (``chunk``) on `jobs` worker threads: what `analyze` (``RolloutAnalysis``) and
/// `fit` (``PersonaFit``) share. Each worker has its own engines (one per arm, made on its first
/// chunk and kept); a user's part is computed on a worker, and the parts are added in the input's
/// order, so the result is the same whatever the number of workers.
package struct ArmReplay {
    /// The rule sets, one per arm (the control first): each one's folder and, when it was
    /// validated, its snapshot (then the files proved are the files replayed).
    package var rules: [(folder: String, snapshot: RuleSnapshot?)]
    /// The rollout whose exposures say each user's arm; nil: every user under `rules[0]`.
    package var rollout: Rollout?
    /// The team's metrics, each worker with its own Lua state of them.
    package var metrics: TeamMetrics.Source?
    package var jobs: Int
    package var shard: Shard

    /// A user of the input with its arm, and the index of its exposure among its events (nil
    /// without a rollout).
    package struct Assigned: Sendable {
        package var user: LoggedUser
        package var arm: Int
        package var exposure: Int?
    }

    /// One worker's engines (one per arm) with their rule sets, and its state of the team's metrics.
    package struct Worker {
        package var arms: [(engine: Engine, rules: RuleSet)]
        package var metrics: TeamMetrics?

        /// `assigned` replayed alone under the rules of its arm and counted by day (``LogUserTally``),
        /// the rules' and the team metrics' `math.random` seeded for the user from `seed`
        /// (``RuleDraws``). A user of another arm than the control's whose log has events before
        /// its exposure (its pre-period) runs them under the control's rules (the rules before the
        /// rollout), then its arm's on the same rows, as the apps ran it (``LogUserTally/switchIndex(_:exposure:)``).
        func tally(_ assigned: Assigned, seed: UInt64, logEnd: EpochMillis) throws -> LogUserTally {
            let a = assigned.arm
            let from = a == 0 ? nil : assigned.exposure.flatMap { LogUserTally.switchIndex(assigned.user.events, exposure: $0) }
            let (engine, rules) = arms[from == nil ? a : 0]
            let userSeed = RuleDraws.seed(of: assigned.user.name, seed: seed)
            try rules.host.seedRandom(userSeed)
            if from != nil { try arms[a].rules.host.seedRandom(userSeed) }
            try metrics?.seedRandom(userSeed)
            return try LogUserTally(
                name: assigned.user.name, events: assigned.user.events, exposure: assigned.exposure, engine: engine, logEnd: logEnd,
                arm: from.map { ($0, arms[a].rules) }, metrics: metrics, lines: assigned.user.lines)
        }
    }

    package init(
        rules: [(folder: String, snapshot: RuleSnapshot?)], rollout: Rollout? = nil, metrics: TeamMetrics.Source? = nil, jobs: Int,
        shard: Shard = .whole
    ) {
        (self.rules, self.rollout, self.metrics, self.jobs, self.shard) = (rules, rollout, metrics, max(1, jobs), shard)
    }

    /// Under `rollout`'s arms (their snapshots when validated: ``Rollout/validated``).
    package init(rollout: Rollout, metrics: TeamMetrics.Source? = nil, jobs: Int, shard: Shard = .whole) {
        self.init(rules: Array(zip(rollout.folders, rollout.validated)), rollout: rollout, metrics: metrics, jobs: jobs, shard: shard)
    }

    /// The users replayed at a time: a chunk's events are what is held at once of an input read
    /// user by user.
    package static let chunk = 2048

    /// Replays every user of `input` that the shard holds and that has an arm: `part` runs on a
    /// worker (the user on its arm's engine), `add` in the input's order, for each part `part`
    /// returned. Users without an arm (no exposure, two arms, an unknown arm, another revision) are
    /// noted in `problems`, with the input's own.
    package func run<Input: AnalysisInput, Part: Sendable>(
        _ input: inout Input, problems: inout EventLog.Problems, part: @Sendable (Worker, Assigned) throws -> Part,
        add: (Assigned, Part) throws -> Void
    ) throws {
        let workers = Workers(count: jobs)
        while true {
            let chunk = try input.nextUsers(upTo: Self.chunk)
            if chunk.isEmpty { break }
            let assigned = chunk.compactMap { shard.holds(user: $0.name) ? assign($0, problems: &problems) : nil }
            guard !assigned.isEmpty else { continue }
            let busy = min(jobs, assigned.count)
            // Each worker takes every busy-th user; the parts are added in the input's order afterwards.
            let results = Mutex(Array(repeating: [Part](), count: busy))
            let failed = Mutex<(any Error)?>(nil)
            DispatchQueue.concurrentPerform(iterations: busy) { w in
                do {
                    let worker = try workers.worker(w, self)
                    var mine: [Part] = []
                    for u in stride(from: w, to: assigned.count, by: busy) { mine.append(try part(worker, assigned[u])) }
                    results.withLock { $0[w] = mine }
                } catch {
                    failed.withLock { $0 = $0 ?? error }
                }
            }
            if let error = failed.withLock({ $0 }) { throw error }
            let parts = results.withLock { $0 }
            for (u, user) in assigned.enumerated() { try add(user, parts[u % busy][u / busy]) }
        }
        problems = input.problems + problems
    }

    /// The user's arm, from its exposures to the rollout's experiment: nil (noted in `problems`)
    /// when it has none, two, one the bundle does not have, or one under another revision.
    func assign(_ logged: LoggedUser, problems: inout EventLog.Problems) -> Assigned? {
        guard let rollout else { return Assigned(user: logged, arm: 0, exposure: nil) }
        let user = logged.name
        var arms: [(arm: String, index: Int, revision: Int)] = []
        for (i, event) in logged.events.enumerated() {
            guard let exposure = event.kind.exposure else { continue }
            guard exposure.experiment == rollout.experiment.name else {
                problems.note(.otherExperiment, line: logged.line(i), place: logged.position, "\(user): experiment \(exposure.experiment)")
                continue
            }
            if !arms.contains(where: { $0.arm == exposure.arm }) { arms.append((exposure.arm, i, exposure.revision)) }
        }
        guard let first = arms.first else {
            problems.note(.noExposure, line: logged.line(0), place: logged.position, "\(user)")
            return nil
        }
        guard arms.count == 1 else {
            problems.note(.twoArms, line: logged.line(0), place: logged.position, "\(user): \(arms.map(\.arm).joined(separator: " and "))")
            return nil
        }
        guard let arm = rollout.armNames.firstIndex(of: first.arm) else {
            problems.note(
                .unknownArm, line: logged.line(first.index), place: logged.position,
                "\(user): arm \(first.arm) (the bundle's: \(rollout.armNames.joined(separator: ", ")))")
            return nil
        }
        guard first.revision == rollout.revision else {
            problems.note(
                .otherRevision, line: logged.line(first.index), place: logged.position,
                "\(user): revision \(first.revision), the bundle is revision \(rollout.revision)")
            return nil
        }
        return Assigned(user: logged, arm: arm, exposure: first.index)
    }

    /// Each worker's engines, made on its first chunk and kept for the next ones. Worker `w` is
    /// only ever used by the thread that runs iteration `w` of a chunk, and chunks run one after another.
    private final class Workers: @unchecked Sendable {
        private var made: [Worker?]
        private let lock = NSLock()

        init(count: Int) { made = Array(repeating: nil, count: count) }

        func worker(_ w: Int, _ replay: ArmReplay) throws -> Worker {
            if let made = lock.withLock({ made[w] }) { return made }
            let arms = try replay.rules.map { rules -> (engine: Engine, rules: RuleSet) in
                let set = try rules.snapshot.map { try $0.load() } ?? RuleSet.load(rules.folder, proving: false)
                let engine = Engine(rules: set)
                // One user per batch (`LogUserTally`): its rows are never written.
                engine.userID = { _ in UserID(1) }
                return (engine, set)
            }
            let worker = Worker(arms: arms, metrics: try replay.metrics.map(TeamMetrics.init))
            lock.withLock { made[w] = worker }
            return worker
        }
    }
}
