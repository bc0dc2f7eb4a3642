import ArgumentParser
import Foundation
import RulesBench

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure rule calls and the store, each against a baseline measured in the same run.",
        discussion: """
            Rule calls:
            (a) floor: a small rule called through the bare Lua C API with integer arguments (and, for scale, \
            the same table-in/table-out round trip written directly against the C API);
            (b) host: the same rule through LuaHost, state table in, result table out, read into Swift structs;
            (c) native: the same logic in Swift. Also the generic [LuaValue] path and the instruction hook's share of (b).
            Store: rows per second of the bulk path for simulations against a raw prepared INSERT loop of the same \
            rows, and the size on disk (after VACUUM) of one user-year of Pressure and of the habit tracker.
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
        parsing: .unconditional, help: "Simulated users in the store benchmark, 30 days each, 1 to \(maxStoreUsers). (default: 100)",
        transform: WholeNumber.parser(1...maxStoreUsers)) var storeUsers = 100

    func run() throws {
        let r = try LuaHostBenchmark.run(iterations: iterations, rounds: rounds)
        let streak = try StreakCallBenchmark.run(iterations: max(1, iterations / 100), rounds: rounds)
        let temporary = FileManager.default.temporaryDirectory
        Self.removeStaleFolders(in: temporary)
        let directory = temporary.appendingPathComponent("\(Self.folderPrefix)\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StoreBenchmark.run(directory: directory.path, users: storeUsers, rounds: min(rounds, 3))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var object = try JSONSerialization.jsonObject(with: encoder.encode(r)) as? [String: Any] ?? [:]
            object["habit_streak"] = try JSONSerialization.jsonObject(with: encoder.encode(streak))
            object["store"] =
                [
                    "rows": store.rows, "user_days": store.userDays,
                    "bulk_rows_per_second": store.bulkRowsPerSecond, "raw_rows_per_second": store.rawRowsPerSecond,
                    "bulk_over_raw": store.bulkToRawRatio,
                    "pressure_user_year_bytes": store.pressureUserYearBytes,
                    "habit_user_year_bytes": store.habitUserYearBytes,
                ] as [String: Any]
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
            return
        }
        func f(_ x: Double) -> String { String(format: "%8.1f ns", x) }
        print("rule call, \(iterations) calls x \(rounds) rounds (fastest round)")
        print("  (a) floor, bare C API, integers  \(f(r.floor_ns))")
        print(
            "      bare C API, tables in/out    \(f(r.table_floor_ns))   = \(String(format: "%.2f", r.table_floor_ns / r.floor_ns)) x (a): the cost of the tables themselves"
        )
        print("  (b) LuaHost, tables <-> structs  \(f(r.host_ns))   (b)/(a) = \(String(format: "%.2f", r.host_over_floor))  target <= 3")
        print(
            "      (b) without instruction hook \(f(r.host_no_hook_ns))   hook share of (b) = \(String(format: "%.1f%%", r.hook_share * 100))"
        )
        print("      generic [LuaValue] + Decoder \(f(r.generic_ns))")
        print("  (c) native Swift                 \(f(r.native_ns))   (b)/(c) = \(String(format: "%.0f", r.host_over_native))")
        print("habit streak call, \(streak.periods) periods, \(streak.iterations) calls x \(rounds) rounds (fastest round)")
        print("  old shape: 3 fields a period, integer out  \(String(format: "%8.2f us", streak.old_shape_ns / 1000))")
        print(
            "  widened: 8 fields, task, user, table out  \(String(format: "%8.2f us", streak.widened_ns / 1000))   = \(String(format: "%.2f", streak.widened_over_old)) x old"
        )
        print("store, \(store.rows) rows (\(store.userDays) user-days)")
        print(
            "  bulk path      \(String(format: "%9.0f", store.bulkRowsPerSecond)) rows/s   = \(String(format: "%.2f", store.bulkToRawRatio)) x raw   target >= 0.50"
        )
        print("  raw INSERT     \(String(format: "%9.0f", store.rawRowsPerSecond)) rows/s")
        print("  Pressure user-year       \(store.pressureUserYearBytes / 1024) KB   budget 200 KB")
        print("  habit tracker user-year  \(store.habitUserYearBytes / 1024) KB   budget 1024 KB (50 tasks x 365 days)")
    }

    /// The store benchmark's folder in the temporary folder, named after the process.
    static let folderPrefix = "rulesrun-bench-"

    /// Removes the folders left by benchmarks that were killed (their process is gone).
    static func removeStaleFolders(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            guard let pid = pid_t(name.dropFirst(folderPrefix.count)), pid > 0, pid != getpid(),
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
