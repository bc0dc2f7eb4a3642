import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// `exposure` events (docs/replay.md): a user's exposure to an arm of an experiment, recorded
/// once per arm in `experiment_exposure`, listed in the user's state, refused with the field named
/// when malformed, and read without an event (`Engine.exposure(ofUser:experiment:arm:)`).
@Suite struct ExposureEventTests {
    static func line(_ at: String, _ fields: String, user: String = "u1") -> String {
        #"{"type": "exposure", "user": "\#(user)", "at": "\#(at)", \#(fields)}"#
    }

    static func exposure(_ at: String, _ experiment: String, _ arm: String, revision: Int, user: String = "u1") -> String {
        line(at, #""experiment": "\#(experiment)", "arm": "\#(arm)", "revision": \#(revision)"#, user: user)
    }

    static func millis(_ at: String) -> EpochMillis { Timestamp(at)!.millis }

    @Test func theFirstExposureIsRecordedWithItsRevisionAndTime() throws {
        let store = try Store.inMemory()
        let harness = try ReplayHarness(store: store)
        // A user the log has not seen before: created by its first event, as by any other.
        let out = harness.one(Self.exposure("2026-03-02T08:30:00+01:00", "checkout-2026", "treatment", revision: 3))
        #expect(
            out["decisions"]
                == .object([
                    (
                        "exposure",
                        .object([
                            ("experiment", .string("checkout-2026")), ("arm", .string("treatment")), ("revision", .int(3)),
                            ("first", .bool(true)),
                        ])
                    )
                ]), "\(out)")
        // A user with exposures only: Pressure's fields (its initial state), then the exposures.
        #expect(out["state"]?["current_tier"] == .int(0))
        #expect(
            out["state"]?["exposures"]
                == .array([
                    .object([
                        ("experiment", .string("checkout-2026")), ("arm", .string("treatment")), ("revision", .int(3)),
                        ("at", .string("2026-03-02T07:30")),
                    ])
                ]))
        let user = try #require(try store.users().first)
        #expect(
            try store.exposures(user) == [
                ExperimentExposure(
                    userID: user, experiment: "checkout-2026", arm: "treatment", revision: 3,
                    exposedAt: Self.millis("2026-03-02T08:30:00+01:00"))
            ])
    }

    /// The state lists the exposures in the user's local time, in its new time zone after a change
    /// (the list is made once and kept with the user's context between events).
    @Test func theExposuresFollowTheUsersTimeZone() throws {
        let harness = try ReplayHarness(store: try Store.inMemory())
        let outs = harness.run([
            Self.exposure("2026-03-02T08:30:00Z", "checkout-2026", "treatment", revision: 3),
            #"{"type": "tick", "user": "u1", "at": "2026-03-02T08:45:00Z"}"#,
            #"{"type": "settings", "user": "u1", "at": "2026-03-02T09:00:00Z", "timezone": "Asia/Tokyo"}"#,
        ])
        let times = outs.map { $0["state"]?["exposures"]?.array?.first?["at"] }
        #expect(times == [.string("2026-03-02T08:30"), .string("2026-03-02T08:30"), .string("2026-03-02T17:30")], "\(outs)")
    }

    @Test func aRepeatChangesNothingAndAnotherArmIsRecorded() throws {
        let store = try Store.inMemory()
        let harness = try ReplayHarness(store: store)
        let outs = harness.run([
            Self.exposure("2026-03-02T08:30:00Z", "checkout-2026", "treatment", revision: 3),
            Self.exposure("2026-03-02T09:30:00Z", "checkout-2026", "treatment", revision: 4),
            // The rollout grew: the user moved to another arm of the experiment.
            Self.exposure("2026-03-09T09:30:00Z", "checkout-2026", "control", revision: 5),
            Self.exposure("2026-03-09T09:31:00Z", "onboarding", "treatment", revision: 5),
        ])
        let decisions = outs.map { $0["decisions"]?["exposure"] }
        #expect(decisions.map { $0?["first"] } == [.bool(true), .bool(false), .bool(true), .bool(true)])
        // The repeat's decision gives the revision kept, the first exposure's.
        #expect(decisions.map { $0?["revision"] } == [.int(3), .int(3), .int(5), .int(5)])
        let user = try #require(try store.users().first)
        #expect(
            try store.exposures(user).map { [$0.experiment, $0.arm, "\($0.revision)", "\($0.exposedAt)"] } == [
                ["checkout-2026", "treatment", "3", "\(Self.millis("2026-03-02T08:30:00Z"))"],
                ["checkout-2026", "control", "5", "\(Self.millis("2026-03-09T09:30:00Z"))"],
                ["onboarding", "treatment", "5", "\(Self.millis("2026-03-09T09:31:00Z"))"],
            ])
        #expect(outs[3]["state"]?["exposures"]?.array?.count == 3)
        #expect(try store.checkInvariants().isEmpty)
    }

    @Test func badFieldsAreRefusedNamingTheFieldAndChangeNothing() throws {
        let store = try Store.inMemory()
        let harness = try ReplayHarness(store: store)
        harness.run([Self.exposure("2026-03-02T08:30:00Z", "checkout-2026", "treatment", revision: 3)])
        let before = try store.dump()
        let long = String(repeating: "x", count: 41)
        let cases: [(String, String)] = [
            (#""experiment": "e", "arm": "a", "revision": 0"#, "revision: expected a bundle's revision (1–2147483647), found 0"),
            (
                #""experiment": "e", "arm": "a", "revision": 2147483648"#,
                "revision: expected a bundle's revision (1–2147483647), found 2147483648"
            ),
            (#""experiment": "e", "arm": "a", "revision": "3""#, #"revision: expected an integer, found string "3""#),
            (#""experiment": "e", "revision": 3"#, "arm: required field is missing"),
            (
                #""experiment": "\#(long)", "arm": "a", "revision": 3"#,
                #"experiment: expected a name (1 to 40 of a-z, 0-9, '-', '_' and '.'), found "\#(long)""#
            ),
            (
                #""experiment": "e", "arm": "Treatment", "revision": 3"#,
                #"arm: expected a name (1 to 40 of a-z, 0-9, '-', '_' and '.'), found "Treatment""#
            ),
            (#""experiment": "e", "arm": "", "revision": 3"#, #"arm: expected a name (1 to 40 of a-z, 0-9, '-', '_' and '.'), found """#),
            (#""experiment": "e", "arms": "a", "revision": 3"#, "arms: unknown field (did you mean 'arm'?)"),
        ]
        for (i, (fields, message)) in cases.enumerated() {
            let out = harness.replay.output(forLine: Self.line("2026-03-02T09:0\(i):00Z", fields), number: 1)
            #expect(out["error"]?["code"] == .string("INVALID_EVENT"), "\(out)")
            #expect(out["error"]?["message"] == .string("line 1: \(message)"), "\(out)")
        }
        // Made in code (an app's engine) rather than read: checked the same.
        let made = EngineEvent.exposure(
            user: "u1", at: Timestamp("2026-03-02T10:00:00Z")!, experiment: "checkout-2026", arm: "Treatment", revision: 3)
        #expect(throws: EngineError(.invalidEvent, #"arm: expected a name (1 to 40 of a-z, 0-9, '-', '_' and '.'), found "Treatment""#)) {
            try harness.engine.apply(made)
        }
        #expect(try store.dump() == before)
    }

    @Test func anEventMadeInCodeIsTheLineOfTheFormat() throws {
        let event = EngineEvent.exposure(
            user: "u7", at: Timestamp("2026-03-02T08:30:00+01:00")!, experiment: "checkout-2026", arm: "treatment", revision: 3)
        #expect(event.kind == .exposure(experiment: "checkout-2026", arm: "treatment", revision: 3))
        #expect(event.kind != .exposure(experiment: "checkout-2026", arm: "treatment", revision: 4))
        #expect(event.kind.typeName == "exposure")
        let line =
            #"{"at":"2026-03-02T08:30:00+01:00","user":"u7","type":"exposure","experiment":"checkout-2026","arm":"treatment","revision":3}"#
        #expect(event.jsonLine == line)
        #expect(try EngineEvent.parse(line) == event)
    }

    /// Users without exposures keep their state as it was: no `exposures` key.
    @Test func theStateListsExposuresOnlyWhenThereAreAny() throws {
        let harness = try ReplayHarness()
        let outs = harness.run([
            Ev.at(2, "08:00", #""type": "habit_task", "task": "read""#),
            Ev.at(2, "08:01", #""type": "exposure", "experiment": "streaks", "arm": "b", "revision": 1"#),
            Ev.at(2, "08:02", #""type": "habit_task", "task": "read""#, user: "u2"),
        ])
        #expect(outs[0]["state"] == .object([("habit_streaks", .object([("read", .int(0))]))]))
        guard case .object(let fields)? = outs[1]["state"] else {
            Issue.record("\(outs[1])")
            return
        }
        #expect(fields.map(\.0) == ["habit_streaks", "exposures"])
        #expect(outs[2]["state"]?["exposures"] == nil)
        #expect(harness.engine.state(ofUser: "u1")?["exposures"]?.array?.count == 1)
    }

    /// An exposure is written by the app's engine, not sent by the user: it is not an open of the
    /// app (`habit.track_app_opens`), as a tick is not.
    @Test func anExposureIsNotAnOpenOfTheApp() throws {
        let source = try RuleFixture.edited(
            [("max_backfill_days = 0,", "max_backfill_days = 0,\n  track_app_opens = true,")], in: "streaks.lua")
        let dir = try RuleFixture.folder(replacing: "streaks.lua", with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try Store.inMemory()
        let replay = Replay(engine: try Engine(store: store, ruleFolder: dir.path))
        for (i, line) in [
            Ev.at(2, "09:00", #""type": "habit_task", "task": "read""#),
            Ev.at(3, "09:00", #""type": "exposure", "experiment": "streaks", "arm": "b", "revision": 1"#),
            Ev.at(4, "09:00", #""type": "tick""#),
        ].enumerated() {
            let out = replay.output(forLine: line, number: i + 1)
            #expect(out["ok"] == .bool(true), "\(out)")
        }
        let state = try #require(try store.read { try $0.engineState(named: "u1") }).stateJSON
        #expect(state.contains(#""appOpens":{"runs":[{"first":"2026-03-02","last":"2026-03-02"}]}"#), "\(state)")
    }

    /// Whether a user was exposed to an arm, read without applying an event: on the store, in a
    /// batch (the batch's own rows), and in a recording batch (the user's rows in memory).
    @Test func whetherAUserWasExposedIsReadWithoutAnEvent() throws {
        let rules = try RuleSet.load(RuleFixture.rulesFolder.path)
        let at = Timestamp("2026-03-02T08:30:00Z")!
        let event = EngineEvent.exposure(user: "u1", at: at, experiment: "e", arm: "a", revision: 2)
        let expected = ExperimentExposure(userID: UserID(1), experiment: "e", arm: "a", revision: 2, exposedAt: at.millis)

        let engine = Engine(store: try Store.inMemory(), rules: rules)
        #expect(try engine.exposure(ofUser: "u1", experiment: "e", arm: "a") == nil)
        _ = try engine.apply(EngineEvent(at: at, user: "u1", kind: .tick))
        #expect(try engine.exposure(ofUser: "u1", experiment: "e", arm: "a") == nil)
        _ = try engine.apply(event)
        #expect(try engine.exposure(ofUser: "u1", experiment: "e", arm: "a") == expected)
        #expect(try engine.exposure(ofUser: "u1", experiment: "e", arm: "b") == nil)
        #expect(try engine.exposure(ofUser: "u2", experiment: "e", arm: "a") == nil)

        let batched = Engine(store: try Store.inMemory(), rules: rules)
        try batched.batch {
            #expect(try batched.exposure(ofUser: "u1", experiment: "e", arm: "a") == nil)
            _ = try batched.apply(event)
            #expect(try batched.exposure(ofUser: "u1", experiment: "e", arm: "a") == expected)
        }
        #expect(try batched.exposure(ofUser: "u1", experiment: "e", arm: "a") == expected)

        let recording = Engine(rules: rules)
        recording.userID = Engine.numberedUserID
        _ = try recording.recordingBatch {
            #expect(try recording.exposure(ofUser: "u1", experiment: "e", arm: "a") == nil)
            _ = try recording.applySummarized(event)
            #expect(try recording.exposure(ofUser: "u1", experiment: "e", arm: "a") == expected)
        }
    }

    /// A simulation's path (`Engine.recordingBatch`, then `BulkWriter`) decides and stores what
    /// applying each event through the store does, refused events included.
    @Test func recordedExposuresGiveTheDatabaseOfEventsAppliedOneByOne() throws {
        let rules = try RuleSet.load(RuleFixture.rulesFolder.path)
        let alone = Engine(store: try Store.inMemory(options: StoreOptions(deviceID: "x")), rules: rules)
        let recording = Engine(rules: rules)
        recording.userID = Engine.numberedUserID
        var records: [UserRecords] = []
        for k in 1...3 {
            let lines = [
                Ev.at(2, "08:00", #""type": "habit_task", "task": "read""#, user: "u\(k)"),
                Ev.at(2, "08:00", #""type": "exposure", "experiment": "e\#(k)", "arm": "b", "revision": \#(k)"#, user: "u\(k)"),
                Ev.at(2, "08:01", #""type": "exposure", "experiment": "e\#(k)", "arm": "b", "revision": 9"#, user: "u\(k)"),
                Ev.at(3, "08:01", #""type": "exposure", "experiment": "e\#(k)", "arm": "a", "revision": 9"#, user: "u\(k)"),
                Ev.at(3, "08:02", #""type": "exposure", "experiment": "e\#(k)", "arm": "A", "revision": 9"#, user: "u\(k)"),
                Ev.at(3, "08:03", #""type": "habit_uncheck", "task": "read""#, user: "u\(k)"),  // refused: no completion
            ]
            let events = lines.compactMap { line in try? EngineEvent.parse(line) }
            #expect(events.count == 5)
            func outcome(_ body: () throws(EngineError) -> JSONValue) -> String {
                do { return try body().description } catch { return "refused: \(error)" }
            }
            let expected = events.map { event in outcome { () throws(EngineError) in try alone.apply(event).decisions } }
            let (got, user) = try recording.recordingBatch {
                events.map { event in outcome { () throws(EngineError) in try recording.applySummarized(event).decisions.json } }
            }
            #expect(got == expected)
            #expect(got.last?.hasPrefix("refused") == true)
            records += user
        }
        let store = try Store.inMemory(options: StoreOptions(deviceID: "x"))
        try BulkWriter(store: store).write(records)
        #expect(try store.dump() == alone.store!.dump())
        #expect(try store.dump().contains("## experiment_exposure (user_id, experiment, arm, revision, ts_utc_ms)\n1 | \"e1\" | \"a\" | 9"))
        #expect(try store.checkInvariants() == [])
    }
}
