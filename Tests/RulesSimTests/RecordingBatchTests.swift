import Foundation
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

/// A simulation's path (`Engine.recordingBatch`: each user's rows in memory, then `BulkWriter`)
/// decides and stores exactly what applying every event on its own, through the store, does.
@Suite struct RecordingBatchTests {
    @Test func recordedHistoriesGiveTheDatabaseOfEventsAppliedOneByOne() throws {
        let generator = HistoryGenerator(seed: 0x5EC_0D, days: 20...40, freshStart: true)
        try expectSameDatabase((0..<12).map { ReplayScript(generator.history(case: $0), user: "u\($0 + 1)").lines })
    }

    /// Earned's operations (every A6 transaction, denials, quests that fail or expire, refused
    /// choices) keep their rows in memory too, and the bulk write stores what the store's
    /// operations store.
    @Test func recordedEarnedHistoriesGiveTheDatabaseOfEventsAppliedOneByOne() throws {
        let economy = EconomyHistory(seed: 0xEA_12ED, days: 8)
        var histories = (0..<16).map { k in
            economy.lines(case: k).map { $0.replacingOccurrences(of: "\"user\": \"u1\"", with: "\"user\": \"u\(k + 1)\"") }
        }
        // The README's Earned example (grant extensions, time-zone changes), with apps blocked by a
        // mode and by a focus session of their own.
        var example = try String(
            contentsOf: Repository.root.appendingPathComponent("examples/replay/earned-economy.jsonl"), encoding: .utf8
        )
        .split(separator: "\n").map { "{\"user\": \"u17\", " + $0.dropFirst() }
        example[example.firstIndex { $0.contains("\"focus_start\"") }!].replace(
            "\"minutes\": 50", with: "\"minutes\": 50, \"blocked_apps\": [\"iosToken:AbCDeF\"]")
        example.insert(
            "{\"user\": \"u17\", \"at\": \"2026-02-02T08:00:35-08:00\", \"type\": \"mode\", \"mode\": \"social\", \"strictness\": \"GENTLE\", \"windows\": [{\"days\": [6, 7], \"start\": \"10:00\", \"end\": \"12:00\"}], \"blocked_apps\": [\"iosToken:AbCDeF\"]}",
            at: 4)
        // Refused after the night's steps (a quest expiring, the day rolling over): those undone too.
        example.insert(
            "{\"user\": \"u17\", \"at\": \"2026-02-03T04:20:00-08:00\", \"type\": \"quest_complete\", \"app\": \"android:com.instagram.android\"}",
            at: example.firstIndex { $0.contains("2026-02-03T04:30:00-08:00") }!)
        histories.append(example)
        let store = try expectSameDatabase(histories)
        let dump = try store.dump()
        for table in [
            "day_summary", "mode", "mode_window", "mode_blocked_app", "habit", "habit_completion", "focus_session",
            "focus_session_blocked_app", "unlock_attempt", "unlock_grant", "unlock_grant_current", "unlock_grant_extension",
            "quest_session", "daily_app_limits", "distracting_app", "event_log",
        ] {
            #expect(!SimTestSupport.rows(of: table, in: dump).isEmpty, "the histories write no \(table) row")
        }
    }

