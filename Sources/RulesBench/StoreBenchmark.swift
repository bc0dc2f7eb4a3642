import Foundation
import GRDB
import RulesModel
import RulesStore

/// The store's benchmark (not a test): bulk-path throughput against a raw prepared-statement
/// loop of the same rows, and the on-disk size of one user-year of Pressure and habit-tracker data.
package enum StoreBenchmark {
    /// Runs the benchmark in `directory` (database files are created there and removed).
    ///
    /// - Parameters:
    ///   - users, days: the cohort written by both paths (users × days user-days).
    ///   - rounds: each path runs this many times on fresh files; the best time counts.
    package static func run(
        directory: String, users: Int = 100, days: Int = 30, rounds: Int = 3, seed: UInt64 = 42
    ) throws -> StoreBenchmarkResult {
        guard users >= 1, days >= 1, rounds >= 1 else {
            throw StoreError(.invalidState, "the benchmark needs users, days and rounds ≥ 1, found \(users), \(days), \(rounds)")
        }
        let cohort = SyntheticCohort(seed: seed, startDay: try DayID("2026-01-01"))
        let ids = (1...users).map { UserID(Int64($0)) }
        let tasks = Dictionary(uniqueKeysWithValues: ids.map { ($0, cohort.tasks(for: $0)) })
        let userDays = try ids.flatMap { user in try (0..<days).map { try cohort.userDay(user, dayIndex: $0, tasks: tasks[user]!) } }
        let rows = userDays.reduce(0) { $0 + $1.rowCount }

        var bulkBest = Double.infinity, rawBest = Double.infinity
        for round in 0..<rounds {
            bulkBest = min(
                bulkBest,
                try timed(directory, "bench-bulk-\(round)", cohort, ids, prepare: { _ in () }) { store, _ in
                    try BulkWriter(store: store).write(userDays)
                })
            rawBest = min(
                rawBest,
                try timed(
                    directory, "bench-raw-\(round)", cohort, ids,
                    prepare: { store in
                        try RawLoop.prepare(userDays, store: store)
                    }
                ) { store, rows in
                    try RawLoop.write(rows, into: store)
                })
        }
        let pressure = try measurePressureYear(directory, cohort)
        let habit = try measureHabitYear(directory, cohort)
        return StoreBenchmarkResult(
            rows: rows, userDays: userDays.count, bulkRowsPerSecond: Double(rows) / bulkBest,
            rawRowsPerSecond: Double(rows) / rawBest, pressureUserYearBytes: pressure.tables,
            pressureUserYearFileGrowthBytes: pressure.growth, habitUserYearBytes: habit.tables,
            habitUserYearFileGrowthBytes: habit.growth, measuredWithDBStat: pressure.dbstat && habit.dbstat)
    }

    /// Seconds taken by `body` on a fresh file with the cohort's users set up.
    static func timed<Prepared>(
        _ directory: String, _ name: String, _ cohort: SyntheticCohort, _ users: [UserID],
        prepare: (Store) throws -> Prepared, _ body: (Store, Prepared) throws -> Void
    ) throws -> Double {
        let path = (directory as NSString).appendingPathComponent("\(name).sqlite")
        Store.removeFiles(of: path)
        defer { Store.removeFiles(of: path) }
        let store = try Store.open(path: path)
        for user in users { try cohort.setUp(store, user: user) }
        let prepared = try prepare(store)
        let clock = ContinuousClock()
        let elapsed = try clock.measure { try body(store, prepared) }
        try store.close()
        let parts = elapsed.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// (bytes of the tables and their indexes, file growth, whether dbstat measured them).
    static func measurePressureYear(_ directory: String, _ cohort: SyntheticCohort) throws -> (tables: Int, growth: Int, dbstat: Bool) {
        try measureYear(directory, "bench-pressure", tables: ["pressure_commitment", "pressure_notification"]) { store in
            let user = UserID(1)
            try store.createUser(user, day: cohort.startDay, now: cohort.startDay.utcStartMillis)
        } fill: { store in
            let user = UserID(1)
            let days = try (0..<365).map { index -> UserDay in
                let full = try cohort.userDay(user, dayIndex: index, tasks: [])
                return UserDay(
                    userID: user, day: full.day, commitment: full.commitment, escalationState: full.escalationState,
                    notifications: full.notifications)
            }
            try BulkWriter(store: store).write(days)
        }
    }

    static func measureHabitYear(_ directory: String, _ cohort: SyntheticCohort) throws -> (tables: Int, growth: Int, dbstat: Bool) {
        let fifty = SyntheticCohort(seed: cohort.seed, startDay: cohort.startDay, tasksPerUser: 50)
        let user = UserID(1)
        let tasks = fifty.tasks(for: user)
        return try measureYear(directory, "bench-habit", tables: ["tracker_task", "tracker_completion"]) { store in
            try store.createUser(user, day: cohort.startDay, now: cohort.startDay.utcStartMillis)
        } fill: { store in
            for task in tasks { try store.saveTask(task) }
            var rng = SeededGenerator(seed: cohort.seed, 1, 50)
            let days = (0..<365).map { index -> UserDay in
                let day = cohort.startDay.adding(days: index)!
                let completions = tasks.enumerated().map { i, task in
                    TaskCompletion(
                        userID: user, taskID: task.id, completedAt: day.utcStartMillis + 6 * Millis.hour + Int64(i) * 17 * Millis.minute,
                        value: task.goalType == .none ? nil : Double(Int.random(in: 5...60, using: &rng)))
                }
                return UserDay(userID: user, day: day, taskCompletions: completions)
            }
            try BulkWriter(store: store).write(days)
        }
    }

    static func measureYear(
        _ directory: String, _ name: String, tables: [String], setUp: (Store) throws -> Void,
        fill: (Store) throws -> Void
    ) throws -> (tables: Int, growth: Int, dbstat: Bool) {
        let path = (directory as NSString).appendingPathComponent("\(name).sqlite")
        let empty = path + ".empty", full = path + ".full"
        for p in [path, empty, full] { Store.removeFiles(of: p) }
        defer { for p in [path, empty, full] { Store.removeFiles(of: p) } }
        let store = try Store.open(path: path)
        try setUp(store)
        try store.vacuum(into: empty)
        try fill(store)
        try store.vacuum(into: full)
        try store.close()
        let emptySize = try fileSize(empty), fullSize = try fileSize(full)
        let queue = try DatabaseQueue(path: DatabaseFile.name(full))
        defer { try? queue.close() }
        let measured: Int? = try queue.read { db in
            let list = tables.map { "'\($0)'" }.joined(separator: ", ")
            do {
                return try Int.fetchOne(
                    db,
                    sql: """
                        SELECT SUM(pgsize) FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name IN (\(list)))
                        """)
            } catch { return nil }
        }
        return (measured ?? (fullSize - emptySize), fullSize - emptySize, measured != nil)
    }

    static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
