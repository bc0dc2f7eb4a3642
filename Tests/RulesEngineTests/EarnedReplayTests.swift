import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Earned's events through replay (earned-data-model-v1.1.md A4.2, A6, A7), on the default rules.
@Suite struct EarnedReplayTests {
    static let insta = "android:com.instagram.android"
    static let tok = "iosToken:AbCDeF"

    /// An Earned event on March `day` at `time` UTC.
    static func ev(_ day: Int, _ time: String, _ type: String, _ fields: String = "") -> String {
        Ev.at(day, time, "\"type\": \"\(type)\"" + (fields.isEmpty ? "" : ", " + fields))
    }

    /// Both apps distracting, one all-day mode of `strictness`, a habit worth `reward` credits done
    /// at 08:00 (the balance is then `reward`).
    static func setUp(_ strictness: String = "STRICT", reward: Int = 50, day: Int = 2) -> [String] {
        [
            ev(day, "07:00", "distracting_apps", "\"apps\": [\"\(insta)\", \"\(tok)\"]"),
            ev(
                day, "07:00", "mode",
                "\"mode\": \"always\", \"strictness\": \"\(strictness)\", \"windows\": [{\"days\": [1, 2, 3, 4, 5, 6, 7], \"start\": \"00:00\", \"end\": \"00:00\"}]"
            ),
            ev(day, "07:00", "earned_habit", "\"habit\": \"walk\", \"reward_credits\": \(reward)"),
            ev(day, "08:00", "earned_habit_completion", "\"habit\": \"walk\""),
        ]
    }

    static func open(_ day: Int, _ time: String, _ app: String = insta) -> String { ev(day, time, "unlock_open", "\"app\": \"\(app)\"") }
    static func choose(_ day: Int, _ time: String, _ option: String, _ app: String = insta) -> String {
        ev(day, time, "unlock_choose", "\"app\": \"\(app)\", \"option\": \(option)")
    }
    static func credits(_ minutes: Int) -> String { "\"CREDITS_UNLOCK\", \"minutes\": \(minutes)" }
    static func quest(_ type: String) -> String { "\"QUEST_UNLOCK\", \"quest_type\": \"\(type)\"" }
    static let emergency = "\"EMERGENCY_UNLOCK\""

    func events(_ h: ReplayHarness, _ type: EventType? = nil) throws -> [EventLogEntry] {
        try h.engine.store!.read { try $0.events(UserID(rawValue: 1)!, from: 0, to: 4_000_000_000_000, type: type) }
    }

