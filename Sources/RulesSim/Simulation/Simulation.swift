import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesStore

/// A cohort of synthetic users run through the engine for a number of days.
///
/// Users are independent: the cohort is cut into chunks of users, and `jobs` worker threads take
/// chunks in turn, each with its own rule set (its own Lua state) and its own persona state. The
/// engine keeps each user's rows in memory (`Engine.recordingBatch`); a single writer (the calling
/// thread) writes the chunks' rows to the database in chunk order (`BulkWriter`), and adds up
/// their totals. A user's events, ids and random numbers depend only on the seed and its id (its
/// index + 1, after the database's last user with `append`), so the report and the database are
/// the same whatever the number of jobs.
package final class Simulation {
    package let config: SimulationConfig
    /// The writer writes the rows of at least this many users at a time: `BulkWriter` inserts a
    /// batch's rows keyed by random UUIDs in key order, and larger batches share more B-tree pages.
    static let writeBatchUsers = 250
    /// The largest cohort (its chunks and totals are planned up front).
    package static let maxUsers = 10_000_000
    /// The most worker threads (each has its own Lua state and rule set).
    package static let maxJobs = 256
    /// The personas of the mix, in its order (validated).
    package let personas: [Persona]
    /// The team's own metrics the run computes (``SimulationConfig/metrics``, checked).
    package let teamMetrics: [TeamMetric]
    /// The database file the run writes, checked (nil: in memory only).
    let target: DatabaseTarget?
    /// A run leaves its new database beside the target (closed, locked) instead of putting it in
    /// place: ``DatabaseShards`` puts its files in place only when every shard succeeded.
    var defersCommit = false
    /// How many runs write at once and share one run's memory: N under ``DatabaseShards``, else 1.
    /// Each gets 1/N of the page cache (``writerCacheMiB``) and of the rows waiting for the writer
    /// (``writeBatchUsers``, its chunks no larger), so that N writers hold about what one does.
    var sharing = 1
    /// The page cache of the run's database connection, in MiB.
    var cacheMiB: Int { max(16, Simulation.writerCacheMiB / sharing) }
    /// The users whose rows the writer writes at a time.
    var batchUsers: Int { max(1, Simulation.writeBatchUsers / sharing) }
    /// The writer's page cache (one file): the run's bulk transaction keeps its pages there until
    /// the indexes are built at the end; what does not fit is written to the file early and read
    /// back from the operating system's cache.
    static let writerCacheMiB = 1024

    /// Users per chunk for `users` users on `jobs` workers: at most `at` (`--chunk-size`), and
    /// small enough for four chunks per worker, so that small cohorts use every core too. With a
    /// database (`batch`, the users of a write batch), the chunks the workers are on hold half a
    /// batch in all: with the two batches the window lets wait, what the run holds does not grow
    /// with the number of workers (it did: 10,000 users took 1.88 GB with two workers, 2.26 GB
    /// with eight). The results depend on none of this.
    static func chunkSize(users: Int, jobs: Int, at most: Int, batch: Int?) -> Int {
        max(1, min(most, users / (jobs * 4), batch.map { $0 / (2 * jobs) } ?? Int.max))
    }

    /// The users the writer takes at a time: a write batch (`at`), at most an eighth of the cohort,
    /// so that the writer starts early and what it writes after the last chunk is done (alone, the
    /// workers idle) is short.
    static func batch(users: Int, size: Int, at most: Int) -> Int { min(most, max(size, users / 8)) }

    /// With a database, the workers run at most this many chunks ahead of the writer: the chunks
    /// each is on, and two write batches waiting. (Without it, a writer slower than the workers let
    /// every finished chunk's rows pile up in memory.)
    static func window(workers: Int, size: Int, batch: Int) -> Int { workers + 2 * ((batch + size - 1) / size) }

    /// Loads and checks the personas and the rule set; throws `InputFileError`, `RuleSetError` or
    /// `SimulationError` with every problem found.
    package init(config: SimulationConfig) throws {
        guard config.users >= 1 else { throw SimulationError("--users must be at least 1") }
        guard config.users <= Simulation.maxUsers else {
            throw SimulationError("--users must be at most \(Simulation.maxUsers), found \(config.users)")
        }
        // The run's last events (and a user's local day, up to 14 hours from UTC) must be days there are.
        try config.duration.check(from: config.start)
        guard (1...Simulation.maxJobs).contains(config.jobs) else {
            throw SimulationError("--jobs must be from 1 to \(Simulation.maxJobs), found \(config.jobs)")
        }
        var config = config
        let host = try LuaHost()
        var personas: [Persona] = []
        var problems: [RuleProblem] = []
        for entry in config.mix.entries {
            do {
                let path = try PersonaLoader.resolve(entry.reference, folders: config.personaFolders)
                personas.append(try PersonaLoader.load(path: path, host: host))
            } catch {
                problems += error.problems
            }
        }
        guard problems.isEmpty else { throw InputFileError(problems: problems) }
        self.personas = personas
        if !config.reference, config.validated == nil {
            config.validated = try RuleSet.load(config.rules, overrides: config.overrides).snapshot
        }
        if var rollout = config.rollout {
            guard !config.reference else { throw SimulationError("--reference runs the native rules, not a rollout's arms") }
            // The control is `rules`; each other arm is validated here, once, like it.
            for arm in rollout.folders.indices {
                rollout.validated[arm] =
                    arm == 0 ? config.validated : try RuleSet.load(rollout.folders[arm], overrides: config.overrides).snapshot
            }
            config.rollout = rollout
        }
        if config.exposeAfter != 0 {
            guard config.rollout != nil else {
                throw SimulationError("--expose-after is for a rollout: a bundle with an experiment and no arm named")
            }
            guard (1..<config.days).contains(config.exposeAfter) else {
                throw SimulationError(
                    "--expose-after \(config.exposeAfter)d: expected fewer days than the run's \(config.days), "
                        + "so that each user has a day under its arm")
            }
        }
        if config.metrics == nil, config.findsMetrics { config.metrics = try TeamMetrics.source(rules: config.rules) }
        config.findsMetrics = false
        teamMetrics = try config.metrics.map { try TeamMetrics($0).metrics } ?? []
        self.config = config
        target = try config.database.map { try DatabaseTarget(path: $0, append: config.append) }
    }

    /// Runs the simulation. `progress` is called on the calling thread with (users done, users).
    /// `events` is given each chunk's events (with `recordsEvents`), `userTable` its users' rows
    /// (with `recordsUserTable`), in user order.
    package func run(
        progress: ((Int, Int) -> Void)? = nil, events: ((String) throws -> Void)? = nil, userTable: ((String) throws -> Void)? = nil
    ) throws -> SimulationReport {
        try run(seed: config.seed, groups: 1, progress: progress, events: events, userTable: userTable).report
    }

    /// The most groups of users `run(seed:groups:progress:)` reports apart.
    package static let maxGroups = 1000

    /// Runs the simulation with `seed` instead of the configuration's (a replica: the same rule
    /// set and personas, loaded and checked once), and reports its users in `groups` contiguous
    /// groups of about equal size (`Shard(index: g, count: groups)` of the run's users) besides
    /// the whole: each group's report is the report its users would have as a shard, so the
    /// groups are independent samples of the cohort (batch means, ``Estimate``).
    package func run(
        seed: UInt64, groups: Int, progress: ((Int, Int) -> Void)? = nil, events: ((String) throws -> Void)? = nil,
        userTable: ((String) throws -> Void)? = nil
    ) throws -> (report: SimulationReport, groups: [SimulationReport]) {
        guard (1...Simulation.maxGroups).contains(groups) else {
            throw SimulationError("groups of users must be from 1 to \(Simulation.maxGroups), found \(groups)")
        }
        var config = self.config
        config.seed = seed
        let range = config.shard.users(of: config.users)
        // At most one worker per user and four per core: more threads would only cost memory (a
        // Lua state each). Chunks as `chunkSize` says, none across two groups.
        let jobs = max(1, min(config.jobs, range.count, 4 * ProcessInfo.processInfo.activeProcessorCount))
        let size = Simulation.chunkSize(users: range.count, jobs: jobs, at: config.chunkSize, batch: target == nil ? nil : batchUsers)
        let groupRanges = (1...groups).map { g -> Range<Int> in
            let users = Shard(index: g, count: groups).users(of: range.count)
            return range.lowerBound + users.lowerBound..<range.lowerBound + users.upperBound
        }
        let pieces = groupRanges.enumerated().flatMap { g, users in
            stride(from: users.lowerBound, to: users.upperBound, by: size).map { (group: g, users: $0..<min($0 + size, users.upperBound)) }
        }
        let chunks = pieces.map(\.users), chunkGroup = pieces.map(\.group)
        var store: Store?
        // A user's id is its index + 1 + `idBase`, and its random streams are keyed by its id (id − 1):
        // with --append the users take the ids after the database's last user (the shard's first
        // user the next id), so they are new users, not the first ones again.
        var idBase: Int64 = 0
        // A new database is written beside the target and takes its place only when the run
        // succeeded: a failed run leaves the previous file as it was.
        if let target {
            do {
                store = try openDatabase(target.writtenPath)
                if config.append { idBase = try store!.read { try $0.nextUserID() }.rawValue - 1 - Int64(range.lowerBound) }
            } catch {
                try? store?.close()
                target.discard()
                throw SimulationError("--db \(target.path): cannot write \(target.writtenPath): \(error)")
            }
        }
        let workers = min(jobs, max(1, chunks.count))
        let batch = Simulation.batch(users: range.count, size: size, at: batchUsers)
        let window = store == nil ? Int.max : Simulation.window(workers: workers, size: size, batch: batch)
        let board = Board(chunks: chunks.count, window: window)
        var threads: [Thread] = []
        let template = WorkerTemplate(config: config, personas: personas, idBase: idBase, keepRecords: store != nil)
        for _ in 0..<workers {
            let thread = Thread { Simulation.work(template, chunks: chunks, board: board) }
            thread.stackSize = 8 << 20
            thread.qualityOfService = .utility  // below the writer (see `WriterPriority`)
            threads.append(thread)
            thread.start()
        }
        var days = Array(repeating: DayTotals(), count: config.days)
        var failures = RuleFailures()
        var groupDays = groups == 1 ? [] : Array(repeating: days, count: groups)
        var segments = Array(repeating: days, count: personas.count)
        var groupSegments = Array(repeating: segments, count: groupDays.count)
        // The arms' days are those after the users' exposure (``SimulationConfig/exposeAfter``).
        let armDays = Array(repeating: DayTotals(), count: config.days - config.exposeAfter)
        var arms = Array(repeating: armDays, count: config.rollout?.folders.count ?? 0)
        var groupArms = Array(repeating: arms, count: groupDays.count)
        var groupFailures = Array(repeating: RuleFailures(), count: groupDays.count)
        var lines = LineCounts()
        var done = 0
        // The chunks' totals in chunk order, and their rows to `write`.
        func collect(_ write: ([UserRecords]) throws -> Void) throws {
            var pending: [UserRecords] = []
            for c in chunks.indices {
                let result = try board.wait(for: c)
                pending += result.records
                if pending.count >= batch || c == chunks.count - 1 {
                    try write(pending)
                    // Freed by a worker: the writer thread only writes.
                    board.retire(pending)
                    pending = []
                }
                for d in days.indices { days[d].add(result.days[d]) }
                for p in segments.indices { for d in days.indices { segments[p][d].add(result.segments[p][d]) } }
                for a in arms.indices { for d in arms[a].indices { arms[a][d].add(result.arms[a][d]) } }
                failures.add(result.failures)
                if !groupDays.isEmpty {
                    let g = chunkGroup[c]
                    for d in days.indices { groupDays[g][d].add(result.days[d]) }
                    for p in segments.indices { for d in days.indices { groupSegments[g][p][d].add(result.segments[p][d]) } }
                    for a in arms.indices { for d in arms[a].indices { groupArms[g][a][d].add(result.arms[a][d]) } }
                    groupFailures[g].add(result.failures)
                }
                lines.add(result.lines)
                if !result.events.isEmpty { try events?(result.events) }
                if !result.userRows.isEmpty { try userTable?(result.userRows) }
                done += chunks[c].count
                progress?(done, range.count)
            }
        }
        do {
            if let store {
                try BulkWriter(store: store).write { add in try collect(add) }
            } else {
                try collect { _ in }
            }
        } catch {
            // Stop the workers.
            board.cancel()
            board.waitForWorkers(workers)
            try? store?.close()
            target?.discard()
            throw error
        }
        board.waitForWorkers(workers)
        if let store, let target {
            do {
                try store.checkpoint()
                try store.close()
                if !defersCommit { try target.commit() }
            } catch {
                target.discard()
                throw error
            }
        }
        var report = SimulationReport(config: config, personas: personas, users: range, idOffset: Int(idBase), days: days)
        report.failures = failures
        report.teamMetrics = teamMetrics
        report.segments = zip(personas, segments).map { SimulationReport.Segment(name: $0.name, days: $1) }
        let armNames = config.rollout?.armNames ?? []
        report.arms = zip(armNames, arms).map { SimulationReport.Segment(name: $0, days: $1) }
        if config.recordsLines { report.lineCounts = lines }
        let groupReports = groupDays.indices.map { g in
            var group = SimulationReport(run: report.run, days: groupDays[g])
            group.teamMetrics = teamMetrics
            group.segments = zip(personas, groupSegments[g]).map { SimulationReport.Segment(name: $0.name, days: $1) }
            group.arms = zip(armNames, groupArms[g]).map { SimulationReport.Segment(name: $0, days: $1) }
            group.run.usersFrom = groupRanges[g].lowerBound
            group.run.usersTo = groupRanges[g].upperBound
            group.failures = groupFailures[g]
            return group
        }
        return (report, groups == 1 ? [report] : groupReports)
    }

    private func openDatabase(_ path: String) throws -> Store {
        // A generated file, replaced at each run: no syncing, a large page cache for the run's one
        // bulk transaction, and a rollback journal while it is written (a new file's pages are
        // written once; see `StoreOptions.bulkLoad`).
        return try Store.open(
            path: path,
            options: StoreOptions(
                synchronous: .off, deviceID: "rulesrun-simulate", cacheMiB: cacheMiB,
                bulkLoad: !config.append))
    }

    /// One worker thread: takes chunks until none is left (or the run failed).
    private static func work(_ template: WorkerTemplate, chunks: [Range<Int>], board: Board) {
        defer { board.workerFinished() }
        WriterPriority.runBelowTheWriter()
        let worker: SimulationWorker
        do {
            worker = try SimulationWorker(template)
        } catch {
            board.fail(error)
            return
        }
        while let c = board.nextChunk() {
            board.freeRetired()
            do {
                board.deliver(c, try worker.run(chunks[c]))
            } catch {
                board.fail(error, chunk: c)
                return
            }
        }
    }
}

