import Foundation
import RulesEngine
import RulesModel
import RulesSim
@testable import RulesStore
import Testing

/// `UserRecords` answers the reads of `UserStorage` from memory, re-implementing the store's SQL
/// (its filters, bounds and `ORDER BY`s) by hand. Here the same rows are made both ways, by the
/// same operations — the engine applying the same events through the store, one by one, and
/// through each user's records in a recording batch (`RecordingBatchTests`: the same database) —
/// and every read must answer the same for a grid of arguments: every row's own instant and day as a bound (from inclusive, to
/// exclusive), the instants just before and after, every type and task filter, deleted and live
/// modes, grants at their start, end and around them.
@Suite struct UserRecordsReadTests {
    @Test func pressureHabitAndMigaReadsAnswerAsTheDatabase() throws {
        let generator = HistoryGenerator(seed: 0x5EC_0D, days: 20...40, freshStart: true)
        var histories = (0..<8).map { ReplayScript(generator.history(case: $0), user: "u\($0 + 1)").lines }
        // Habit tasks and MIGA: completions of two tasks at the same instant, gateway events of
        // every type at the same instant (ties in the ordering keys), day after day.
        var lines = [
            #"{"user": "u9", "at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}"#,
            #"{"user": "u9", "at": "2026-03-02T07:01:00+01:00", "type": "habit_task", "task": "read"}"#,
            #"{"user": "u9", "at": "2026-03-02T07:02:00+01:00", "type": "habit_task", "task": "walk"}"#,
        ]
        for day in 2...9 {
            let date = "2026-03-0\(day)"
            for (time, task) in [("12:00", "walk"), ("12:00", "read"), ("12:00", "walk")] {
                lines.append(#"{"user": "u9", "at": "\#(date)T\#(time):00+01:00", "type": "habit_completion", "task": "\#(task)"}"#)
            }
            for (time, event) in [
                ("13:00", "exit_to_focus"), ("13:00", "proceed_to_app"), ("13:00", "exit_to_focus"), ("13:00", "deepen_pause"),
            ] {
                lines.append(#"{"user": "u9", "at": "\#(date)T\#(time):00+01:00", "type": "miga", "event": "\#(event)", "app": "X"}"#)
            }
            lines.append(#"{"user": "u9", "at": "\#(date)T18:30:00+01:00", "type": "habit_completion", "task": "read"}"#)
            lines.append(#"{"user": "u9", "at": "\#(date)T21:15:00+01:00", "type": "miga", "event": "exit_to_focus", "app": "X"}"#)
        }
        histories.append(lines)
        // Issue 17: skips (one planned ahead), freezes equipped twice on a day, used; unchecks of
        // tied completions, in a time zone whose habit days start at 04:00.
        var marks = [
            #"{"user": "u10", "at": "2026-03-02T07:00:00+01:00", "type": "settings", "timezone": "Europe/Paris", "day_starts_at": "04:00"}"#,
            #"{"user": "u10", "at": "2026-03-02T07:01:00+01:00", "type": "habit_task", "task": "read"}"#,
            #"{"user": "u10", "at": "2026-03-02T07:02:00+01:00", "type": "habit_task", "task": "walk", "frequency": "every_n_days", "every": 2}"#,
            #"{"user": "u10", "at": "2026-03-02T07:03:00+01:00", "type": "habit_skip", "task": "walk", "day": "2026-03-09"}"#,
        ]
        for day in 2...8 {
            let date = "2026-03-0\(day)"
            for task in ["read", "walk", "read"] {
                marks.append(#"{"user": "u10", "at": "\#(date)T12:00:00+01:00", "type": "habit_completion", "task": "\#(task)"}"#)
            }
            marks.append(#"{"user": "u10", "at": "\#(date)T12:01:00+01:00", "type": "habit_uncheck", "task": "read"}"#)
            marks.append(
                #"{"user": "u10", "at": "\#(date)T12:02:00+01:00", "type": "habit_\#(day % 2 == 0 ? "skip" : "freeze")", "task": "\#(day % 3 == 0 ? "read" : "walk")"\#(day % 2 == 0 ? "" : #", "action": "use""#)}"#
            )
            marks.append(#"{"user": "u10", "at": "\#(date)T12:03:00+01:00", "type": "habit_freeze", "task": "read", "action": "equip"}"#)
            marks.append(#"{"user": "u10", "at": "\#(date)T12:04:00+01:00", "type": "habit_freeze", "task": "read", "action": "equip"}"#)
        }
        histories.append(marks)
        let covered = try expectSameReads(histories)
        #expect(covered.tasks == 4 && covered.completionTies > 0 && covered.usageTies > 0)
        #expect(covered.dayMarks == 3 * 7 + 1 && covered.markTies > 0 && covered.unchecked == 7)
    }

    @Test func earnedReadsAnswerAsTheDatabase() throws {
        let economy = EconomyHistory(seed: 0xEA_12ED, days: 8)
        var histories = (0..<8).map { k in
            economy.lines(case: k).map { $0.replacingOccurrences(of: "\"user\": \"u1\"", with: "\"user\": \"u\(k + 1)\"") }
        }
        // The README's Earned example (grant extensions, time-zone changes), with a second mode of
        // the same priority as the first (a tie in `modes`' order) and a mode deleted afterwards.
        var example = try String(
            contentsOf: Repository.root.appendingPathComponent("examples/replay/earned-economy.jsonl"), encoding: .utf8
        )
        .split(separator: "\n").map { "{\"user\": \"u9\", " + $0.dropFirst() }
        example.insert(
            "{\"user\": \"u9\", \"at\": \"2026-02-02T08:00:35-08:00\", \"type\": \"mode\", \"mode\": \"social\", \"strictness\": \"GENTLE\", \"windows\": [{\"days\": [6, 7], \"start\": \"10:00\", \"end\": \"12:00\"}, {\"days\": [1], \"start\": \"10:00\", \"end\": \"11:00\"}], \"blocked_apps\": [\"iosToken:ZZ\", \"iosToken:AbCDeF\"]}",
            at: 4)
        example.insert(
            "{\"user\": \"u9\", \"at\": \"2026-02-02T08:00:36-08:00\", \"type\": \"mode\", \"mode\": \"old\", \"strictness\": \"GENTLE\", \"windows\": [], \"blocked_apps\": []}",
            at: 5)
        example.insert(
            "{\"user\": \"u9\", \"at\": \"2026-02-02T08:00:37-08:00\", \"type\": \"mode\", \"mode\": \"old\", \"deleted\": true}", at: 6)
        // Two habits completed at the same instant, twice.
        let completion = example.firstIndex { $0.contains("\"earned_habit_completion\"") }!
        let at = "2026-02-02T08:00:41-08:00"
        example.insert(
            contentsOf: [
                "{\"user\": \"u9\", \"at\": \"\(at)\", \"type\": \"earned_habit\", \"habit\": \"walk\", \"reward_credits\": 3}",
                "{\"user\": \"u9\", \"at\": \"\(at)\", \"type\": \"earned_habit\", \"habit\": \"read\", \"reward_credits\": 2}",
            ],
            at: completion)
        let tied = "2026-02-02T08:05:00-08:00"
        example.insert(
            contentsOf: [
                "{\"user\": \"u9\", \"at\": \"\(tied)\", \"type\": \"earned_habit_completion\", \"habit\": \"walk\"}",
                "{\"user\": \"u9\", \"at\": \"\(tied)\", \"type\": \"earned_habit_completion\", \"habit\": \"read\"}",
            ],
            at: completion + 3)
        histories.append(example)
        let covered = try expectSameReads(histories)
        #expect(covered.habitCompletionTies > 0 && covered.deletedModes > 0 && covered.modePriorityTies > 0 && covered.expiredGrants > 0)
    }

    /// Records `histories` (one user each), writes them, and compares every read of every user.
    /// Returns which of the cases an ordering or a filter could get wrong the rows include.
    private func expectSameReads(_ histories: [[String]]) throws -> Coverage {
        let rules = try RuleSet.load(Repository.rules.path)
        let store = try Store.inMemory(options: StoreOptions(deviceID: "x"))
        let alone = Engine(store: store, rules: rules)
        let recording = Engine(rules: rules)
        alone.userID = Engine.numberedUserID
        recording.userID = Engine.numberedUserID
        var records: [UserRecords] = []
        for lines in histories {
            let events = try lines.map { try EngineEvent.parse($0) }
            // Some are refused, as in a simulation (RecordingBatchTests: the same ones both ways).
            for event in events { _ = try? alone.apply(event) }
            let (_, user) = try recording.recordingBatch {
                for event in events { _ = try? recording.applySummarized(event) }
            }
            records += user
        }
        var compared = 0
        for user in records {
            compared += try compareReads(user, store)
        }
        #expect(compared > 1000, "only \(compared) reads compared")
        return Coverage(records)
    }

    /// Which of the cases that an ordering or a filter could get wrong the rows include.
    /// (No grant is revoked: the engine never revokes one.)
    struct Coverage {
        var usageTies = 0, completionTies = 0, habitCompletionTies = 0, deletedModes = 0, modePriorityTies = 0
        var expiredGrants = 0, tasks = 0, dayMarks = 0, markTies = 0, unchecked = 0

        init(_ records: [UserRecords]) {
            func ties<T>(_ rows: [T], _ key: (T) -> EpochMillis) -> Int { rows.count - Set(rows.map(key)).count }
            for user in records {
                usageTies += ties(user.usageEvents, \.timestamp)
                completionTies += ties(user.completions, \.completedAt)
                tasks += user.tasks.count
                dayMarks += user.dayMarks.count
                markTies += user.dayMarks.count - Set(user.dayMarks.map { "\($0.taskID) \($0.day)" }).count
                unchecked += user.completionWrites.filter { if case .delete = $0 { true } else { false } }.count
                guard let earned = user.earned else { continue }
                habitCompletionTies += ties(earned.completions, \.timestamp)
                let live = earned.modes.values.map(\.mode).filter { $0.deletedAt == nil }
                deletedModes += earned.modes.count - live.count
                modePriorityTies += live.count - Set(live.map(\.priority)).count
                expiredGrants += earned.grants.values.filter { $0.endsAt < earned.settings.updatedAt }.count
            }
        }
    }

    /// Compares each read of `records` with the store's; returns how many were compared.
    private func compareReads(_ records: UserRecords, _ store: Store) throws -> Int {
        let id = records.userID
        var count = 0
        func same<T: Equatable>(_ what: @autoclosure () -> String, _ read: (any UserStorage) throws -> T) {
            count += 1
            let fromStore = Result { try read(store) }
            let fromRecords = Result { try read(records) }
            switch (fromStore, fromRecords) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(what()) of user \(id)")
            case (.failure, .failure): break
            default: Issue.record("\(what()) of user \(id): the store answered \(fromStore), the records \(fromRecords)")
            }
        }

        // Instants: every row's own, and one millisecond either side.
        var instants: Set<EpochMillis> = [0]
        var days: Set<DayID> = []
        for c in records.commitments.values { days.insert(c.day) }
        for c in records.completions { instants.formUnion([c.completedAt - 1, c.completedAt, c.completedAt + 1]) }
        for m in records.dayMarks { days.insert(m.day) }
        for e in records.usageEvents { instants.formUnion([e.timestamp - 1, e.timestamp, e.timestamp + 1]) }
        let earned = records.earned
        for c in earned?.completions ?? [] {
            instants.formUnion([c.timestamp - 1, c.timestamp, c.timestamp + 1])
            days.insert(c.dayID)
        }
        var grantInstants: Set<EpochMillis> = []
        for g in earned?.grants.values ?? [:].values {
            grantInstants.formUnion([g.startsAt - 1, g.startsAt, g.endsAt - 1, g.endsAt, g.endsAt + 1])
        }
        for day in Array(days) {
            if let before = day.adding(days: -1) { days.insert(before) }
            if let after = day.adding(days: 1) { days.insert(after) }
        }
        let sortedInstants = instants.sorted()
        // Periods: from each instant to a few later ones (every bound met), and the whole range.
        var periods: [(EpochMillis, EpochMillis)] = [(0, (sortedInstants.last ?? 0) + 1)]
        for (i, from) in sortedInstants.enumerated() where i % 3 == 0 {
            for to in sortedInstants[i...].prefix(7) where to > from { periods.append((from, to)) }
        }
        let sortedDays = days.sorted()

        // Pressure
        for day in sortedDays {
            same("commitment on \(day)") { try $0.commitment(id, on: day) }
            for last in [1, 2, 7, 30] {
                same("commitmentHistory(lastDays: \(last), endingOn: \(day))") {
                    try $0.commitmentHistory(id, lastDays: last, endingOn: day)
                }
            }
        }
        // Habit tracker
        let taskIDs: [UUID?] = [nil] + records.tasks.map(\.id)
        for task in records.tasks { same("task \(task.id)") { try $0.task(id, id: task.id) } }
        for (i, from) in sortedDays.enumerated() {
            for to in sortedDays[i...].prefix(5) {
                for task in taskIDs {
                    same("dayMarks(task: \(String(describing: task)), fromDay: \(from), toDay: \(to))") {
                        try $0.dayMarks(id, taskID: task, fromDay: from, toDay: to)
                    }
                }
            }
        }
        for (from, to) in periods {
            for task in taskIDs {
                // `completion_id` is the database's (AUTOINCREMENT over every user): a user's records
                // cannot know it and leave it nil; everything else, order included, must agree.
                same("completions(task: \(String(describing: task)), from: \(from), to: \(to))") {
                    try $0.completions(id, taskID: task, from: from, to: to).map {
                        var c = $0; c.id = nil; return c
                    }
                }
                #expect(try records.completions(id, taskID: task, from: from, to: to).allSatisfy { $0.id == nil })
            }
            // MIGA
            for type in [nil] + UsageEventType.allCases.map(Optional.some) {
                same("usageEvents(from: \(from), to: \(to), type: \(String(describing: type)))") {
                    try $0.usageEvents(id, from: from, to: to, type: type)
                }
            }
            if earned != nil {
                same("habitCompletions(from: \(from), to: \(to))") { try $0.habitCompletions(id, from: from, to: to) }
            }
        }
        same("migaSettings") { try $0.migaSettings(id) }

        // Earned
        guard let earned else { return count }
        same("economyState") { try $0.economyState(id) }
        same("emergencyState") { try $0.emergencyState(id) }
        same("earnedSettings") { try $0.earnedSettings(id) }
        for (i, from) in sortedDays.enumerated() {
            for to in sortedDays[i...].prefix(4) {
                same("habitCompletions(fromDay: \(from), toDay: \(to))") { try $0.habitCompletions(id, fromDay: from, toDay: to) }
            }
        }
        for habit in earned.habits.keys.sorted() + ["no such habit"] { same("habit \(habit)") { try $0.habit(id, id: habit) } }
        same("modes") { try $0.modes(id) }
        for mode in earned.modes.keys.sorted() + ["no such mode"] {
            same("mode \(mode)") { try $0.mode(id, id: mode) }
            same("modeWindows \(mode)") { try $0.modeWindows(id, modeID: mode) }
            same("blockedApps \(mode)") { try $0.blockedApps(id, modeID: mode) }
        }
        same("distractingApps") { try $0.distractingApps(id) }
        for at in grantInstants.sorted() { same("activeGrants(at: \(at))") { try $0.activeGrants(id, at: at) } }
        let apps = Set(earned.grants.values.map(\.appID)).union(earned.limits.values.map(\.appID))
        for day in sortedDays {
            for app in apps.sorted() { same("dailyAppLimits(\(day), \(app))") { try $0.dailyAppLimits(id, day: day, appID: app) } }
        }
        return count
    }
}

/// The event log held in memory refuses an event id it already holds, as the table's UNIQUE
/// constraint does, also after ids were taken back by a rollback or dropped by a cleanup.
@Suite struct EarnedRecordsEventIDTests {
    @Test func aRepeatedEventIDIsRefused() throws {
        let day = try DayID("2026-03-02"), next = try DayID("2026-03-03")
        let records = try UserRecords(UserID(1), day: day, now: day.utcStartMillis)
        let earned = records.earnedTables
        func entry(_ id: String, at: EpochMillis = day.utcStartMillis) -> EventLogEntry {
            EventLogEntry(
                userID: UserID(1), eventID: id, timestamp: at, timezoneID: "UTC", dayID: day,
                payload: .dayRollover(.init(fromDayID: day, toDayID: next, carriedCredits: 0)), createdAt: at)
        }
        let ids = (0..<300).map { "00000000-0000-4000-8000-\(String(format: "%012d", $0))" }
        for id in ids { try earned.appendEvent(entry(id)) }
        for id in [ids[0], ids[150], ids[299]] {
            #expect(throws: StoreError.self) { try earned.appendEvent(entry(id)) }
        }
        #expect(earned.events.count == 300)
        // Taken back by a rollback: free again, once.
        _ = records.savepoint()
        let point = records.savepoint()
        try earned.appendEvent(entry("new-event"))
        records.rollback(to: point)
        try earned.appendEvent(entry("new-event"))
        #expect(throws: StoreError.self) { try earned.appendEvent(entry("new-event")) }
        // Dropped by a cleanup: free again.
        try earned.prune(now: day.utcStartMillis + 400 * 86_400_000, policy: RetentionPolicy())
        #expect(earned.events.isEmpty)
        try earned.appendEvent(entry(ids[0]))
        #expect(throws: StoreError.self) { try earned.appendEvent(entry(ids[0])) }
    }
}
