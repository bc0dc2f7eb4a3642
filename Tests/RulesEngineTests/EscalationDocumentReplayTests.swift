import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Every row of pressure-escalation-engine.md's tables, as replays through the engine with the
/// default rules (and, where the readings differ, the example rule sets).
@Suite struct EscalationDocumentReplayTests {
    func tiers(_ outputs: [JSONValue]) -> [Int] { outputs.compactMap { $0.at("state", "current_tier")?.int } }

    // MARK: Tier definitions

    @Test func tier0IsTheDefaultWithOneReminderAtTheWindowMidpoint() throws {
        let out = try ReplayHarness().run([Ev.at(2, "07:00", "\"type\": \"settings\", \"commitment_deadline\": \"09:00\"")])
        #expect(out[0].at("state", "current_tier") == .int(0))
        #expect(out[0].at("state", "today", "reminders")?.strings == ["15:30"])  // 09:00 + (22:00 − 09:00) / 2
        #expect(out[0].at("state", "persistent_badge") == .bool(false))
    }

    @Test func tier1AfterOneMissOrNoWithTwoRemindersAndOneYesToReset() throws {
        for miss in ["NO", "MISSED"] {
            let h = try ReplayHarness()
            let out = h.run(Ev.day(2, miss) + [Ev.tick(3, "07:00")] + Ev.day(3, "YES"))
            #expect(out[1].at("state", "current_tier") == .int(1), "\(miss)")
            #expect(out[2].at("state", "today", "reminders")?.strings == ["15:30", "21:00"], "\(miss)")  // midpoint, close − 1 h
            #expect(out.last?.at("state", "current_tier") == .int(0), "\(miss)")
        }
    }

    @Test func tier2AfterTwoWithThreeRemindersAndTwoYesToReset() throws {
        let out = try ReplayHarness().run(
            Ev.day(2, "NO") + Ev.day(3, "MISSED") + [Ev.tick(4, "07:00")] + Ev.day(4, "YES") + Ev.day(5, "YES"))
        #expect(out[3].at("state", "current_tier") == .int(2))
        #expect(out[4].at("state", "today", "reminders")?.strings == ["15:30", "20:00", "21:30"])  // midpoint, close − 2 h, close − 30 min
        #expect(out[6].at("state", "current_tier") == .int(2))  // one YES is not enough
        #expect(out[8].at("state", "current_tier") == .int(0))  // the pseudo-code: straight to 0
    }

    @Test func tier3AfterThreeWithAPersistentBadgeUntilACheckIn() throws {
        let h = try ReplayHarness()
        let out = h.run(
            Ev.day(2, "NO") + Ev.day(3, "NO") + Ev.day(4, "MISSED") + [
                Ev.tick(5, "07:00"), Ev.commit(5), Ev.tick(5, "16:00"), Ev.checkIn(5, "NO", "17:00"),
            ])
        #expect(out[5].at("state", "current_tier") == .int(3))
        #expect(out[5].at("state", "persistent_badge") == .bool(true))  // MISSED does not clear it
        #expect(out[6].at("state", "today", "reminders")?.strings == ["15:30", "20:00", "21:30"])
        #expect(out[8].at("state", "persistent_badge") == .bool(true))
        #expect(out[9].at("state", "persistent_badge") == .bool(false))  // "does not clear until YES or NO is submitted"
        #expect(out[9].at("state", "current_tier") == .int(3))  // 3+ misses
    }

    @Test func tier3NeedsThreeYesDays() throws {
        let out = try ReplayHarness().run(
            Ev.day(2, "NO") + Ev.day(3, "NO") + Ev.day(4, "NO") + Ev.day(5, "YES") + Ev.day(6, "YES") + Ev.day(7, "YES"))
        #expect(tiers(out).enumerated().filter { $0.offset % 2 == 1 }.map(\.element) == [1, 2, 3, 3, 3, 0])
    }

    @Test func graduatedRecoveryFollowsTheTierTable() throws {
        let h = try ReplayHarness(rules: "examples/graduated-recovery")
        let days = ["NO", "NO", "NO", "YES", "YES", "YES", "YES", "YES", "YES"]
        let out = h.run(days.enumerated().flatMap { Ev.day($0.offset + 2, $0.element) })
        // "3 consecutive YES → drops to Tier 2; then 2 more → Tier 1; then 1 → Tier 0"
        #expect(tiers(out).enumerated().filter { $0.offset % 2 == 1 }.map(\.element) == [1, 2, 3, 3, 3, 2, 2, 1, 0])
    }

    // MARK: Transition rules