/// What each worker needs to build its own state (all of it `Sendable`).
struct WorkerTemplate: Sendable {
    var config: SimulationConfig
    var personas: [Persona]
    /// A user's id is its index + 1 + `idBase`; its random streams are keyed by id − 1.
    var idBase: Int64
    /// Whether the chunks' rows are kept for the writer (with a database).
    var keepRecords: Bool
}

/// What a worker hands to the writer for one chunk.
struct ChunkResult: @unchecked Sendable {
    var days: [DayTotals]
    /// The same days per persona of the mix (their sum is `days`).
    var segments: [[DayTotals]]
    /// The days per arm of the rollout after the users' exposure, over the users exposed (none
    /// without a rollout; their sum is `days` when every user is exposed after its first event).
    var arms: [[DayTotals]] = []
    /// The rows of the chunk's users, in user order (empty without a database).
    var records: [UserRecords]
    /// The events the rule set failed on, and the chunk's first.
    var failures: RuleFailures
    /// The chunk's users' events as replay lines, user after user (with `recordsEvents`).
    var events = ""
    /// The chunk's users' rows of the user table, `name,persona`, in user order (with `recordsUserTable`).
    var userRows = ""
    /// The lines the rule files ran for the chunk's users (with `recordsLines`).
    var lines = LineCounts()
}

