import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Events drawn over the whole domain of the event schema (`rulesrun schema events`: every type,
/// each field at the edges of its range and just past them, days around the user's current day,
/// habit days that start at odd times, time zones far from UTC and with daylight-saving changes),
/// replayed through the engine on an SQLite file: a store error is never the answer to an event.
/// An event is applied, or refused with an input error naming its field, or by the apps' rules
/// (a refusal such as `DEADLINE_PASSED`), never `STORE_ERROR` (the store refusing what the engine
/// let through). Seeded, so every run draws the same events.
@Suite struct EventDomainPropertyTests {
    static let zones = [
        "UTC", "Europe/Paris", "America/New_York", "Pacific/Kiritimati", "Etc/GMT+12", "Asia/Kathmandu", "Australia/Lord_Howe",
        "Pacific/Apia", "America/St_Johns",
    ]
    static let dayStarts = ["00:00", "00:01", "03:00", "04:00", "12:00", "23:59"]
    /// The users' first instants: an ordinary day, daylight-saving changes, the turn of a year, a
    /// date Apia skipped, and the edges of `Timestamp.engineRange`.
    static let bases = [
        "2026-03-02T06:00:00Z", "2026-03-28T22:30:00Z", "2026-03-08T06:30:00Z", "2026-12-31T22:00:00Z", "2011-12-29T09:00:00Z",
        "1971-01-01T00:00:00Z", "2997-12-30T12:00:00Z",
    ]
    /// Every event type, the habit tracker's more often (they have the most fields).
    static let types = EngineEvent.typeNames + ["habit_task", "habit_task", "habit_completion", "habit_skip", "tick"]
    /// How far apart one user's events are: together, across a day boundary, days and weeks apart.
    static let steps: [EpochMillis] = [
        0, Millis.minute, 29 * Millis.minute, Millis.hour, 3 * Millis.hour - Millis.minute, 5 * Millis.hour,
        Millis.day - Millis.minute, Millis.day, 3 * Millis.day,
    ]

    @Test func noEventOfTheSchemaMeetsAStoreError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("domain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.sqlite").path
        var random = SeededGenerator(seed: 0x38_5707E)
        var outcomes: [String: Int] = [:]
        var number = 0
        var applied: Set<String> = []
        // Each round another engine on the same file (users read back from the database), with
        // the default rules or an example's, whose streak rules declare params.
        let examples = RuleFixture.rulesFolder.deletingLastPathComponent().appendingPathComponent("examples")
        let folders = [
            RuleFixture.rulesFolder, examples.appendingPathComponent("loop-habits"), RuleFixture.rulesFolder,
            examples.appendingPathComponent("duolingo-streak"),
        ]
        for (round, folder) in folders.enumerated() {
            let store = try Store.open(path: path, options: StoreOptions(synchronous: .off))
            let replay = Replay(engine: try Engine(store: store, ruleFolder: folder.path))
            for u in 0..<10 {
                var user = DrawnUser(name: u == 0 ? "r\(round)" + String(repeating: "ü", count: 198) : "r\(round)u\(u)", random: &random)
                for _ in 0..<40 {
                    guard let line = user.next(&random) else { break }
                    number += 1
                    let out = replay.output(forLine: line, number: number)
                    let code = out.at("error", "code")?.string ?? "APPLIED"
                    outcomes[code, default: 0] += 1
                    if code == "APPLIED", let type = out["type"]?.string { applied.insert(type) }
                    user.applied(code == "APPLIED")
                    #expect(code != "STORE_ERROR", "\(line)\n→ \(out)")
                    if code == "INVALID_EVENT" || code == "INVALID_SETTINGS" {
                        let message = out.at("error", "message")?.string ?? ""
                        #expect(Self.namesAField(message), "\(line)\n→ \(out)")
                    }
                }
            }
            let problems = try replay.engine.store!.checkInvariants()
            #expect(problems.isEmpty, "\(problems)")
        }
        // The draw reaches the answers there are: many events applied, of nearly every type and
        // every habit event among them, and many input errors.
        #expect((outcomes["APPLIED"] ?? 0) > number / 3, "\(outcomes)")
        #expect((outcomes["INVALID_EVENT"] ?? 0) > 100, "\(outcomes)")
        #expect(outcomes.count > 6, "\(outcomes)")
        #expect(applied.isSuperset(of: ["settings", "habit_task", "habit_completion", "habit_skip", "habit_freeze", "habit_uncheck"]))
        // (The hardest to reach by chance: a quest's end needs a quest chosen at a gate open on a
        // blocked app, a shield a paid user's NO or miss within the hour.)
        #expect(applied.count >= EngineEvent.typeNames.count - 4, "never applied: \(Set(EngineEvent.typeNames).subtracting(applied))")
    }

    /// `line 3: times_per_day: expected …`: the message names a field (a path such as
    /// `windows[1].days`) before its first colon.
    static func namesAField(_ message: String) -> Bool {
        guard let colon = message.range(of: ": ") else { return false }
        let rest = message[colon.upperBound...]
        guard let end = rest.range(of: ":") else { return false }
        let field = rest[..<end.lowerBound]
        return !field.isEmpty && field.allSatisfy { $0.isLetter || $0.isNumber || "_.[]".contains($0) }
    }
}

