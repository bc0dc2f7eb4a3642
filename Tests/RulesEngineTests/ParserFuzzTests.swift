import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Random token soup through the parsers that read user input: none may crash or hang.
@Suite struct ParserFuzzTests {
    /// SplitMix64: a tiny seeded generator, so the soup is the same on every run.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    }

    static let jsonTokens = [
        "{", "}", "[", "]", ",", ":", "\"at\"", "\"type\"", "\"tick\"", "\"2026-03-02T08:00:00Z\"", "\"\\u00e9\"",
        "\"\\ud83d\\ude00\"", "\"\\ud800\"", "\"\\", "1", "-0", "1e999", "1.5", "true", "null", "\"user\"", " ", "\"",
        "\"check_in\"", "\"result\"", "\"YES\"", "\u{1}", "é", "\"2026-13-40T25:61:00+99:99\"",
    ]
    static let luaTokens = [
        "return", "{", "}", "local", "M", "=", ".", "x", "[", "]", "\"s\"", "[[", "]]", "--", "--[==[", "]==]", "function",
        "end", "if", "then", "(", ")", ",", ";", "1", "0x1p4", "1e", "..", "...", "\n", "'", "\\", "do", "repeat", "until",
    ]

    @Test func eventLinesNeverCrashTheParser() {
        var random = Random(state: 0xF022)
        var accepted = 0
        for _ in 0..<5_000 {
            let line = (0..<Int(random.next() % 24)).map { _ in random.pick(Self.jsonTokens) }.joined()
            if (try? EngineEvent.parse(line)) != nil { accepted += 1 }
        }
        #expect(accepted < 5_000)
        #expect(throws: EngineError.self) {
            try EngineEvent.parse("{\"at\": \"2026-03-02T08:00:00Z\", \"type\": \"tick\", \"type\": \"tick\"}")
        }
    }

    @Test func ruleSourcesNeverCrashTheSourceMapOrTheLoader() throws {
        var random = Random(state: 0x5EED)
        let host = try LuaHost(limits: LuaLimits(instructionsPerLoad: 100_000))
        for _ in 0..<2_000 {
            let source = (0..<Int(random.next() % 40)).map { _ in random.pick(Self.luaTokens) }.joined(
                separator: random.pick([" ", "", "\n"]))
            _ = LuaSourceMap(source: source).line(for: "x")
            _ = try? host.load(source, chunkName: "fuzz.lua")
        }
        try expectHostUsable(host)
    }

    /// Events at extreme times, in extreme time zones, through every kind of event: none may crash
    /// the engine (a local day out of `DayID`'s range crashed it, and a local year past 9999
    /// crashed the output) or reach the store with a day it cannot hold (STORE_ERROR). A time
    /// outside `Timestamp.engineRange` is INVALID_EVENT naming its field and the range; the
    /// rules suspend habit awards for 366 days, the furthest the engine writes ahead of a day.
    @Test func extremeTimesInExtremeZonesAreRefusedOrAppliedNeverCrash() throws {
        let pricing = try RuleFixture.edited([("suspend_days = 1 ", "suspend_days = 366 ")], in: "pricing.lua")
        let folder = try RuleFixture.folder(replacing: "pricing.lua", with: pricing)
        defer { try? FileManager.default.removeItem(at: folder) }
        let replay = Replay(engine: try Engine(store: Store.inMemory(), ruleFolder: folder.path))
        let zones = [
            "Pacific/Kiritimati", "Etc/GMT+12", "Pacific/Pago_Pago", "America/Los_Angeles", "Asia/Tokyo", "UTC",
            "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns",
        ]
        let (low, high) = (Timestamp.engineRange.lowerBound, Timestamp.engineRange.upperBound)
        var random = Random(state: 0x7155)
        var bases: [EpochMillis] = [
            0, Millis.supportedRange.upperBound - Millis.hour, low - Millis.day, low - 1, low, low + 14 * Millis.hour,
            high - 41 * Millis.day, high - Millis.day, high - Millis.hour, high,
        ]
        for _ in 0..<4 { bases.append(low + EpochMillis(random.next() % UInt64(high - low))) }
        // Minutes after the base: the first day's events, then two days later, then past a month's end.
        let setUp: [(Int, String)] = [
            (0, #""type": "settings", "timezone": "ZONE", "notifications_enabled": true"#),
            (1, #""type": "subscription", "tier": "PAID", "expires_at": "EXPIRES""#),
            (2, #""type": "habit_task", "task": "w", "measurement": "weekly""#), (3, #""type": "commitment", "text": "x""#),
            (4, #""type": "habit_completion", "task": "w""#), (5, #""type": "miga", "event": "exit_to_focus", "app": "a""#),
            (6, #""type": "distracting_apps", "apps": ["android:a.b"]"#),
            (
                7,
                #""type": "mode", "mode": "m", "strictness": "STRICT", "windows": [{"days": [1, 2, 3, 4, 5, 6, 7], "start": "00:00", "end": "00:00"}]"#
            ),
            (8, #""type": "mode_override", "mode": "m", "state": "FORCED_OFF", "until": "UNTIL""#),
            (9, #""type": "focus_start", "minutes": 30"#),
        ]
        // Seven habit completions within the hour: awards suspended for 366 days.
        let habits: [(Int, String)] = (1...7).flatMap { n -> [(Int, String)] in
            [
                (10 + n, "\"type\": \"earned_habit\", \"habit\": \"h\(n)\""),
                (20 + n, "\"type\": \"earned_habit_completion\", \"habit\": \"h\(n)\""),
            ]
        }
        let later: [(Int, String)] = [
            (30, #""type": "unlock_open", "app": "android:a.b""#),
            (31, #""type": "unlock_choose", "app": "android:a.b", "option": "EMERGENCY_UNLOCK""#),
            (2 * 1440, #""type": "check_in", "result": "YES""#), (2 * 1440 + 1, #""type": "shield""#), (41 * 1440, #""type": "tick""#),
        ]
        let steps = setUp + habits + later
        var applied = 0, number = 0
        for (b, base) in bases.enumerated() {
            for zone in zones {
                number += 1
                for (minutes, fields) in steps {
                    let at = base + Int64(minutes) * Millis.minute
                    guard Millis.supportedRange.contains(at) else { continue }  // past 9999: no ISO-8601 text to write
                    let line =
                        "{\"at\": \"\(Timestamp(millis: at))\", \"user\": \"f\(b)-\(zone)\", "
                        + fields.replacingOccurrences(of: "ZONE", with: zone)
                        .replacingOccurrences(of: "EXPIRES", with: Timestamp(millis: at + 30 * Millis.day).description)
                        .replacingOccurrences(of: "UNTIL", with: Timestamp(millis: at + Millis.hour).description) + "}"
                    let out = replay.output(forLine: line, number: number)
                    let code = out.at("error", "code")?.string, message = out.at("error", "message")?.string ?? ""
                    if !Timestamp.engineRange.contains(at) {
                        #expect(
                            code == "INVALID_EVENT"
                                && message.contains(
                                    "at: expected a time from 1971-01-01T00:00:00Z up to (not including) 2998-01-01T00:00:00Z"),
                            "\(line): \(out)")
                        continue
                    }
                    #expect(!["STORE_ERROR", "RULE_ERROR", "RULE_VIOLATION"].contains(code), "\(line): \(out)")
                    if code == "INVALID_EVENT" {
                        #expect(
                            message.contains("expires_at: expected a time from") || message.contains("until: expected a time from"),
                            "\(line): \(out)")
                    }
                    if code == nil { applied += 1 }
                }
            }
        }
        #expect(applied > 1_000)
        #expect(try replay.engine.store!.checkInvariants().isEmpty)
    }

    /// The clock answers for any instant at all, clamped to the days there are, without trapping.
    @Test func theClockIsTotal() throws {
        for zone in ["Pacific/Kiritimati", "Etc/GMT+12", "UTC"] {
            let clock = try LocalClock(timeZoneID: zone, dayStartsAt: LocalTime(hour: 4, minute: 0))
            for instant in [
                EpochMillis.min, -Millis.day, -1, 0, Millis.supportedRange.upperBound, Millis.supportedRange.upperBound + Millis.day, .max,
            ] {
                let (day, minutes) = clock.civil(instant)
                #expect((0..<1440).contains(minutes))
                #expect(clock.day(of: instant) <= day)
                #expect(clock.describe(instant).count == 16)
                _ = clock.instant(in: day, at: LocalTime(hour: 2, minute: 0))
            }
        }
    }

    /// An event built in code (not parsed) with a time out of range is refused the same way.
    @Test func eventsBuiltInCodeOutsideTheRangeAreRefused() throws {
        let engine = try Engine(store: Store.inMemory(), ruleFolder: RuleFixture.rulesFolder.path)
        #expect(Timestamp("1971-01-01T00:00:00Z")?.millis == Timestamp.engineRange.lowerBound)
        #expect(Timestamp("2998-01-01T00:00:00Z")?.millis == Timestamp.engineRange.upperBound)
        for millis in [EpochMillis.min, -1, Timestamp.engineRange.upperBound, .max] {
            #expect(
                throws: EngineError(
                    .invalidEvent,
                    "at: expected a time from 1971-01-01T00:00:00Z up to (not including) 2998-01-01T00:00:00Z, found \"\(Millis.supportedRange.contains(millis) ? Timestamp(millis: millis).description : "\(millis) ms since 1970")\""
                )
            ) {
                try engine.apply(EngineEvent(at: Timestamp(millis: millis), kind: .tick))
            }
        }
        let now = try #require(Timestamp("2026-03-02T08:00:00Z"))
        #expect(throws: EngineError.self) {
            try engine.apply(EngineEvent(at: now, kind: .subscription(tier: .paid, expiresAt: Timestamp(millis: .max))))
        }
        #expect(try engine.apply(EngineEvent(at: now, kind: .tick)).state["current_tier"] == .int(0))
    }

    func expectHostUsable(_ host: LuaHost) throws {
        #expect(try host.load("return 1 + 1", chunkName: "ok.lua") == [.integer(2)])
    }
}