/// The chunks' hand-over between the workers and the writer.
final class Board: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private let count: Int
    private var results: [Int: ChunkResult] = [:]
    /// A failure outside any chunk (a worker that could not start).
    private var failure: (any Error)?
    /// The failed chunks' errors. The writer meets them in chunk order, so the error reported is
    /// the first user's to fail, whatever the number of jobs.
    private var failures: [Int: any Error] = [:]
    private var firstFailed = Int.max
    private var finished = 0
    private var cancelled = false
    /// The chunks the writer has taken (``wait(for:)``), and how far ahead of them a chunk may be
    /// handed out.
    private var collected = 0
    private let window: Int
    /// The workers waiting for the window to move.
    private var waiting = 0
    /// Rows the writer has written, for a worker to free (``retire(_:)``).
    private var retired: [[UserRecords]] = []

    init(chunks: Int, window: Int = Int.max) {
        count = chunks
        self.window = max(1, window)
    }

    func nextChunk() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            // Chunks are handed out in order: those before a failed one are all under way.
            guard !cancelled, failure == nil, next < min(count, firstFailed) else { return nil }
            if next - collected < window { break }
            waiting += 1
            condition.wait()
            waiting -= 1
        }
        next += 1
        return next - 1
    }

    func deliver(_ chunk: Int, _ result: ChunkResult) {
        condition.lock()
        results[chunk] = result
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: any Error, chunk: Int? = nil) {
        condition.lock()
        if let chunk {
            failures[chunk] = error
            firstFailed = min(firstFailed, chunk)
        } else if failure == nil {
            failure = error
        }
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Hands rows the writer has written to the next worker that takes a chunk, which frees them
    /// (``freeRetired()``): freeing a batch's records is a few per cent of the writer's time.
    func retire(_ records: [UserRecords]) {
        condition.lock()
        retired.append(records)
        condition.unlock()
    }

    /// Frees the retired rows on the calling thread.
    func freeRetired() {
        condition.lock()
        let taken = retired
        retired = []
        condition.unlock()
        _ = taken  // the last reference, released here
    }

    /// The workers waiting for the writer to take a chunk before they get one.
    var waitingWorkers: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    func workerFinished() {
        condition.lock()
        finished += 1
        condition.broadcast()
        condition.unlock()
    }

    func wait(for chunk: Int) throws -> ChunkResult {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let failure { throw failure }
            if let result = results.removeValue(forKey: chunk) {
                collected = max(collected, chunk + 1)
                condition.broadcast()
                return result
            }
            if let error = failures[chunk] { throw error }
            condition.wait()
        }
    }

    func waitForWorkers(_ workers: Int) {
        condition.lock()
        while finished < workers { condition.wait() }
        condition.unlock()
    }
}