/// One user's events, drawn one by one in time order. Each field takes a value at an edge of its
/// range most of the time and one just past it (or malformed) sometimes; what the user defined
/// (tasks, habits, modes) is named again, and an event is often followed by the one that goes
/// with it (a check-in after a commitment, a choice after the unlock gate opened).
struct DrawnUser {
    let name: String
    let zone: String
    let clock: LocalClock
    var at: EpochMillis
    var first = true
    var tasks: [String] = []
    var habits: [String] = []
    var modes: [String] = []
    enum Definition { case task, habit, mode }
    /// The name the last event defined, kept once it is applied (`applied(_:)`).
    var defining: (kind: Definition, name: String)?
    var followUp: String?
    /// The app of the unlock gate's last event, which its follow-up names again.
    var gateApp: JSONValue?
    /// The task the last habit event named, which its follow-up names again.
    var lastTask: String?
    var following = false

    init(name: String, random: inout SeededGenerator) {
        self.name = name
        zone = EventDomainPropertyTests.zones.randomElement(using: &random)!
        let base = Timestamp(EventDomainPropertyTests.bases.randomElement(using: &random)!)!.millis
        at = base + EpochMillis.random(in: 0..<Millis.day, using: &random) / Millis.minute * Millis.minute
        clock = try! LocalClock(timeZoneID: zone)
    }

    /// The next event, or nil past the engine's range.
    mutating func next(_ random: inout SeededGenerator) -> String? {
        // A follow-up comes a minute later; a check-in, once the window may have opened.
        let step =
            followUp == nil
            ? EventDomainPropertyTests.steps.randomElement(using: &random)!
            : followUp == "check_in" ? pick([3 * Millis.hour, 5 * Millis.hour], &random) : Millis.minute
        if !first { at += step }
        guard Timestamp.engineRange.contains(at) else { return nil }
        var fields: [(String, JSONValue)] = [("at", .string(Timestamp(millis: at).description)), ("user", .string(name))]
        defining = nil
        // A user's first event sets its time zone (a user in UTC, the default, starts with any event).
        if first, zone != "UTC" {
            first = false
            fields += [("type", .string("settings")), ("timezone", .string(zone))]
            if Bool.random(using: &random) {
                fields.append(("day_starts_at", .string(EventDomainPropertyTests.dayStarts.randomElement(using: &random)!)))
            }
            return JSONValue.object(fields).description
        }
        first = false
        var type = EventDomainPropertyTests.types.randomElement(using: &random)!
        if Int.random(in: 0..<8, using: &random) == 0 {
            // The distracting apps, which a focus session blocks: an unlock gate to open.
            type = "distracting_apps"
        }
        following = false
        if let next = followUp, Int.random(in: 0..<4, using: &random) > 0 {
            type = next
            following = true
        }
        followUp = nil
        fields.append(("type", .string(type)))
        return JSONValue.object(fields + draw(type, &random)).description
    }

    /// What the engine answered to the last event: a name it defined is named again later.
    mutating func applied(_ ok: Bool) {
        guard ok, let (kind, name) = defining else { return }
        switch kind {
        case .task: if !tasks.contains(name) { tasks.append(name) }
        case .habit: if !habits.contains(name) { habits.append(name) }
        case .mode: if !modes.contains(name) { modes.append(name) }
        }
    }

    func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T { items.randomElement(using: &random)! }

    /// One of `edges` most of the time, one of `past` (out of range, malformed) one time in six.
    func edge(_ edges: [JSONValue], past: [JSONValue], _ random: inout SeededGenerator) -> JSONValue {
        past.isEmpty || Int.random(in: 0..<6, using: &random) > 0 ? pick(edges, &random) : pick(past, &random)
    }

    func ints(_ values: [Int]) -> [JSONValue] { values.map { .int($0) } }