    @Test func advancementCountsNoAndMissedAndResetsSuccesses() throws {
        let out = try ReplayHarness().run(Ev.day(2, "YES") + Ev.day(3, "YES") + Ev.day(4, "NO"))
        #expect(out[3].at("state", "consecutive_successes") == .int(2))
        #expect(out[5].at("state", "consecutive_successes") == .int(0))
        #expect(out[5].at("state", "consecutive_misses") == .int(1))
    }

    @Test func aNoAfterAYesAtTier3SetsTier1InTheDefaultAndNeverLowersInTheExample() throws {
        let days = Ev.day(2, "NO") + Ev.day(3, "NO") + Ev.day(4, "NO") + Ev.day(5, "YES") + Ev.day(6, "NO")
        #expect(try ReplayHarness().run(days).last?.at("state", "current_tier") == .int(1))
        #expect(try ReplayHarness(rules: "examples/miss-never-lowers-tier").run(days).last?.at("state", "current_tier") == .int(3))
    }

    // MARK: Restart shield

    /// A paid user created after day 1's window closed (day 1 does not count).
    func paidUser() -> [String] { [Ev.at(1, "23:30", "\"type\": \"subscription\", \"tier\": \"PAID\"")] }
    /// A user with notifications on (the seed's default is off until the OS permission is granted).
    static let notificationsOn = Ev.at(1, "23:30", "\"type\": \"settings\", \"notifications_enabled\": true")

    @Test func theShieldKeepsTierAndMissesAndResetsTheStreak() throws {
        let h = try ReplayHarness()
        let out = h.run(paidUser() + Ev.day(2, "YES") + Ev.day(3, "YES") + Ev.day(4, "NO") + [Ev.at(4, "12:30", "\"type\": \"shield\"")])
        #expect(out[0].at("state", "restart_shields_remaining") == .int(1))
        #expect(out[4].at("state", "current_streak") == .int(2))
        let shielded = out[7]
        #expect(shielded.at("decisions", "shield", "tier_after") == .int(0))
        #expect(shielded.at("state", "current_tier") == .int(0))
        #expect(shielded.at("state", "consecutive_misses") == .int(0))
        #expect(shielded.at("state", "current_streak") == .int(0))  // "streak always resets"
        #expect(shielded.at("state", "longest_streak") == .int(2))
        #expect(shielded.at("state", "restart_shields_remaining") == .int(0))
    }

    @Test func theShieldWorksOnAMissedDayWithinAnHourOfTheClose() throws {
        let h = try ReplayHarness()
        let out = h.run(paidUser() + [Ev.commit(2), Ev.tick(2, "22:30"), Ev.at(2, "22:59", "\"type\": \"shield\"")])
        #expect(out[2].at("state", "current_tier") == .int(1))
        #expect(out[3].at("state", "current_tier") == .int(0))
    }

    @Test func aShieldForTheDayOfTheNoPlansNoNewReminders() throws {
        // The check-in cancelled the day's reminders; the shield leaves them so (they were listed
        // twice).
        let h = try ReplayHarness()
        let out = h.run(paidUser() + [Self.notificationsOn] + Ev.day(2, "NO") + [Ev.at(2, "12:30", "\"type\": \"shield\"")])
        #expect(out[3].at("state", "today", "reminders") == out[4].at("state", "today", "reminders"))
        #expect(out[4].at("state", "current_tier") == .int(0))
    }

    @Test func aShieldForYesterdaysMissPlansTodaysRemindersAtTheTierItRestores() throws {
        // A window closing at 23:30 lets the shield's hour run into the next day, whose reminders
        // were planned at the tier the miss raised.
        let h = try ReplayHarness()
        let late = Ev.at(1, "23:30", "\"type\": \"settings\", \"checkin_window_close\": \"23:30\"")
        let out = h.run(
            paidUser() + [
                Self.notificationsOn, late, Ev.commit(2), Ev.tick(2, "23:45"), Ev.tick(3, "00:10"),
                Ev.at(3, "00:20", "\"type\": \"shield\""),
            ])
        #expect(out[4].at("state", "current_tier") == .int(1))
        let raised = out[5].at("state", "today", "reminders")
        let restored = out[6].at("state", "today", "reminders")
        #expect(out[6].at("state", "current_tier") == .int(0))
        #expect(raised == .array([.string("16:15"), .string("22:30")]))  // tier 1: mid, close-60
        #expect(restored == out[3].at("state", "today", "reminders"))  // tier 0, as on day 2: mid
        #expect(restored == .array([.string("16:15")]))
    }

    @Test func theShieldMustBeActivatedWithinOneHourOfTheNo() throws {
        let h = try ReplayHarness()
        let out = h.run(paidUser() + Ev.day(2, "NO") + [Ev.at(2, "13:01", "\"type\": \"shield\"")], allowRefusals: true)
        #expect(out[3].at("error", "code") == .string("SHIELD_WINDOW_PASSED"))
        #expect(out[3].at("ok") == .bool(false))
        let ok = try ReplayHarness().run(paidUser() + Ev.day(2, "NO") + [Ev.at(2, "13:00", "\"type\": \"shield\"")])
        #expect(ok[3].at("state", "current_tier") == .int(0))
    }