    /// A user who never uses Earned still has Earned's settings row: its time zone follows the
    /// user's, so the two settings rows of the database agree.
    @Test func aPressureOnlyUsersSettingsRowsAgreeOnTheTimeZone() throws {
        let h = try ReplayHarness()
        h.run([#"{"at": "2026-03-02T06:00:00Z", "type": "settings", "timezone": "Europe/Berlin"}"#, Ev.commit(2, "07:00")])
        #expect(try h.engine.store!.read { try $0.earnedSettings(UserID(rawValue: 1)!) }.timezoneID == "Europe/Berlin")
    }

    @Test func theGateReproducesTheDocumentsSnapshot() throws {
        let h = try ReplayHarness()
        h.run(Self.setUp("HARD", reward: 15))
        let out = h.run([Self.open(2, "09:00", Self.tok)])[0]
        let options = try #require(out.at("decisions", "unlock_gate", "available_options"))
        // The document's example, with this attempt's instant and mode.
        var expected = try JSONSerialization.jsonObject(with: Data(UnlockGateTests.documentExample.utf8)) as! [String: Any]
        let actual = try JSONSerialization.jsonObject(with: Data(options.description.utf8)) as! [String: Any]
        expected["generated_ts_utc_ms"] = actual["generated_ts_utc_ms"]
        expected["mode_id"] = actual["mode_id"]
        #expect(NSDictionary(dictionary: expected) == NSDictionary(dictionary: actual))
        // The attempt stores the same snapshot (A3 unlock_attempt.available_options_json).
        let id = try #require(out.at("decisions", "unlock_gate", "attempt_id")?.string)
        let stored = try #require(try h.engine.store!.read { try $0.unlockAttempt(UserID(rawValue: 1)!, attemptID: id) })
        #expect(stored.availableOptions == (try JSONDecoder().decode(AvailableOptions.self, from: Data(options.description.utf8))))
        #expect(stored.effectiveStrictness == .hard && stored.outcome == .pending)
    }

    @Test func anAppNothingBlocksNeedsNoUnlock() throws {
        let h = try ReplayHarness()
        let out = h.run([Self.open(2, "09:00", "android:com.example.calculator")])[0]
        #expect(out.at("decisions", "unlock_gate", "blocked") == .bool(false))
        #expect(try events(h).isEmpty)
    }

    @Test(arguments: [
        // (set-up strictness, habit reward, events after the set-up, the denial expected last)
        ("STRICT", 20, [open(2, "09:00"), choose(2, "09:01", credits(15))], "INSUFFICIENT_CREDITS"),
        ("HARD", 50, [open(2, "09:00"), choose(2, "09:01", quest("BREATHING"))], "DISALLOWED_IN_HARD_MODE"),
        ("STRICT", 50, [open(2, "09:00"), choose(2, "09:01", quest("QR_SCAN"))], "QR_KEY_NOT_SET"),
        (
            "STRICT", 50,
            [
                open(2, "09:00"), choose(2, "09:01", quest("BREATHING")), ev(2, "09:02", "quest_complete", "\"app\": \"\(insta)\""),
                open(2, "09:10"), choose(2, "09:11", quest("COPY_TEXT")),
            ], "COOLDOWN_ACTIVE"
        ),
        (
            "STRICT", 50,
            [
                open(2, "09:00"), choose(2, "09:01", quest("BREATHING")), ev(2, "09:02", "quest_complete", "\"app\": \"\(insta)\""),
                open(2, "09:30"), choose(2, "09:31", quest("BREATHING")), ev(2, "09:32", "quest_complete", "\"app\": \"\(insta)\""),
                open(2, "10:00"), choose(2, "10:01", quest("BREATHING")),
            ], "DAILY_LIMIT_REACHED"
        ),
        (
            "STRICT", 50, [open(2, "09:00"), choose(2, "09:01", emergency), open(2, "12:00", tok), choose(2, "12:01", emergency, tok)],
            "DAILY_LIMIT_REACHED"
        ),
        (
            "STRICT", 50, [open(2, "09:00"), choose(2, "09:01", emergency), open(3, "12:00"), choose(3, "12:01", emergency)],
            "SAME_APP_CONSECUTIVE_BLOCKED"
        ),
    ])
    func everyDenialCode(strictness: String, reward: Int, lines: [String], reason: String) throws {
        let h = try ReplayHarness()
        let out = h.run(Self.setUp(strictness, reward: reward) + lines)
        let last = try #require(out.last)
        #expect(last.at("decisions", "unlock", "outcome") == .string("DENIED"), "\(last)")
        #expect(last.at("decisions", "unlock", "reason") == .string(reason))
        // The snapshot of that attempt already said so, and the log tells the same story (A7).
        let gate = try #require(out.dropLast().last)
        #expect(gate.description.contains("\"disabled_reason\":\"\(reason)\""))
        let log = try events(h).suffix(2).map(\.payload)
        #expect(log.map(\.type) == [.unlockOptionSelected, .unlockDenied])
        if case .unlockDenied(let denied) = log.last { #expect(denied.reason.rawValue == reason) }
        let attempt = try #require(
            try h.engine.store!.read {
                try $0.unlockAttempt(UserID(rawValue: 1)!, attemptID: last.at("decisions", "unlock", "attempt_id")!.string!)
            })
        #expect(attempt.outcome == .denied && attempt.denialReason?.rawValue == reason && attempt.grantID == nil)
        #expect(try h.engine.store!.checkInvariants().isEmpty)
    }

    @Test func aSecondUnlockExtendsTheCurrentGrant() throws {
        let h = try ReplayHarness()
        let out = h.run(
            Self.setUp(reward: 50) + [
                Self.open(2, "09:00"), Self.choose(2, "09:00", Self.credits(5)),
                Self.open(2, "09:02"), Self.choose(2, "09:02", Self.credits(15)),
            ])
        let first = try #require(out[5].at("decisions", "unlock"))
        let second = try #require(out[7].at("decisions", "unlock"))
        #expect(first["extended"] == .bool(false) && second["extended"] == .bool(true))
        #expect(second["grant_id"] == first["grant_id"])
        #expect(second["ends"] == .string("2026-03-02T09:20"))  // the 09:05 end + 15 minutes
        let store = h.engine.store!
        let grant = try #require(try store.read { try $0.currentGrant(UserID(rawValue: 1)!, appID: AppID(rawValue: Self.insta)!) })
        #expect(grant.endsAt - grant.startsAt == 20 * Millis.minute)
        #expect(try store.read { try $0.activeGrants(UserID(rawValue: 1)!, at: grant.startsAt) }.count == 1)
        #expect(out[7].at("state", "earned", "credit_balance") == .int(50 - 10 - 25))
        #expect(try store.checkInvariants().isEmpty)
    }

    @Test func anEmergencyGrantStartsAfterTheDelay() throws {
        let h = try ReplayHarness()
        let out = h.run(
            Self.setUp(reward: 0) + [
                Self.open(2, "09:00"), Self.choose(2, "09:00", Self.emergency),
                #"{"at": "2026-03-02T09:00:30Z", "type": "tick"}"#,
                #"{"at": "2026-03-02T09:01:30Z", "type": "tick"}"#,
            ])
        #expect(out[5].at("decisions", "unlock", "starts") == .string("2026-03-02T09:01"))
        #expect(out[5].at("decisions", "unlock", "ends") == .string("2026-03-02T09:06"))
        #expect(out[6].at("state", "earned", "unlocked_until") == nil)  // still in the delay
        #expect(out[7].at("state", "earned", "unlocked_until", Self.insta) == .string("2026-03-02T09:06"))
        let granted = try events(h, .unlockGranted)
        guard case .unlockGranted(let payload) = granted.last?.payload else { Issue.record("no UNLOCK_GRANTED"); return }
        #expect(payload.startsAt == granted.last!.timestamp + 60_000 && payload.method == .emergency)
        #expect(try events(h).suffix(3).map(\.payload.type) == [.unlockOptionSelected, .emergencyUsed, .unlockGranted])
    }

    @Test func failedCancelledAndExpiredQuestsNeverCount() throws {
        let h = try ReplayHarness()
        let app = "\"app\": \"\(Self.insta)\""
        let out = h.run(
            Self.setUp(reward: 0) + [
                Self.open(2, "09:00"), Self.choose(2, "09:00", Self.quest("COPY_TEXT")),
                Self.ev(2, "09:01", "quest_fail", app + ", \"reason\": \"MISMATCH\""),
                Self.open(2, "09:02"), Self.choose(2, "09:02", Self.quest("BREATHING")), Self.ev(2, "09:03", "quest_cancel", app),
                Self.open(2, "09:04"), Self.choose(2, "09:04", Self.quest("BREATHING")), Self.ev(2, "09:30", "tick"),
                Self.open(2, "09:31"), Self.choose(2, "09:31", Self.quest("BREATHING")), Self.ev(2, "09:32", "quest_complete", app),
                Self.open(2, "09:50"), Self.choose(2, "09:50", Self.quest("BREATHING")), Self.ev(2, "09:51", "quest_complete", app),
                Self.open(2, "10:10"),
            ])
        #expect(out[12].at("decisions", "quests_expired") != nil)
        #expect(out[15].at("decisions", "quest", "state") == .string("COMPLETED"))
        #expect(out[18].at("decisions", "quest", "state") == .string("COMPLETED"))
        // Two granted quests: the third is refused, whatever failed before.
        #expect(out[19].description.contains("\"type\":\"QUEST_UNLOCK\",\"enabled\":false,\"disabled_reason\":\"DAILY_LIMIT_REACHED\""))
        let limits = try h.engine.store!.read {
            try $0.dailyAppLimits(UserID(rawValue: 1)!, day: DayID("2026-03-02"), appID: AppID(rawValue: Self.insta)!)
        }
        #expect(limits.questGrantsCount == 2)
        #expect(
            try events(h).map(\.payload.type).filter { [.questFailed, .questCancelled, .questExpired, .questCompleted].contains($0) }
                == [.questFailed, .questCancelled, .questExpired, .questCompleted, .questCompleted])
        #expect(try h.engine.store!.checkInvariants().isEmpty)
    }

    @Test func theDayRollsOverAt0400LocalAcrossATimeZoneChange() throws {
        let h = try ReplayHarness()
        let out = h.run([
            #"{"at": "2026-03-02T07:00:00-08:00", "type": "settings", "timezone": "America/Vancouver"}"#,
            #"{"at": "2026-03-02T07:00:00-08:00", "type": "earned_habit", "habit": "walk", "reward_credits": 25}"#,
            #"{"at": "2026-03-02T08:00:00-08:00", "type": "earned_habit_completion", "habit": "walk"}"#,
            #"{"at": "2026-03-03T03:59:00-08:00", "type": "tick"}"#,
            #"{"at": "2026-03-03T04:00:00-08:00", "type": "tick"}"#,
            // 20:00 in Vancouver is 13:00 the next day in Tokyo: Tokyo's 04:00 has passed, the day rolls over at once.
            #"{"at": "2026-03-03T20:00:00-08:00", "type": "settings", "timezone": "Asia/Tokyo"}"#,
            #"{"at": "2026-03-05T03:59:00+09:00", "type": "tick"}"#,
            #"{"at": "2026-03-05T04:00:00+09:00", "type": "tick"}"#,
        ])
        #expect(out[3].at("decisions", "earned_days") == nil)
        let first = try #require(out[4].at("decisions", "earned_days")?.array?.first)
        #expect(first["from_day_id"] == .string("2026-03-02") && first["to_day_id"] == .string("2026-03-03"))
        #expect(first["carried_credits"] == .int(10) && first["forfeited_credits"] == .int(15) && first["streak_count"] == .int(1))
        let moved = try #require(out[5].at("decisions", "earned_days")?.array?.first)
        #expect(moved["to_day_id"] == .string("2026-03-04") && moved["streak_count"] == .int(0))  // 03-03 did not qualify
        #expect(out[6].at("decisions", "earned_days") == nil)
        #expect(out[7].at("decisions", "earned_days")?.array?.first?["to_day_id"] == .string("2026-03-05"))
        let rollovers = try events(h, .dayRollover)
        #expect(rollovers.map(\.dayID.rawValue) == ["2026-03-03", "2026-03-04", "2026-03-05"])
        #expect(rollovers.map(\.timezoneID) == ["America/Vancouver", "Asia/Tokyo", "Asia/Tokyo"])
        guard case .dayRollover(let payload) = rollovers[0].payload else { Issue.record("not a DAY_ROLLOVER"); return }
        #expect(payload.carriedCredits == 10 && payload.fromDayID.rawValue == "2026-03-02")
        #expect(rollovers[0].timestamp == Timestamp("2026-03-03T04:00:00-08:00")!.millis)
        #expect(try h.engine.store!.read { try $0.earnedSettings(UserID(rawValue: 1)!) }.timezoneID == "Asia/Tokyo")
        #expect(try h.engine.store!.checkInvariants().isEmpty)
    }

    @Test func focusSessionsEarnAndQualifyTheStreakWithABonusEveryThirdDay() throws {
        let h = try ReplayHarness()
        var lines: [String] = []
        for day in 2...4 {
            lines += [Self.ev(day, "09:00", "focus_start", "\"minutes\": 30"), Self.ev(day, "10:00", "tick")]
        }
        lines += [Self.ev(5, "09:00", "focus_start", "\"minutes\": 50"), Self.ev(5, "09:15", "focus_end")]
        let out = h.run(lines)
        #expect(out[1].at("decisions", "focus_ended", "credits_earned") == .int(6))  // 30 minutes / 5
        #expect(out[1].at("decisions", "focus_ended", "streak_qualified") == .string("FOCUS"))
        #expect(out[5].at("decisions", "focus_ended", "streak_count") == .int(3))
        #expect(out[5].at("decisions", "focus_ended", "streak_bonus") == .int(10))
        #expect(out[5].at("state", "earned", "credit_balance") == .int(10 + 6 + 10))  // carried 10 (cap) + 6 + bonus
        let early = try #require(out[7].at("decisions", "focus_ended"))
        #expect(early["completed"] == .bool(false) && early["actual_minutes"] == .int(15) && early["credits_earned"] == .int(0))
        #expect(early["qualifies"] == .bool(false))
        #expect(try events(h).map(\.payload.type).contains(.streakBonusAwarded))
        #expect(try h.engine.store!.checkInvariants().isEmpty)
    }

    @Test func tooManyHabitCompletionsSuspendAwards() throws {
        let h = try ReplayHarness()
        var lines = (1...7).map { Self.ev(2, "08:00", "earned_habit", "\"habit\": \"h\($0)\", \"reward_credits\": 1") }
        lines += (1...7).map { Self.ev(2, "09:0\($0)", "earned_habit_completion", "\"habit\": \"h\($0)\"") }
        lines += [
            Self.ev(3, "09:00", "earned_habit_completion", "\"habit\": \"h1\""),
            Self.ev(4, "09:00", "earned_habit_completion", "\"habit\": \"h1\""),
        ]
        let out = h.run(lines)
        let seventh = try #require(out[13].at("decisions", "earned_habit_completion"))
        #expect(seventh["award_suspended"] == .bool(true) && seventh["credits_earned"] == .int(0))
        #expect(seventh["awards_suspended_until"] == .string("2026-03-03"))
        #expect(out[14].at("decisions", "earned_habit_completion", "award_suspended") == .bool(true))
        #expect(out[15].at("decisions", "earned_habit_completion", "credits_earned") == .int(1))
        let suspended = try events(h, .habitAwardSuspended)
        guard case .habitAwardSuspended(let payload) = suspended.first?.payload else { Issue.record("no HABIT_AWARD_SUSPENDED"); return }
        #expect(payload.untilDayID.rawValue == "2026-03-03" && payload.reason == .tooManyCompletionsInWindow)
        let again = h.one(Self.ev(4, "10:00", "earned_habit_completion", "\"habit\": \"h1\""))
        #expect(again.at("error", "code") == .string("HABIT_ALREADY_COMPLETED"))
    }

    @Test func modesFollowTheirWindowsOverridesAndPriority() throws {
        let h = try ReplayHarness()
        h.run([
            Self.ev(2, "07:00", "distracting_apps", "\"apps\": [\"\(Self.insta)\"]"),
            Self.ev(
                2, "07:00", "mode",
                "\"mode\": \"night\", \"strictness\": \"HARD\", \"windows\": [{\"days\": [1], \"start\": \"22:00\", \"end\": \"06:00\"}]"),
            Self.ev(
                2, "07:00", "mode",
                "\"mode\": \"work\", \"strictness\": \"GENTLE\", \"priority\": 2, \"windows\": [{\"days\": [1, 2, 3, 4, 5], \"start\": \"09:00\", \"end\": \"17:00\"}]"
            ),
        ])
        func strictness(_ line: String) -> JSONValue? { h.one(line).at("decisions", "unlock_gate", "available_options", "mode_strictness") }
        // 2026-03-02 is a Monday: the night window runs into Tuesday 06:00 (the previous day's mask).
        #expect(strictness(Self.open(2, "23:00")) == .string("HARD"))
        #expect(strictness(Self.open(3, "05:59")) == .string("HARD"))
        #expect(h.one(Self.open(3, "06:00")).at("decisions", "unlock_gate", "blocked") == .bool(false))
        #expect(strictness(Self.open(3, "09:00")) == .string("GENTLE"))
        #expect(
            h.run([
                Self.ev(3, "09:10", "mode_override", "\"mode\": \"work\", \"state\": \"FORCED_OFF\", \"until\": \"2026-03-03T10:00:00Z\"")
            ]).count == 1)
        #expect(h.one(Self.open(3, "09:20")).at("decisions", "unlock_gate", "blocked") == .bool(false))
        #expect(strictness(Self.open(3, "10:00")) == .string("GENTLE"))  // the override expired
        h.run([Self.ev(3, "10:05", "mode_override", "\"mode\": \"night\", \"state\": \"FORCED_ON\"")])
        #expect(strictness(Self.open(3, "10:10")) == .string("GENTLE"))  // work has the higher priority
        h.run([Self.ev(3, "10:15", "mode", "\"mode\": \"work\", \"priority\": 0")])
        #expect(strictness(Self.open(3, "10:20")) == .string("HARD"))  // equal priority: the stricter
        #expect(h.one(Self.ev(3, "10:25", "tick")).at("state", "earned", "mode_in_force", "mode") == .string("night"))
        #expect(
            h.one(Self.ev(3, "10:30", "mode_override", "\"mode\": \"gym\", \"state\": \"FORCED_ON\"")).at("error", "code")
                == .string("UNKNOWN_MODE"))
    }

    @Test func refusedEarnedEventsSayWhyAndChangeNothing() throws {
        let h = try ReplayHarness()
        h.run(Self.setUp(reward: 50))
        let before = try h.engine.store!.dump()
        let cases: [(String, String)] = [
            (Self.choose(2, "09:00", Self.credits(5)), "NO_PENDING_ATTEMPT"),
            (Self.ev(2, "09:00", "quest_complete", "\"app\": \"\(Self.insta)\""), "NO_ACTIVE_QUEST"),
            (Self.ev(2, "09:00", "focus_end"), "NO_ACTIVE_FOCUS"),
            (Self.ev(2, "09:00", "earned_habit_completion", "\"habit\": \"run\""), "UNKNOWN_HABIT"),
            (Self.ev(2, "09:00", "earned_habit_completion", "\"habit\": \"walk\""), "HABIT_ALREADY_COMPLETED"),
            (Self.ev(2, "09:00", "unlock_open", "\"app\": \"com.instagram\""), "INVALID_EVENT"),
            (Self.ev(2, "09:00", "unlock_choose", "\"app\": \"\(Self.insta)\", \"option\": \"CREDITS_UNLOCK\""), "INVALID_EVENT"),
            (Self.ev(2, "09:00", "mode", "\"mode\": \"new\""), "INVALID_EVENT"),
        ]
        for (line, code) in cases {
            let out = h.one(line)
            #expect(out.at("error", "code") == .string(code), "\(line) → \(out)")
        }
        #expect(try h.engine.store!.dump() == before)
        // A length the rules do not price is refused, and the attempt still waits.
        h.run([Self.open(2, "09:01")])
        #expect(h.one(Self.choose(2, "09:02", Self.credits(20))).at("error", "code") == .string("OPTION_NOT_OFFERED"))
        #expect(h.one(Self.choose(2, "09:03", Self.credits(30))).at("decisions", "unlock", "outcome") == .string("GRANTED"))
    }

    @Test func theQRKeyCannotChangeSoonInStrictMode() throws {
        let h = try ReplayHarness()
        h.run(Self.setUp("STRICT") + [Self.ev(2, "09:00", "qr_key", "\"value\": \"sticker\"")])
        #expect(h.one(Self.ev(2, "12:00", "qr_key", "\"value\": \"other\"")).at("error", "code") == .string("KEY_CHANGE_COOLDOWN"))
        #expect(h.one(Self.ev(3, "09:00", "qr_key", "\"value\": \"other\""))["ok"] == .bool(true))
    }

    @Test func anEconomyDecisionThatBreaksAnInvariantChangesNothing() throws {
        let rules = MisbehavingRules()
        let h = try ReplayHarness(rules: rules)
        h.run(Self.setUp("HARD", reward: 5))
        let before = try h.engine.store!.dump()
        rules.questsInHard = true
        #expect(h.one(Self.open(2, "09:00")).at("error", "code") == .string("RULE_VIOLATION"))
        rules.questsInHard = false
        rules.carryExtra = 1
        let refused = h.one(Self.ev(3, "05:00", "tick"))
        #expect(refused.at("error", "code") == .string("RULE_VIOLATION"))
        #expect(refused.at("error", "message")?.string?.contains("carried_credits(5) returned 6") == true)
        #expect(try h.engine.store!.dump() == before)
    }

    @Test func theExampleFileReplaysWithSoundInvariants() throws {
        let h = try ReplayHarness()
        let file = RuleFixture.rulesFolder.deletingLastPathComponent().appendingPathComponent("examples/replay/earned-economy.jsonl")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let out = h.run(lines)
        #expect(out.allSatisfy { $0["ok"] == .bool(true) })
        #expect(try h.engine.store!.checkInvariants().isEmpty)
        let types = Set(try events(h).map(\.payload.type))
        #expect(
            types.isSuperset(of: [
                .dayRollover, .creditsEarned, .creditsSpent, .streakQualified, .unlockAttemptCreated, .unlockOptionSelected,
                .unlockGranted, .unlockDenied, .questStarted, .questCompleted, .questFailed, .questExpired,
                .emergencyUsed, .focusStarted, .focusEnded,
            ]))
    }
}