    /// A day around the user's current local date (the habit day may be the one before), or an
    /// edge of what a day may be.
    func day(_ random: inout SeededGenerator) -> JSONValue {
        let today = clock.civil(at).day
        let near = [-400, -366, -91, -90, -7, -2, -1, 0, 0, 0, 1, 2, 7, 365, 366, 367, 3000].map { offset in
            JSONValue.string((today.adding(days: offset) ?? today).rawValue)
        }
        return edge(
            near + [.string("1970-01-01"), .string("2999-12-31"), .string("9999-12-31"), .string("2028-02-29")],
            past: [.string("1969-12-31"), .string("2026-02-29"), .string("2026-3-1")], &random)
    }

    /// Text of lengths at the edges of a field's range (`lengths`, then `past`), in every script,
    /// with white space and control characters.
    func text(_ lengths: [Int], past: [Int], _ random: inout SeededGenerator) -> JSONValue {
        let n = Int.random(in: 0..<6, using: &random) > 0 || past.isEmpty ? pick(lengths, &random) : pick(past, &random)
        let unit = edge(
            [.string("a"), .string("é"), .string("😀"), .string("a b")], past: [.string(" "), .string("\t"), .string("a\u{1}")], &random)
        return .string(String(String(repeating: unit.string!, count: n).prefix(n)))
    }

    /// A task of the user (the last one named, in a follow-up), sometimes one not defined.
    mutating func task(_ random: inout SeededGenerator) -> String {
        if following, let lastTask { return lastTask }
        let name =
            tasks.isEmpty || Int.random(in: 0..<6, using: &random) == 0
            ? pick(["t1", "t2", String(repeating: "t", count: 200)], &random) : pick(tasks, &random)
        lastTask = name
        return name
    }

    func app(_ random: inout SeededGenerator) -> JSONValue {
        edge(
            [
                .string("android:com.a"), .string("android:com.a"), .string("android:com.b"), .string("iosToken:x"),
                .string("android:" + String(repeating: "z", count: 512)),
            ],
            past: [.string("web:x"), .string("android:"), .string("android:a b")], &random)
    }

    func apps(_ random: inout SeededGenerator) -> JSONValue {
        .array((0..<Int.random(in: 0...3, using: &random)).map { _ in app(&random) } + [.string("android:com.a")])
    }