    @Test func theShieldIsForPaidUsersOnly() throws {
        let out = try ReplayHarness().run(Ev.day(2, "NO") + [Ev.at(2, "12:10", "\"type\": \"shield\"")], allowRefusals: true)
        #expect(out[2].at("error", "code") == .string("SHIELD_NOT_AVAILABLE"))
        #expect(out[1].at("state", "restart_shields_remaining") == .int(0))
    }

    // MARK: Hard constraints

    @Test func oneShieldAMonthReplenishedOnTheFirst() throws {
        let h = try ReplayHarness()
        let out = h.run(
            paidUser() + Ev.day(2, "NO") + [Ev.at(2, "12:10", "\"type\": \"shield\"")] + Ev.day(3, "NO")
                + [Ev.at(3, "12:10", "\"type\": \"shield\""), Ev.tick(1, "00:30", month: 4)], allowRefusals: true)
        #expect(out[3].at("ok") == .bool(true))
        #expect(out[6].at("error", "code") == .string("NO_SHIELDS_LEFT"))
        #expect(out[7].at("decisions", "shields_replenished") == .int(1))
        #expect(out[7].at("state", "restart_shields_remaining") == .int(1))
    }

    @Test func theTierNeverExceedsThreeAndRemindersStayWithinTheLimits() throws {
        let h = try ReplayHarness()
        var lines: [String] = []
        for day in 2...12 { lines += Ev.day(day, day % 2 == 0 ? "NO" : "MISSED") }
        let out = h.run(lines + [Ev.tick(13, "23:30")])
        #expect(tiers(out).max() == 3)
        let sent = out.compactMap { $0.at("decisions", "reminders_sent")?.strings }
        #expect(sent.allSatisfy { $0.count <= 3 })
        let notifications = try h.engine.store!.read { try $0.notifications(.init(1), from: 0, to: .max) }
        let perDay = Dictionary(grouping: notifications) { $0.scheduledFor / 86_400_000 }
        #expect(perDay.values.allSatisfy { $0.count <= 3 })
        for entries in perDay.values {
            let times = entries.map(\.scheduledFor).sorted()
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 30 * 60_000 })
        }
    }

    // MARK: Notification scheduling and suppression

    @Test func remindersAreRelativeToTheWindow() throws {
        let h = try ReplayHarness()
        let out = h.run(
            [Ev.at(1, "07:00", "\"type\": \"settings\", \"commitment_deadline\": \"12:00\", \"checkin_window_close\": \"18:00\"")]
                + Ev.day(1, "NO", month: 3) + Ev.day(2, "NO") + [Ev.tick(3, "07:00")])
        #expect(out[0].at("state", "today", "reminders")?.strings == ["15:00"])  // tier 0: midpoint
        #expect(out[3].at("state", "today", "reminders")?.strings == ["15:00", "17:00"])  // tier 1
        #expect(out[5].at("state", "today", "reminders")?.strings == ["15:00", "16:00", "17:30"])  // tier 2
    }

    @Test func aCheckInCancelsTheRemainingReminders() throws {
        let h = try ReplayHarness()
        let out = h.run(
            [Self.notificationsOn] + Ev.day(2, "NO") + Ev.day(3, "NO")
                + [Ev.commit(4), Ev.tick(4, "16:00"), Ev.checkIn(4, "YES", "20:30"), Ev.tick(4, "23:00")])
        #expect(out[6].at("decisions", "reminders_sent")?.strings == ["15:30"])
        #expect(out[7].at("decisions", "reminders_sent")?.strings == ["20:00"])
        #expect(out[7].at("decisions", "days")?.array?.first?["reminders_cancelled"]?.strings == ["21:30"])
        #expect(out[8].at("decisions", "reminders_sent") == nil)
    }

    // MARK: Edge cases

    @Test func aTimeZoneChangeMidDayLeavesTodaysScheduleAndAppliesTomorrow() throws {
        let h = try ReplayHarness()
        let out = h.run([
            Ev.commit(2), Ev.at(2, "10:00", "\"type\": \"settings\", \"timezone\": \"Asia/Tokyo\""),
            Ev.tick(2, "21:30"), Ev.tick(2, "22:30"),
        ])
        #expect(out[1].at("decisions", "settings", "effective_from") == .string("2026-03-03"))
        #expect(out[2].at("state", "today", "status") == .string("PENDING"))  // 22:00 UTC today, as before
        #expect(out[3].at("decisions", "days")?.array?.first?["reason"] == .string("window_closed"))
        // Tomorrow follows Tokyo: its deadline is 09:00 JST (00:00 UTC).
        let next = h.run([Ev.at(3, "00:30", "\"type\": \"commitment\", \"text\": \"late\"")], allowRefusals: true)
        #expect(next[0].at("error", "code") == .string("DEADLINE_PASSED"))
    }

    @Test func aCommitmentFiveMinutesBeforeTheDeadlineLocksAtTheDeadline() throws {
        let h = try ReplayHarness()
        h.run([Ev.commit(2, "08:55"), Ev.tick(2, "09:00")])
        let commitment = try h.engine.store!.read { try $0.commitment(.init(1), on: try .init("2026-03-02")) }
        #expect(commitment?.lockedAt == 1_772_442_000_000)  // 2026-03-02T09:00Z
        #expect(h.one(Ev.at(2, "09:00", "\"type\": \"commitment\", \"text\": \"edit\""))["error"]?["code"] == .string("DEADLINE_PASSED"))
    }

    @Test func noCommitmentByTheDeadlineIsAMissedDay() throws {
        let out = try ReplayHarness().run([
            Ev.at(2, "07:00", "\"type\": \"settings\", \"commitment_deadline\": \"09:00\""), Ev.tick(2, "09:00"),
        ])
        #expect(out[1].at("decisions", "days")?.array?.first?["reason"] == .string("no_commitment"))
        #expect(out[1].at("state", "current_tier") == .int(1))
        #expect(out[1].at("state", "today", "status") == .string("MISSED"))
    }

    @Test func aCheckInIsFinal() throws {
        let out = try ReplayHarness().run(Ev.day(2, "YES") + [Ev.checkIn(2, "NO", "13:00")], allowRefusals: true)
        #expect(out[2].at("error", "code") == .string("ALREADY_CHECKED_IN"))
    }

    @Test func tierAndStreakSurviveAReinstall() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reinstall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pressure.sqlite").path
        do {
            let h = try ReplayHarness(store: try Store.open(path: path))
            h.run(Ev.day(2, "YES") + Ev.day(3, "YES") + Ev.day(4, "NO"))
            try h.engine.store!.close()
        }
        let again = try ReplayHarness(store: try Store.open(path: path))
        let out = again.run([Ev.tick(5, "07:00")])
        #expect(out[0].at("state", "current_tier") == .int(1))
        #expect(out[0].at("state", "longest_streak") == .int(2))
    }

    @Test func remindersAreLoggedAtTheirTimeEvenWhenTheNextEventComesLater() throws {
        let h = try ReplayHarness()
        let out = h.run([Self.notificationsOn] + Ev.day(2, "NO") + [Ev.commit(3), Ev.tick(4, "08:00")])
        #expect(out[4].at("decisions", "reminders_sent")?.strings == ["15:30", "21:00"])
        let logged = try h.engine.store!.read { try $0.notifications(.init(1), from: 0, to: .max) }.map(\.scheduledFor)
        #expect(logged == [1_772_551_800_000, 1_772_571_600_000])  // 2026-03-03T15:30Z, 21:00Z
    }

    @Test func remindersAreNotSentWithNotificationsOff() throws {
        let h = try ReplayHarness()
        let out = h.run(Ev.day(2, "NO") + [Ev.commit(3), Ev.tick(4, "08:00")])
        #expect(out[3].at("decisions", "reminders_sent") == nil)
        #expect(try h.engine.store!.read { try $0.notifications(.init(1), from: 0, to: .max) }.isEmpty)
    }

    @Test func aUserCreatedAfterTheDeadlineHasNoMissedFirstDay() throws {
        let out = try ReplayHarness().run([
            Ev.at(2, "10:00", "\"type\": \"settings\", \"commitment_deadline\": \"09:00\""), Ev.tick(2, "23:00"),
        ])
        #expect(out[1].at("decisions", "days") == nil)
        #expect(out[1].at("state", "today", "status") == .string("NOT_COUNTED"))
        #expect(out[1].at("state", "current_tier") == .int(0))
    }

    @Test func usersOfOtherAppsHaveNoPressureDays() throws {
        let out = try ReplayHarness().run([
            Ev.at(2, "07:00", "\"type\": \"miga\", \"event\": \"exit_to_focus\", \"app\": \"X\""), Ev.tick(5, "23:00"),
        ])
        #expect(out[1].at("decisions", "days") == nil)
        #expect(out[1].at("state", "today") == nil)
    }

    @Test func eventsOfAUserMustComeInTimeOrder() throws {
        let out = try ReplayHarness().run([Ev.tick(3, "10:00"), Ev.commit(2)], allowRefusals: true)
        #expect(out[1].at("error", "code") == .string("OUT_OF_ORDER"))
    }
}
