import Foundation
import RulesModel
import Testing

/// Hostile or mistaken input gets an error naming the entity, the field, the rule and the value.
@Suite struct ValidationMessageTests {
    let user = UserID(1)
    let day = try! DayID("2026-02-01")

    func message(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch { return "\(error)" }
    }

    @Test func commitmentText() {
        let long = String(repeating: "a", count: 312)
        #expect(
            message { try Commitment(userID: user, day: day, text: long).validate() }
                == "Commitment.text: at most 280 characters, found 312")
        #expect(
            message { try Commitment(userID: user, day: day, text: "   \n").validate() }
                == "Commitment.text: not only white space, found \"   \n\"")
        #expect(
            message { try Commitment(userID: user, day: day, text: "").validate() }
                == "Commitment.text: non-empty unless the day had no commitment (status MISSED), found \"\" with status PENDING")
        #expect(
            message { try Commitment(userID: user, day: day, text: "ok\u{0}").validate() }
                == "Commitment.text: no control characters, found U+0")
        // 280 grapheme clusters are fine even when they are many bytes.
        #expect(message { try Commitment(userID: user, day: day, text: String(repeating: "👩‍👩‍👧", count: 280)).validate() } == nil)
        #expect(message { try Commitment.noCommitment(userID: user, day: day, deadline: 1).validate() } == nil)
    }

    @Test func commitmentStatusIsOneWay() throws {
        let pending = Commitment(userID: user, day: day, text: "Run", lockedAt: 10)
        let yes = try pending.transitioned(to: .yes, at: 20, tier: .nudge)
        #expect(yes.status == .yes && yes.checkedInAt == 20 && yes.escalationTierSnapshot == .nudge)
        #expect(
            message { _ = try yes.transitioned(to: .no, at: 30, tier: nil) }
                == "Commitment.status: one-way PENDING → YES | NO | MISSED, found YES → NO")
        let missed = try pending.transitioned(to: .missed, at: 40, tier: nil)
        #expect(missed.checkedInAt == nil)
        #expect(
            message { try Commitment(userID: user, day: day, text: "Run", lockedAt: 10, status: .yes).validate() }
                == "Commitment.checked_in_at: set when status is YES, found null")
        #expect(
            message { try Commitment(userID: user, day: day, text: "Run", lockedAt: 10, status: .no, checkedInAt: 5).validate() }
                == "Commitment.checked_in_at: not before locked_at (10), found 5")
        #expect(CommitmentStatus.allCases.filter { CommitmentStatus.pending.canTransition(to: $0) } == [.yes, .no, .missed])
        #expect(CommitmentStatus.allCases.allSatisfy { !CommitmentStatus.missed.canTransition(to: $0) })
    }

    /// A time zone is checked by its shape: letters, digits and `/_+-`, a letter first, at most 64
    /// bytes, no empty part (`//`, a `/` last).
    @Test func timeZoneNamesByTheirShape() {
        for valid in ["UTC", "America/Vancouver", "Etc/GMT+5", "America/Argentina/Buenos_Aires", "America/Port-au-Prince", "a"] {
            #expect(message { try UserSettings(timezoneIdentifier: valid).validate() } == nil, "\(valid)")
        }
        let tooLong = "A" + String(repeating: "b", count: 64)
        for invalid in ["", "/UTC", "America//Vancouver", "America/", "1UTC", "_UTC", "Europe/Zürich", "Mars/Olympus Mons", tooLong] {
            #expect(
                message { try UserSettings(timezoneIdentifier: invalid).validate() }?.contains("an IANA time-zone name") == true,
                "\(invalid)")
        }
        #expect(message { try UserSettings(timezoneIdentifier: String(tooLong.dropLast())).validate() } == nil)
        // Every byte, second and first: accepted exactly when it is a letter, a digit or one of
        // `/_+-` (a letter only, first).
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/_+-".utf8)
        let letters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        for byte in UInt8.min...UInt8.max {
            let second = String(decoding: [0x41, byte, 0x61], as: UTF8.self)
            let first = String(decoding: [byte, 0x61], as: UTF8.self)
            let expected = byte < 0x80 && allowed.contains(byte)
            #expect((message { try UserSettings(timezoneIdentifier: second).validate() } == nil) == expected, "byte \(byte) second")
            #expect(
                (message { try UserSettings(timezoneIdentifier: first).validate() } == nil) == (byte < 0x80 && letters.contains(byte)),
                "byte \(byte) first")
        }
    }

    @Test func pressureSettingsStepsAndRanges() {
        #expect(UserSettings.defaults.commitmentDeadline.text == "09:00" && UserSettings.defaults.checkinWindowClose.text == "22:00")
        #expect(UserSettings.defaults.personalityMode == .professional && UserSettings.defaults.subscriptionTier == .free)
        #expect(
            message { try UserSettings(commitmentDeadline: LocalTime(hour: 6, minute: 15)).validate() }
                == "UserSettings.commitment_deadline: 06:00–12:00 in 30-minute steps, found 06:15")
        #expect(message { try UserSettings(commitmentDeadline: LocalTime(hour: 12, minute: 30)).validate() } != nil)
        #expect(message { try UserSettings(checkinWindowClose: LocalTime(hour: 23, minute: 59)).validate() } == nil)
        #expect(
            message { try UserSettings(checkinWindowClose: LocalTime(hour: 23, minute: 45)).validate() }
                == "UserSettings.checkin_window_close: 18:00–23:30 in 30-minute steps, or 23:59, found 23:45")
        #expect(
            message { try UserSettings(timezoneIdentifier: "Mars/Olympus Mons").validate() }
                == "UserSettings.timezone_identifier: an IANA time-zone name such as America/Vancouver, found \"Mars/Olympus Mons\"")
        #expect(
            message { try EscalationState(currentStreak: 5, longestStreak: 4).validate() }
                == "EscalationState.longest_streak: at least 5, found 4")
        #expect(
            message { try EscalationState(restartShieldsRemaining: 2).validate() }
                == "EscalationState.restart_shields_remaining: between 0 and 1, found 2")
        #expect(
            message { try NotificationLogEntry(userID: user, scheduledFor: 1, tier: .alarm, personality: .brutal, tapped: true).validate() }
                == "NotificationLogEntry.tapped: only after delivered, found tapped without delivery")
    }

    @Test func habitTaskGoalsUnitsAndPresets() {
        func task(_ change: (inout HabitTask) -> Void) -> HabitTask {
            var task = HabitTask(userID: user, title: "Run", createdAt: 1, updatedAt: 1)
            change(&task)
            return task
        }
        #expect(message { try task { _ in }.validate() } == nil)
        #expect(
            message {
                try task {
                    $0.goalType = .distance; $0.goalUnit = "kg"; $0.goalValue = 5
                }.validate()
            }
                == "HabitTask.goalUnit: one of m, km, mi for goalType distance, found \"kg\"")
        #expect(message { try task { $0.goalValue = 3 }.validate() } == "HabitTask.goalValue: nil when goalType is none, found 3.0")
        #expect(
            message {
                try task {
                    $0.goalType = .time; $0.goalUnit = "min"; $0.goalValue = -1
                }.validate()
            }
                == "HabitTask.goalValue: greater than 0, found -1.0")
        #expect(
            message {
                try task {
                    $0.isPreset = true; $0.presetIdentifier = "fitness.fly"
                }.validate()
            }
                == "HabitTask.presetIdentifier: an identifier of the preset catalog, found \"fitness.fly\"")
        #expect(
            message { try task { $0.notificationEnabled = true }.validate() }
                == "HabitTask.notificationTime: set when notificationEnabled is true, found nil")
        #expect(
            message { try task { $0.scheduledDays = [.monday, .monday] }.validate() }
                == "HabitTask.scheduledDays: no repeated weekday, found [1, 1]")
        #expect(message { try task { $0.timesPerDay = 0 }.validate() } == "HabitTask.timesPerDay: between 1 and 100, found 0")
        #expect(
            message { try task { $0.colorToken = "Blue!" }.validate() }
                == "HabitTask.colorToken: a palette key of 1–32 lowercase letters and digits, found \"Blue!\"")
        #expect(message { try task { $0.updatedAt = 0 }.validate() } == "HabitTask.updatedAt: not before createdAt (1), found 0")
        let timed = task {
            $0.goalType = .time; $0.goalUnit = "min"
        }
        #expect(
            message { try TaskCompletion(userID: user, taskID: timed.id, completedAt: 1, value: .infinity).validate() }
                == "TaskCompletion.value: a finite number, found inf")
        let plain = task { _ in }
        #expect(
            message { try TaskCompletion(userID: user, taskID: plain.id, completedAt: 1, value: 2).validate(against: plain) }
                == "TaskCompletion.value: nil for a task whose goalType is none, found 2.0")
    }

    @Test func habitTaskFrequenciesDirectionAndParams() {
        func task(_ change: (inout HabitTask) -> Void) -> HabitTask {
            var task = HabitTask(userID: user, title: "Run", createdAt: 1, updatedAt: 1)
            change(&task)
            return task
        }
        #expect(
            message {
                try task {
                    $0.frequencyType = .timesInDays; $0.frequencyTimes = 3; $0.frequencyDays = 7
                }.validate()
            } == nil)
        #expect(
            message {
                try task {
                    $0.frequencyType = .timesInDays; $0.frequencyTimes = 8; $0.frequencyDays = 7
                }.validate()
            }
                == "HabitTask.frequencyTimes: between 1 and 7, found 8")
        #expect(
            message {
                try task {
                    $0.frequencyType = .timesInDays; $0.frequencyDays = 7
                }.validate()
            }
                == "HabitTask.frequencyTimes: set when frequencyType is timesInDays, found nil")
        #expect(
            message {
                try task {
                    $0.frequencyType = .everyNDays; $0.frequencyDays = 366
                }.validate()
            }
                == "HabitTask.frequencyDays: between 2 and 365, found 366")
        #expect(
            message { try task { $0.frequencyDays = 3 }.validate() } == "HabitTask.frequencyDays: nil when frequencyType is daily, found 3")
        #expect(
            message { try task { $0.frequencyType = .daysOfMonth }.validate() }
                == "HabitTask.daysOfMonth: at least one day of the month when frequencyType is daysOfMonth, found []")
        #expect(
            message {
                try task {
                    $0.frequencyType = .daysOfMonth; $0.daysOfMonth = [1, 32]
                }.validate()
            }
                == "HabitTask.daysOfMonth: between 1 and 31, found 32")
        #expect(
            message { try task { $0.daysOfMonth = [1] }.validate() }
                == "HabitTask.daysOfMonth: empty when frequencyType is daily, found [1]")
        #expect(
            message { try task { $0.goalDirection = .atMost }.validate() }
                == "HabitTask.goalValue: set when goalDirection is atMost (a ceiling needs a value), found nil")
        #expect(message { try task { $0.params = ["freeze_max": .integer(2), "on": .boolean(true)] }.validate() } == nil)
        #expect(
            message { try task { $0.params = ["Freeze": .integer(2)] }.validate() }
                == "HabitTask.params: names of [a-z][a-z0-9_]*, at most 40 bytes, found \"Freeze\"")
        #expect(
            message { try task { $0.params = ["x": .number(2)] }.validate() }
                == "HabitTask.params.x: a number with a fraction (a whole number is an integer), found 2.0")
        #expect(
            message { try task { $0.params = ["x": .string(String(repeating: "a", count: 41))] }.validate() }
                == "HabitTask.params.x: a string of at most 40 bytes, found 41 bytes")
        #expect(
            message {
                try task { $0.params = Dictionary(uniqueKeysWithValues: (0..<65).map { ("p\($0)", ParamValue.integer(1)) }) }.validate()
            }
                == "HabitTask.params: at most 64 names, found 65")
    }

    @Test func presetCatalogIsConsistent() {
        #expect(PresetCatalog.all.count == 25)
        #expect(Set(PresetCatalog.all.map(\.identifier)).count == 25)
        for preset in PresetCatalog.all {
            #expect(RulesModel.Category.presetNames.contains(preset.categoryName), "\(preset.identifier)")
            #expect((preset.unit == nil) == (preset.goalType == .none), "\(preset.identifier)")
            if let unit = preset.unit { #expect(preset.goalType.compatibleUnits.contains(unit), "\(preset.identifier)") }
            let task = PresetCatalog.makeTask(from: preset, userID: user, categoryID: nil, now: 5)
            #expect(message { try task.validate() } == nil, "\(preset.identifier)")
        }
        #expect(RulesModel.Category.presets(for: user, createdAt: 0).map(\.sortOrder) == [0, 1, 2, 3])
    }

    @Test func migaRules() {
        func event(_ type: UsageEventType, app: String, pause: Double, timer: Double = 30) -> UsageEvent {
            UsageEvent(userID: user, eventType: type, timestamp: 1, targetAppName: app, pauseDuration: pause, timerDuration: timer)
        }
        #expect(message { try event(.exitToFocus, app: "", pause: 3).validate() } == nil)
        #expect(
            message { try event(.proceedToApp, app: "", pause: 3).validate() } == "UsageEvent.targetAppName: at least 1 character, found 0")
        #expect(
            message { try event(.deepenPause, app: "X", pause: 31).validate() }
                == "UsageEvent.pauseDuration: between 0 and timerDuration (30.0), found 31.0")
        #expect(message { try event(.deepenPause, app: "X", pause: -1).validate() } != nil)
        #expect(
            message { try event(.deepenPause, app: "X", pause: 1, timer: 60).validate() }
                == "UsageEvent.timerDuration: between 15.0 and 45.0, found 60.0")
        #expect(
            message { try MigaSettings(determinationLevel: 11).validate() } == "MigaSettings.determinationLevel: between 1 and 10, found 11"
        )
        #expect(message { try MigaSettings(selectedInterestTags: ["a", "a"]).validate() } != nil)
        let start = try! DayID("2026-02-01")
        #expect(
            message { try ExitStreak(startDate: start, currentDayCount: 3, lastActivityDate: start.adding(days: 2)!).validate() } == nil)
        #expect(
            message { try ExitStreak(startDate: start, currentDayCount: 0, lastActivityDate: start).validate() }
                == "ExitStreak.currentDayCount: at least 1, found 0")
        #expect(
            message { try ExitStreak(startDate: start.adding(days: 1)!, currentDayCount: 1, lastActivityDate: start).validate() }
                == "ExitStreak.startDate: not later than lastActivityDate (2026-02-01), found 2026-02-02")
        let quote = MindfulnessContent(id: "stoic-1", text: "Waste no more time arguing.", category: "stoicism", author: "Marcus Aurelius")
        #expect(message { try quote.validate() } == nil)
        #expect(MindfulnessContent.matching(["productivity"], in: [quote]).isEmpty)
        #expect(
            message { try MindfulnessContent(id: "x", text: "", category: "stoicism").validate() }
                == "MindfulnessContent.text: at least 1 character, found 0")
        let app = SelectedApp(
            userID: user, appName: "Instagram", urlScheme: "instagram://", iconName: "camera", dateAdded: 0, orderIndex: 0)
        #expect(message { try app.validate() } == nil)
        for bad in ["instagram", "://x", "1app://", "in sta://", ""] {
            var copy = app
            copy.urlScheme = bad
            #expect(message { try copy.validate() } == "SelectedApp.urlScheme: a URL scheme such as instagram://, found \"\(bad)\"")
        }
    }

    @Test func appIDsAndIdentifiers() throws {
        #expect(try AppID.parse("android:com.instagram.android").platform == .android)
        #expect(try AppID.parse("iosToken:AbCDeF==").platform == .ios)
        #expect(
            message { _ = try AppID.parse("com.instagram.android") }
                == "AppID.app_id: an AppId starting with android: or iosToken:, found \"com.instagram.android\"")
        #expect(message { _ = try AppID.parse("android:") } != nil)
        #expect(message { _ = try AppID.parse("android:has space") } != nil)
        #expect(AppID(rawValue: "IOSTOKEN:x") == nil)
        #expect(
            message { try Mode(userID: user, modeID: "", name: "Work", strictness: .hard, createdAt: 0, updatedAt: 0).validate() }
                == "Mode.mode_id: a non-empty identifier, found \"\"")
        #expect(
            message { try Habit(userID: user, habitID: "h", name: "Read", rewardCredits: 101, createdAt: 0, updatedAt: 0).validate() }
                == "Habit.reward_credits: between 0 and 100, found 101")
        #expect(UserID(rawValue: 0) == nil)
        #expect(message { _ = try UserID.parse(-3) } == "UserID.user_id: an integer ≥ 1, found -3")
    }

    @Test func earnedRecords() {
        #expect(
            message { try DaySummary(userID: user, dayID: day, timezoneID: "UTC", qualified: true, createdAt: 0, updatedAt: 0).validate() }
                == "DaySummary.first_qualified_ts_utc_ms: set when qualified, found null")
        #expect(
            message { try EconomyState(userID: user, currentDayID: day, creditBalance: -1, updatedAt: 0).validate() }
                == "EconomyState.credit_balance: between 0 and 1000000000, found -1")
        #expect(
            message { try EmergencyState(userID: user, usedCountToday: 1, updatedAt: 0).validate() }
                == "EmergencyState.last_used_day_id: set when used_count_today > 0, found null")
        #expect(
            message {
                try FocusSession(
                    userID: user, sessionID: "s", startedAt: 10, endedAt: 20, timezoneID: "UTC", dayID: day, plannedDurationMinutes: 25,
                    actualDurationMinutes: 10, completed: true, endedEarly: true, createdAt: 0, updatedAt: 0
                ).validate()
            } == "FocusSession.ended_early: the opposite of completed once ended, found 1")
        #expect(
            message {
                try HabitCompletion(
                    userID: user, completionID: "c", habitID: "h", timestamp: 0, timezoneID: "UTC", dayID: day, awardedCredits: 5,
                    awardSuspended: true, createdAt: 0
                ).validate()
            } == "HabitCompletion.awarded_credits: 0 when award_suspended, found 5")
        #expect(
            message {
                try ModeWindow(
                    userID: user, windowID: "w", modeID: "m", daysOfWeekMask: 128, startLocal: LocalTime(hour: 9, minute: 0),
                    endLocal: LocalTime(hour: 17, minute: 0), createdAt: 0, updatedAt: 0
                ).validate()
            } == "ModeWindow.days_of_week_mask: between 0 and 127, found 128")
        #expect(
            message { try DailyAppLimits(userID: user, dayID: day, appID: try AppID.parse("android:x"), questGrantsCount: 1).validate() }
                == "DailyAppLimits.last_quest_grant_start_ts_utc_ms: set exactly when quest_grants_count > 0, found null")
        #expect(
            message {
                try UnlockGrant(
                    userID: user, grantID: "g", appID: try AppID.parse("android:x"), createdAt: 0, createdDayID: day, startsAt: 10,
                    endsAt: 10, method: .credits, sourceModeID: nil, sourceAttemptID: "a"
                ).validate()
            } == "UnlockGrant.ends_ts_utc_ms: after starts_ts_utc_ms (10), found 10")
    }

    /// A snapshot offers each option type, and each quest type, at most once.
    @Test func gateOptionsAreDistinct() throws {
        let app = try AppID.parse("android:com.example")
        func options(_ list: [AvailableOptions.Option]) -> AvailableOptions {
            AvailableOptions(generatedAt: 1, modeID: nil, modeStrictness: .gentle, appID: app, options: list)
        }
        let emergency = AvailableOptions.Option.emergency(enabled: true, disabledReason: nil, delaySeconds: 30, unlockMinutes: 5)
        let walk = AvailableOptions.QuestChoice(questType: QuestType.allCases[0], enabled: true)
        let quest = AvailableOptions.Option.quest(enabled: true, disabledReason: nil, questTypes: [walk])
        #expect(message { try options([emergency, quest]).validate() } == nil)
        let typeName = QuestType.allCases[0].rawValue
        #expect(
            message { try options([emergency, quest, emergency]).validate() }
                == "AvailableOptions.options: each option type at most once, found [\"EMERGENCY_UNLOCK\", \"QUEST_UNLOCK\", \"EMERGENCY_UNLOCK\"]"
        )
        #expect(
            message { try options([.quest(enabled: true, disabledReason: nil, questTypes: [walk, walk])]).validate() }
                == "AvailableOptions.options[1].quest_types: each quest type at most once, found [\"\(typeName)\", \"\(typeName)\"]")
    }
}