    /// A8 (issue 21): over 40 days, the cleanup the engine runs as an app would keeps exactly the
    /// document's 30 days of `event_log`, `unlock_attempt`, `unlock_grant`, `quest_session` and
    /// `unlock_grant_extension` (counted back from each user's last cleanup), and every
    /// `day_summary`, `focus_session` and `habit_completion`, in both paths (the recorded rows are
    /// pruned in memory as the store prunes them); it changes no decision, and the invariant
    /// checker passes on what is left.
    @Test func fortyDaysKeepTheDocumentsThirtyDaysInBothPaths() throws {
        let economy = EconomyHistory(seed: 0xA8_40, days: 40)
        let histories = (0..<8).map { k in
            economy.lines(case: k).map { $0.replacingOccurrences(of: "\"user\": \"u1\"", with: "\"user\": \"u\(k + 1)\"") }
        }
        let pruned = try expectSameDatabase(histories).dump()
        // The same histories under rules that keep 10 years: nothing is pruned.
        let folder = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in try FileManager.default.contentsOfDirectory(atPath: Repository.rules.path) where file.hasSuffix(".lua") {
            var text = try String(contentsOf: Repository.rules.appendingPathComponent(file), encoding: .utf8)
            if file == "quests.lua" {
                text = text.replacingOccurrences(of: "event_log_days = 30", with: "event_log_days = 3660")
                    .replacingOccurrences(of: "unlock_days = 30", with: "unlock_days = 3660")
            }
            try text.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let keeping = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: try RuleSet.load(folder.path))
        let alone = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: try RuleSet.load(Repository.rules.path))
        for lines in histories {
            for event in try lines.map({ try EngineEvent.parse($0) }) {
                let kept = try? keeping.apply(event).decisions, decided = try? alone.apply(event).decisions
                #expect(kept == decided, "retention changed a decision of \(event)")
            }
        }
        let whole = try keeping.store!.dump()
        // Each user's last cleanup, from the engine's state.
        let lastCleanup = try SimTestSupport.lastCleanups(in: pruned)
        #expect(lastCleanup.count == 8)
        for at in lastCleanup.values {
            // The last cleanup ran on the 40th day or after (the final tick), 30 days after the 10th.
            #expect(at >= (try DayID("2026-04-10").utcStartMillis))
        }
        for (table, time) in [
            ("event_log", "ts_utc_ms"), ("unlock_attempt", "ts_utc_ms"), ("unlock_grant", "created_ts_utc_ms"),
            ("quest_session", "created_ts_utc_ms"), ("unlock_grant_extension", "ts_utc_ms"), ("daily_app_limits", nil),
        ] as [(String, String?)] {
            let all = SimTestSupport.rows(of: table, in: whole), left = SimTestSupport.rows(of: table, in: pruned)
            guard let time else {
                #expect(left.count < all.count, "\(table): nothing was pruned")
                continue
            }
            let expected = all.filter { row in Int64(row[time]!)! >= lastCleanup[row["user_id"]!]! - 30 * Millis.day }
            #expect(left.count < all.count, "\(table): nothing was pruned")
            #expect(left == expected, "\(table): \(left.count) rows kept, \(expected.count) within 30 days of the last cleanup")
        }
        for table in ["day_summary", "focus_session", "habit_completion", "economy_state", "habit", "mode"] {
            #expect(SimTestSupport.rows(of: table, in: pruned) == SimTestSupport.rows(of: table, in: whole), "\(table) changed")
        }
        #expect(SimTestSupport.rows(of: "day_summary", in: pruned).count >= 8 * 40)
    }

    /// Issue 17's habit events (skips, freezes, unchecks of tied completions, refused marks) keep
    /// their rows in memory, and the bulk write stores what the store's operations store.
    @Test func recordedHabitMarksGiveTheDatabaseOfEventsAppliedOneByOne() throws {
        var histories: [[String]] = []
        for k in 1...3 {
            var lines = try String(contentsOf: Repository.root.appendingPathComponent("examples/replay/habit-marks.jsonl"), encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { "{\"user\": \"u\(k)\", " + $0.dropFirst() }
            let at = "2026-03-03T11:00:00+01:00"
            lines += [
                // Two completions at the same instant, one unchecked (the later recorded), then nothing left to uncheck.
                "{\"user\": \"u\(k)\", \"at\": \"\(at)\", \"type\": \"habit_completion\", \"task\": \"plants\"}",
                "{\"user\": \"u\(k)\", \"at\": \"\(at)\", \"type\": \"habit_completion\", \"task\": \"coffee\", \"value\": \(k)}",
                "{\"user\": \"u\(k)\", \"at\": \"\(at)\", \"type\": \"habit_completion\", \"task\": \"coffee\", \"value\": \(k + 1)}",
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:01:00+01:00\", \"type\": \"habit_uncheck\", \"task\": \"coffee\"}",
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:02:00+01:00\", \"type\": \"habit_uncheck\", \"task\": \"plants\"}",
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:03:00+01:00\", \"type\": \"habit_uncheck\", \"task\": \"plants\"}",
                // Refused: a second skip of a day, a second freeze used on a day, a completion of yesterday.
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:04:00+01:00\", \"type\": \"habit_skip\", \"task\": \"water\", \"day\": \"2026-03-07\"}",
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:05:00+01:00\", \"type\": \"habit_freeze\", \"task\": \"water\", \"action\": \"use\"}",
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:06:00+01:00\", \"type\": \"habit_completion\", \"task\": \"gym\", \"for_day\": \"2026-03-02\"}",
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:07:00+01:00\", \"type\": \"habit_freeze\", \"task\": \"gym\", \"action\": \"equip\"}",
                "{\"user\": \"u\(k)\", \"at\": \"2026-03-03T11:08:00+01:00\", \"type\": \"habit_freeze\", \"task\": \"gym\", \"action\": \"equip\"}",
            ]
            histories.append(lines)
        }
        let store = try expectSameDatabase(histories)
        let dump = try store.dump()
        // 3 users × (water: a skip, an equipped freeze, a used one; gym: two equipped).
        #expect(SimTestSupport.rows(of: "tracker_day_mark", in: dump).count == 3 * 5)
        // Per user: gym 1 (02:30) after its uncheck, water 2 − 1, plants 1 − 1, coffee 2 − 1.
        #expect(SimTestSupport.rows(of: "tracker_completion", in: dump).count == 3 * 3)
        // The values left: water's first (2) and coffee's first (k) of each user.
        let values = SimTestSupport.rows(of: "tracker_completion", in: dump).compactMap { $0["value"] }.filter { $0 != "NULL" }
        #expect(values.sorted() == ["1.0", "2.0", "2.0", "2.0", "2.0", "3.0"], "\(values)")
    }

    /// Returns the store the recorded histories were written to.
    @discardableResult
    private func expectSameDatabase(_ histories: [[String]]) throws -> Store {
        let rules = try RuleSet.load(Repository.rules.path)
        let alone = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: rules)
        let recording = Engine(rules: rules)  // no store: the rows stay in the records
        let store = try Store.inMemory(options: StoreOptions(deviceID: "x"))
        recording.userID = Engine.numberedUserID
        func outcome(_ body: () throws(EngineError) -> JSONValue) -> String {
            do { return try body().description } catch { return "refused: \(error)" }
        }
        var records: [UserRecords] = []
        var refused = 0
        for lines in histories {
            let events = try lines.map { try EngineEvent.parse($0) }
            let expected = events.map { event in outcome { () throws(EngineError) in try alone.apply(event).decisions } }
            let (got, user) = try recording.recordingBatch {
                events.map { event in outcome { () throws(EngineError) in try recording.applySummarized(event).decisions.json } }
            }
            #expect(got == expected)
            refused += got.filter { $0.hasPrefix("refused") }.count
            records += user
        }
        // The recording engine has no store to write to, and applies nothing outside a recording batch.
        #expect(recording.store == nil)
        #expect(throws: EngineError.self) { try recording.applySummarized(try EngineEvent.parse(histories[0][0])) }
        #expect(try store.users().isEmpty)  // nothing reaches the store before the bulk write
        try BulkWriter(store: store).write(records)
        #expect(try store.dump() == alone.store!.dump())
        #expect(try store.checkInvariants() == [])
        #expect(refused > 0, "the histories include refused events, which must change nothing")
        return store
    }
}
