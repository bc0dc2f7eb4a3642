import ArgumentParser
import Foundation
import RulesBench
import RulesEngine
import RulesModel

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure rule calls, the store and rule bundles, each against a baseline measured in the same run.",
        discussion: """
            Rule calls:
            (a) floor: a small rule called through the bare Lua C API with integer arguments (and, for scale, \
            the same table-in/table-out round trip written directly against the C API);
            (b) host: the same rule through LuaHost, state table in, result table out, read into Swift structs;
            (c) native: the same logic in Swift. Also the generic [LuaValue] path and the instruction hook's share of (b).
            Store: rows per second of the bulk path for simulations against a raw prepared INSERT loop of the same \
            rows, and the size on disk (after VACUUM) of one user-year of Pressure and of the habit tracker.
            Bundles: the default rule set's bundle, built in the run and read from its file: verifying it and activating \
            a new revision of it in a running engine, against reading the file and one SHA-256 over it; the same for a \
            two-arm experiment (two rule sets loaded). A user's arm (--iterations/10 calls) against one SHA-256 of \
            "salt:user"; ticks of many users (--iterations/200 a round) on a bundle with an experiment against the same \
            without one. RULESRUN_BENCH_ONLY=bundles runs this part alone.
            Replay: a cohort (--replay-users users, 14 days) simulated in memory with its events kept, then replayed: line by \
            line on one engine (standard input, --explain, --check) and in parallel by user (a file), CPU time per event against \
            the simulation's; with a database, SQLite alone writing the simulation's rows against `replay --db`. \
            RULESRUN_BENCH_ONLY=replay runs this part alone.
            Build with `swift build -c release` first: debug builds are several times slower.
            Limits: --iterations 1 to \(maxIterations), --rounds 1 to \(maxRounds), --store-users 1 to \(maxStoreUsers) \
            (the store benchmark holds its rows in memory: some 180 KB per user).

            Examples:
              rulesrun bench
              rulesrun bench --json --iterations 2000000
            """
    )

    static let maxIterations = 10_000_000
    static let maxRounds = 20
    static let maxStoreUsers = 1_000

    @Option(
        parsing: .unconditional, help: "Calls per round, 1 to \(maxIterations). (default: 1000000)",
        transform: WholeNumber.parser(1...maxIterations)) var iterations = 1_000_000
    @Option(
        parsing: .unconditional,
        help: "Rounds per measurement, 1 to \(maxRounds); the fastest round counts (the store runs at most 3). (default: 5)",
        transform: WholeNumber.parser(1...maxRounds)) var rounds = 5
    @Flag(help: "Print one JSON object instead of a table.") var json = false
    @Option(
        parsing: .unconditional, help: "Simulated users replayed in the replay benchmark, 14 days each, 1 to \(maxStoreUsers). (default: 200)",
        transform: WholeNumber.parser(1...maxStoreUsers)) var replayUsers = 200
    @Option(
        parsing: .unconditional, help: "Simulated users in the store benchmark, 30 days each, 1 to \(maxStoreUsers). (default: 100)",
        transform: WholeNumber.parser(1...maxStoreUsers)) var storeUsers = 100

    func run() throws {
        if let name = Console.current.environment["RULESRUN_BENCH_ONLY"] {  // profiling one measurement
            if name == Self.replayOnly {
                let replay = try withFolder { try runReplay(in: $0) }
                if json {
                    Terminal.print(try Self.jsonText(["replay": try Self.jsonObject(replay)]))
                } else {
                    printReplay(replay)
                }
                return
            }
            if name == Self.bundlesOnly {
                let bundles = try withFolder { try runBundles(in: $0) }
                if json {
                    Terminal.print(try Self.jsonText(["bundles": try Self.jsonObject(bundles)]))
                } else {
                    printBundles(bundles)
                }
                return
            }
            guard let only = LuaHostBenchmark.Measurement(rawValue: name) else {
                let names = (LuaHostBenchmark.Measurement.allCases.map(\.rawValue) + [Self.bundlesOnly, Self.replayOnly]).joined(
                    separator: ", ")
                throw ValidationError("RULESRUN_BENCH_ONLY: expected one of \(names), found \"\(name)\"")
            }
            let ns = try LuaHostBenchmark.run(only: only, iterations: iterations, rounds: rounds)
            Terminal.print("\(only.rawValue): \(String(format: "%.1f ns", ns)) per call")
            return
        }
        let r = try LuaHostBenchmark.run(iterations: iterations, rounds: rounds)
        let streak = try StreakCallBenchmark.run(iterations: max(1, iterations / 100), rounds: rounds)
        let (store, bundles, replay) = try withFolder { directory in
            (
                try StoreBenchmark.run(directory: directory.path, users: storeUsers, rounds: min(rounds, 3)), try runBundles(in: directory),
                try runReplay(in: directory)
            )
        }
        let targets = [
            Target(
                name: "rule call: (b) LuaHost / bare C API tables in/out (issue 20)", measured: r.host_over_table_floor,
                limit: 1.3, atMost: true),
            Target(
                name: "rule call: (b) LuaHost / bare C API tables in/out with a count hook", measured: r.host_over_hooked_table_floor,
                limit: 1.3, atMost: true),
            Target(name: "rule call: (b) LuaHost / (a) bare C API integers", measured: r.host_over_floor, limit: 3, atMost: true),
            Target(name: "store: bulk path / raw INSERT rows per second", measured: store.bulkToRawRatio, limit: 0.5, atMost: false),
            Target(
                name: "store: Pressure user-year, KB", measured: Double(store.pressureUserYearBytes) / 1024, limit: 200, atMost: true),
            Target(
                name: "store: habit tracker user-year, KB", measured: Double(store.habitUserYearBytes) / 1024, limit: 1024,
                atMost: true),
            Target(
                name: "bundle: verify and activate the default rule set's bundle, ms", measured: bundles.one_arm.activate_ms,
                limit: BundleBenchmark.activationTargetMs, atMost: true),
            Target(
                name: "replay: in memory / simulate --no-db, CPU per event", measured: replay.parallel_over_simulate, limit: 3,
                atMost: true),
            Target(
                name: "replay: --db in parallel / SQLite alone on the same rows, wall time",
                measured: replay.db_parallel_over_floor, limit: 1.5, atMost: true),
            Target(
                name: "analyze: a rollout's log / simulate of it --no-db, CPU per event", measured: replay.analyze_over_simulate, limit: 3,
                atMost: true),
        ]
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var object = try JSONSerialization.jsonObject(with: encoder.encode(r)) as? [String: Any] ?? [:]
            object["habit_streak"] = try JSONSerialization.jsonObject(with: encoder.encode(streak))
            object["targets"] = targets.map(\.json)
            object["measured_elsewhere"] = Self.measuredElsewhere.map { ["target": $0.target, "command": $0.command] }
            object["store"] =
                [
                    "rows": store.rows, "user_days": store.userDays,
                    "bulk_rows_per_second": store.bulkRowsPerSecond, "raw_rows_per_second": store.rawRowsPerSecond,
                    "bulk_over_raw": store.bulkToRawRatio,
                    "pressure_user_year_bytes": store.pressureUserYearBytes,
                    "habit_user_year_bytes": store.habitUserYearBytes,
                ] as [String: Any]
            object["bundles"] = try Self.jsonObject(bundles)
            object["replay"] = try Self.jsonObject(replay)
            Terminal.print(try Self.jsonText(object))
            return
        }
        func f(_ x: Double) -> String { String(format: "%8.1f ns", x) }
        Terminal.print("rule call, \(iterations) calls x \(rounds) rounds (fastest round, CPU time of the thread)")
        Terminal.print("  (a) floor, bare C API, integers  \(f(r.floor_ns))")
        Terminal.print(
            "      bare C API, tables in/out    \(f(r.table_floor_ns))   = \(String(format: "%.2f", r.table_floor_ns / r.floor_ns)) x (a): the cost of the tables themselves"
        )
        Terminal.print(
            "        with a count hook          \(f(r.table_floor_hooked_ns))   = \(String(format: "%.2f", r.table_floor_hooked_ns / r.table_floor_ns)) x without: Lua traps every instruction to count it"
        )
        Terminal.print(
            "  (b) LuaHost, tables <-> structs  \(f(r.host_ns))   (b)/(a) = \(String(format: "%.2f", r.host_over_floor)), "
                + "(b)/(tables in/out) = \(String(format: "%.2f", r.host_over_table_floor)), "
                + "with a hook \(String(format: "%.2f", r.host_over_hooked_table_floor))")
        Terminal.print(
            "      (b) without instruction hook \(f(r.host_no_hook_ns))   hook share of (b) = \(String(format: "%.1f%%", r.hook_share * 100))"
        )
        Terminal.print("      generic [LuaValue] + Decoder \(f(r.generic_ns))")
        Terminal.print("  (c) native Swift                 \(f(r.native_ns))   (b)/(c) = \(String(format: "%.0f", r.host_over_native))")
        Terminal.print("habit streak call, \(streak.periods) periods, \(streak.iterations) calls x \(rounds) rounds (fastest round)")
        Terminal.print("  old shape: 3 fields a period, integer out  \(String(format: "%8.2f us", streak.old_shape_ns / 1000))")
        Terminal.print(
            "  widened: 8 fields, task, user, table out  \(String(format: "%8.2f us", streak.widened_ns / 1000))   = \(String(format: "%.2f", streak.widened_over_old)) x old"
        )
        Terminal.print("store, \(store.rows) rows (\(store.userDays) user-days)")
        Terminal.print(
            "  bulk path      \(String(format: "%9.0f", store.bulkRowsPerSecond)) rows/s   = \(String(format: "%.2f", store.bulkToRawRatio)) x raw   target >= 0.50"
        )
        Terminal.print("  raw INSERT     \(String(format: "%9.0f", store.rawRowsPerSecond)) rows/s")
        Terminal.print("  Pressure user-year       \(store.pressureUserYearBytes / 1024) KB   budget 200 KB")
        Terminal.print("  habit tracker user-year  \(store.habitUserYearBytes / 1024) KB   budget 1024 KB (50 tasks x 365 days)")
        printBundles(bundles)
        printReplay(replay)
        Terminal.print("targets (ratios of measurements of this run; times are the thread's CPU time)")
        for target in targets { Terminal.print("  \(target.line)") }
        Terminal.print("measured elsewhere")
        for other in Self.measuredElsewhere { Terminal.print("  \(other.target): \(other.command)") }
    }

    /// `RULESRUN_BENCH_ONLY` for the replay benchmark alone.
    static let replayOnly = "replay"

    func runReplay(in directory: URL) throws -> ReplayBench.Results {
        try ReplayBench.run(
            users: replayUsers, days: 14, jobs: min(ProcessInfo.processInfo.activeProcessorCount, ParallelReplay.maxJobs),
            directory: directory.path)
    }

    func printReplay(_ r: ReplayBench.Results) {
        func us(_ x: Double) -> String { String(format: "%8.2f us", x) }
        Terminal.print("replay, \(r.events) events of \(r.users) users x \(r.days) days (CPU time of the process per event)")
        Terminal.print("  simulate --no-db                 \(us(r.simulate_cpu_us))")
        Terminal.print(
            "  replay, line by line (one engine) \(us(r.replay_sequential_cpu_us))   = \(String(format: "%.2f", r.sequential_over_simulate)) x simulate"
        )
        Terminal.print(
            "  replay, \(r.jobs) workers by user    \(us(r.replay_parallel_cpu_us))   = \(String(format: "%.2f", r.parallel_over_simulate)) x simulate   (wall \(us(r.replay_parallel_wall_us)))"
        )
        Terminal.print(
            "  SQLite alone, \(r.sqlite_floor_rows) rows  \(us(r.sqlite_floor_cpu_us))   (wall \(us(r.sqlite_floor_wall_us)))")
        Terminal.print(
            "  replay --db, line by line        \(us(r.replay_db_cpu_us))   = "
                + "\(String(format: "%.2f", r.db_over_floor)) x SQLite alone")
        Terminal.print(
            "  replay --db, \(r.jobs) workers by user \(us(r.replay_db_parallel_cpu_us))   "
                + "(wall \(us(r.replay_db_parallel_wall_us)) = "
                + "\(String(format: "%.2f", r.db_parallel_over_floor)) x SQLite alone's wall)")
        Terminal.print("  simulate of a two-arm rollout    \(us(r.rollout_simulate_cpu_us))")
        Terminal.print(
            "  analyze of its log, \(r.jobs) workers   \(us(r.analyze_cpu_us))   = \(String(format: "%.2f", r.analyze_over_simulate)) x simulate")
    }

    /// Runs `body` in a new folder of the temporary folder, removed afterwards (and those of killed
    /// benchmarks before).
    func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let temporary = FileManager.default.temporaryDirectory
        Self.removeStaleFolders(in: temporary)
        // The process's and this run's: two benchmarks of one process (run in-process) share nothing.
        let directory = temporary.appendingPathComponent("\(Self.folderPrefix)\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    static func jsonObject(_ value: some Encodable) throws -> Any {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONSerialization.jsonObject(with: encoder.encode(value))
    }

    static func jsonText(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A target the benchmark measures, and whether this run meets it.
    struct Target {
        var name: String
        var measured: Double
        var limit: Double
        /// Whether the measure must be at most the limit (else at least).
        var atMost: Bool
        var met: Bool { atMost ? measured <= limit : measured >= limit }
        var line: String {
            let limitText = String(format: "%g", limit)
            return "\(name): \(String(format: "%.2f", measured))   target \(atMost ? "<=" : ">=") \(limitText)   "
                + (met ? "met" : "not met")
        }
        var json: [String: Any] {
            ["name": name, "measured": measured, "target": "\(atMost ? "<=" : ">=") \(String(format: "%g", limit))", "met": met]
        }
    }

    /// Issue 20's other targets, and the command that measures each.
    static let measuredElsewhere: [(target: String, command: String)] = [
        ("in memory, at most 4 us of CPU per event; Lua / reference throughput >= 1/3", "rulesrun simulate 30d --bench"),
        ("with the database, wall time at most 1.25 x SQLite alone on the same rows", "rulesrun simulate 30d --users 10000 --bench"),
        ("compare, at least 5,000 thirty-day histories per second", "rulesrun compare A B --bench"),
        ("peak RSS of 10,000 users x 30 days under 2 GB", "/usr/bin/time -v rulesrun simulate 30d --users 10000 [--no-db]"),
    ]

    /// The store benchmark's folder in the temporary folder, named after the process and the run
    /// (`rulesrun-bench-PID-XXXXXXXX`).
    static let folderPrefix = "rulesrun-bench-"

    /// Removes the folders left by benchmarks that were killed (their process is gone).
    static func removeStaleFolders(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            guard let pid = pid_t(name.dropFirst(folderPrefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid(),
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