    /// A task's params: those the example rule sets declare, at and past their domains, and
    /// names no rule declares; up to 64 of them, and 65.
    func params(_ random: inout SeededGenerator) -> JSONValue {
        let known: [(String, JSONValue)] = [
            ("calendar_weeks", .bool(Bool.random(using: &random))),
            ("freeze_max", edge(ints([0, 2, 10]), past: [.int(11), .double(1.5), .string("2")], &random)),
        ]
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return .object((0..<pick([64, 65], &random)).map { ("p\($0)", .int($0)) })
        case 1: return .object([("note", .string(String(repeating: "n", count: pick([40, 41], &random))))])
        case 2: return .object([("Bad-Name", .int(1))])
        default: return .object(Array(known.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))))
        }
    }

    func timestamp(_ random: inout SeededGenerator) -> JSONValue {
        let offset = pick([-Millis.day, 0, Millis.minute, Millis.hour, 30 * Millis.day, 400 * Millis.day], &random)
        return .string(Timestamp(millis: min(at + offset, Timestamp.engineRange.upperBound - 1)).description)
    }

    func localTime(_ random: inout SeededGenerator) -> JSONValue {
        .string(
            pick(["00:00", "05:30", "06:00", "07:15", "09:00", "12:00", "12:30", "17:30", "18:00", "22:00", "23:30", "23:59"], &random))
    }

    /// The fields of an event of `type`, some optional ones left out.
    mutating func draw(_ type: String, _ random: inout SeededGenerator) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        func maybe(_ name: String, _ value: @autoclosure () -> JSONValue) {
            if Int.random(in: 0..<3, using: &random) == 0 { fields.append((name, value())) }
        }
        switch type {
        case "settings":
            maybe(
                "commitment_deadline",
                edge([.string("06:00"), .string("12:00"), .string("09:30")], past: [.string("05:30"), .string("07:15")], &random))
            maybe(
                "checkin_window_close",
                edge([.string("18:00"), .string("23:30"), .string("23:59")], past: [.string("17:30"), .string("23:45")], &random))
            maybe("timezone", edge(EventDomainPropertyTests.zones.map(JSONValue.string), past: [.string("Mars/Olympus")], &random))
            maybe("personality_mode", .string(pick(PersonalityMode.allCases.map(\.rawValue), &random)))
            maybe("notifications_enabled", .bool(Bool.random(using: &random)))
            maybe("day_starts_at", .string(pick(EventDomainPropertyTests.dayStarts, &random)))
            if fields.isEmpty { fields.append(("day_starts_at", .string(pick(EventDomainPropertyTests.dayStarts, &random)))) }
        case "subscription":
            fields.append(("tier", .string(pick(["FREE", "PAID", "PAID"], &random))))
            followUp = "commitment"
            maybe("expires_at", timestamp(&random))
        case "commitment":
            fields.append(("text", text([1, 2, 280], past: [0, 281], &random)))
            followUp = "check_in"
        case "check_in":
            let result = pick(["YES", "NO"], &random)
            fields.append(("result", .string(result)))
            if result == "NO" { followUp = "shield" }
        case "habit_task":
            let name = task(&random)
            defining = (.task, name)
            fields.append(("task", .string(name)))
            followUp = pick(["habit_completion", "habit_skip", "habit_freeze", "habit_task"], &random)
            maybe("title", text([1, 100], past: [101], &random))
            maybe("measurement", .string(pick(MeasurementDuration.allCases.map(\.rawValue), &random)))
            if Bool.random(using: &random) {
                let frequency = pick(FrequencyType.allCases, &random)
                fields.append(("frequency", .string(frequency.eventName)))
                switch frequency {
                case .timesInDays:
                    fields.append(("times", edge(ints([1, 2, 7, 365]), past: ints([0, 366]), &random)))
                    fields.append(("days", edge(ints([2, 7, 365]), past: ints([1, 366]), &random)))
                case .everyNDays: fields.append(("every", edge(ints([2, 3, 365]), past: ints([1, 366]), &random)))
                case .daysOfMonth:
                    let days: [[Int]] = [[1], [31], [29, 30, 31], [1, 15]]
                    fields.append(
                        (
                            "days_of_month",
                            edge(days.map { .array(ints($0)) }, past: [[0], [32], [], [1, 1]].map { .array(ints($0)) }, &random)
                        ))
                case .daily, .specificDays: break
                }
            }
            maybe("times_per_day", edge(ints([1, 2, 100]), past: ints([0, 101, -1]), &random))
            maybe(
                "scheduled_days",
                edge(
                    [[1], [1, 2, 3, 4, 5, 6, 7], [7]].map { .array(ints($0)) }, past: [[], [0], [8], [3, 3]].map { .array(ints($0)) },
                    &random))
            if following || Bool.random(using: &random) {
                let goal = following && Bool.random(using: &random) ? .none : pick(GoalType.allCases, &random)
                fields.append(("goal_type", .string(goal.rawValue)))
                if goal != .none {
                    followUp = "habit_completion"  // with a value
                    fields.append(
                        (
                            "goal_value",
                            edge([.double(1e-9), .double(0.5), .int(1), .int(8), .double(1e308)], past: [.int(0), .int(-1)], &random)
                        ))
                    fields.append(("goal_unit", edge(goal.compatibleUnits.map(JSONValue.string), past: [.string("parsecs")], &random)))
                }
                maybe("goal_direction", .string(pick(GoalDirection.allCases.map(\.eventName), &random)))
            }
            maybe("start_date", day(&random))
            maybe("params", params(&random))
        case "habit_completion":
            fields.append(("task", .string(task(&random))))
            let value = edge([.int(0), .double(0.5), .int(1), .int(3), .double(1e308)], past: [.int(-1)], &random)
            if following { fields.append(("value", value)) } else { maybe("value", value) }
            maybe("for_day", day(&random))
            // Unchecked, or its task redefined (a goal dropped from a task with values, …).
            followUp = pick(
                fields.contains { $0.0 == "value" }
                    ? ["habit_task", "habit_task", "habit_uncheck"] : ["habit_uncheck", "habit_completion", "habit_task"], &random)
        case "habit_skip", "habit_uncheck":
            fields.append(("task", .string(task(&random))))
            maybe("day", day(&random))
        case "habit_freeze":
            fields.append(("task", .string(task(&random))))
            fields.append(("action", .string(pick(FreezeAction.allCases.map(\.rawValue), &random))))
            maybe("day", day(&random))
        case "miga":
            fields.append(("event", .string(pick(UsageEventType.allCases.map(\.rawValue), &random))))
            maybe("app", edge([.string("com.a"), .string("android:com.a")], past: [.string(""), .string("a b")], &random))
            maybe("pause_seconds", edge([.int(0), .int(15), .double(30.5), .int(45)], past: [.int(46), .int(-1), .double(1e9)], &random))
        case "exposure":
            let names: [JSONValue] = [
                .string("checkout-2026"), .string("a"), .string("x.y_z-9"), .string(String(repeating: "z", count: 40)),
            ]
            let past: [JSONValue] = [.string(""), .string(String(repeating: "z", count: 41)), .string("Treatment"), .string("a b")]
            fields.append(("experiment", edge(names, past: past, &random)))
            fields.append(("arm", edge([.string("control"), .string("treatment")] + names, past: past, &random)))
            fields.append(("revision", edge(ints([1, 2, 2_147_483_647]), past: ints([0, -1, 2_147_483_648]), &random)))
        case "distracting_apps": fields.append(("apps", apps(&random)))
        case "mode":
            let mode = modes.isEmpty || Bool.random(using: &random) ? pick(["m1", "m2"], &random) : pick(modes, &random)
            defining = (.mode, mode)
            fields.append(("mode", .string(mode)))
            if !modes.contains(mode) || Bool.random(using: &random) {
                fields.append(("strictness", .string(pick(Strictness.allCases.map(\.rawValue), &random))))
            }
            maybe("name", text([1, 100], past: [101], &random))
            maybe("priority", edge(ints([0, 1, 100]), past: ints([-1, 1_000_000_000]), &random))
            if Int.random(in: 0..<3, using: &random) == 0 {
                var windows: [JSONValue] = []
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    let days = pick([[1, 2, 3, 4, 5], [7], [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7]], &random)
                    windows.append(.object([("days", .array(ints(days))), ("start", localTime(&random)), ("end", localTime(&random))]))
                }
                fields.append(("windows", .array(windows)))
            }
            maybe("blocked_apps", apps(&random))
            maybe("deleted", .bool(Int.random(in: 0..<4, using: &random) == 0))
        case "mode_override":
            fields.append(("mode", .string(modes.isEmpty ? "m1" : pick(modes, &random))))
            fields.append(("state", .string(pick(ManualOverrideState.allCases.map(\.rawValue), &random))))
            maybe("until", timestamp(&random))
        case "qr_key":
            let key = text([1, 256], past: [257], &random)
            if Int.random(in: 0..<6, using: &random) > 0 {
                fields.append(("value", pick([.null, key, key, .string(" "), .string("k\u{1}")], &random)))
            }
        case "earned_habit":
            let habit = habits.isEmpty || Bool.random(using: &random) ? pick(["h1", "h2"], &random) : pick(habits, &random)
            defining = (.habit, habit)
            fields.append(("habit", .string(habit)))
            maybe("name", text([1, 100], past: [101], &random))
            maybe("reward_credits", edge(ints([0, 1, 100]), past: ints([101, -1]), &random))
            maybe("active", .bool(Int.random(in: 0..<4, using: &random) > 0))
            followUp = "earned_habit_completion"
        case "earned_habit_completion": fields.append(("habit", .string(habits.isEmpty ? "h1" : pick(habits, &random))))
        case "focus_start":
            fields.append(("minutes", edge(ints([1, 25, 1440]), past: ints([0, 1441]), &random)))
            maybe("label", text([1, 100], past: [101], &random))
            maybe("strict", .bool(Bool.random(using: &random)))
            followUp = pick(["focus_end", "unlock_open"], &random)
            if followUp == "unlock_open" {
                fields.append(("blocked_apps", apps(&random)))
                gateApp = .string("android:com.a")
            }
        case "unlock_open":
            if !following { gateApp = app(&random) }
            fields.append(("app", gateApp!))
            followUp = pick(["unlock_choose", "unlock_choose", "unlock_cancel"], &random)
        case "unlock_cancel", "quest_complete", "quest_cancel": fields.append(("app", following ? gateApp! : app(&random)))
        case "quest_fail":
            fields.append(("app", following ? gateApp! : app(&random)))
            fields.append(("reason", .string(pick(QuestFailureReason.allCases.map(\.rawValue), &random))))
        case "unlock_choose":
            if !following { gateApp = app(&random) }
            fields.append(("app", gateApp!))
            let option = following && Bool.random(using: &random) ? .questUnlock : pick(UnlockOptionType.allCases, &random)
            fields.append(("option", .string(option.rawValue)))
            switch option {
            case .creditsUnlock: fields.append(("minutes", edge(ints([5, 15, 30]), past: ints([0, 7]), &random)))
            case .questUnlock:
                fields.append(("quest_type", .string(following ? "BREATHING" : pick(QuestType.allCases.map(\.rawValue), &random))))
                followUp = pick(["quest_complete", "quest_fail", "quest_cancel"], &random)
            case .emergencyUnlock: break
            }
        default: break  // tick, shield, focus_end
        }
        return fields
    }
}
