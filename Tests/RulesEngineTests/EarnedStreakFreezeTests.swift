import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// `earned.day_ends` at Earned's rollover (the freeze policy of examples/earned-freezes), its host
/// checks, and the widened day of `pressure.next`.
@Suite struct EarnedStreakFreezeTests {
    static let example = "examples/earned-freezes"

    /// The example's replay file, its comments and blank lines left out.
    static func exampleLines() throws -> [String] {
        let file = RuleFixture.rulesFolder.deletingLastPathComponent().appendingPathComponent("\(example)/freeze-spent.jsonl")
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    static func line(_ at: String, _ fields: String) -> String { #"{"at": "\#(at)", \#(fields)}"# }
    static let habit = line("2026-03-02T08:00:10Z", #""type": "earned_habit", "habit": "stretch", "reward_credits": 5"#)
    static func completion(_ day: Int) -> String {
        line("2026-03-\(day < 10 ? "0\(day)" : "\(day)")T08:05:00Z", #""type": "earned_habit_completion", "habit": "stretch""#)
    }
    static func tick(_ day: Int) -> String { line("2026-03-\(day < 10 ? "0\(day)" : "\(day)")T08:00:00Z", #""type": "tick""#) }

    /// The rollovers an output decided.
    static func rollovers(_ out: JSONValue) -> [JSONValue] { out.at("decisions", "earned_days")?.array ?? [] }

    @Test func aFreezeIsEarnedThenSpentAndTheStreakIsKept() throws {
        let out = try ReplayHarness(rules: Self.example).run(try Self.exampleLines())
        // The third qualifying day in a row earns a freeze at its rollover.
        #expect(
            Self.rollovers(out[5]) == [
                .object([
                    ("from_day_id", .string("2026-03-04")), ("to_day_id", .string("2026-03-05")), ("carried_credits", .int(10)),
                    ("forfeited_credits", .int(15)), ("streak_count", .int(3)), ("freezes", .int(1)),
                ])
            ], "\(out[5])")
        // The day without a completion spends it: the streak stays 3 and the next day counts 4.
        #expect(Self.rollovers(out[6]).first?["streak_count"] == .int(3))
        #expect(Self.rollovers(out[6]).first?["freeze_used"] == .bool(true))
        #expect(Self.rollovers(out[6]).first?["freezes"] == .int(0))
        #expect(out[7].at("decisions", "earned_habit_completion", "streak_count") == .int(4))
    }

    /// Nine qualifying days earn three freezes, of which two are held (`freeze_max = 2`): two days
    /// without a completion spend them, the third resets the streak. The default rules (no freeze
    /// policy) reset it at once and their decisions carry no freezes.
    @Test func theFreezesHeldStopAtTheCap() throws {
        let lines = [Self.habit] + (2...10).map(Self.completion) + (12...14).map(Self.tick)
        let out = try ReplayHarness(rules: Self.example).run(lines)
        #expect(Self.rollovers(out[9]).first?["freezes"] == .int(2), "day 9's rollover: \(out[9])")  // 3 earned, 2 held
        let ends = Self.rollovers(out[10]) + Self.rollovers(out[11]) + Self.rollovers(out[12])
        #expect(ends.map { $0["streak_count"] } == [.int(9), .int(9), .int(9), .int(0)], "\(ends)")
        #expect(ends.map { $0["freeze_used"] } == [nil, .bool(true), .bool(true), nil], "\(ends)")
        #expect(ends.map { $0["freezes"] } == [.int(2), .int(1), .int(0), .int(0)], "\(ends)")

        let plain = try ReplayHarness().run(lines)
        let plainEnds = Self.rollovers(plain[10]) + Self.rollovers(plain[11])
        #expect(plainEnds.map { $0["streak_count"] } == [.int(9), .int(0), .int(0)], "\(plainEnds)")
        #expect(plainEnds.allSatisfy { $0["freezes"] == nil && $0["freeze_used"] == nil }, "\(plainEnds)")
    }

    /// A rule that grows the streak over a day that did not qualify is refused, naming the call,
    /// and the rollover (with the event that brought it) changes nothing; fixed, the same event goes through.
    @Test(arguments: [
        (
            EarnedStreak(streakCount: 2, freezes: 0),
            "earned.day_ends(2026-03-03 (weekday 2), qualified nil, streak_count 1, freezes 0) returned streak_count 2 (a day that did not qualify keeps the count, 1, or resets it to 0)"
        ),
        (
            EarnedStreak(streakCount: 1, freezes: 101),
            "earned.day_ends(2026-03-03 (weekday 2), qualified nil, streak_count 1, freezes 0) returned freezes 101, outside 0…100"
        ),
    ])
    func aDayEndTheHostRefusesChangesNothing(_ answer: EarnedStreak, _ message: String) throws {
        let rules = MisbehavingRules()
        let h = try ReplayHarness(rules: rules)
        h.run([Self.habit, Self.completion(2), Self.tick(3)])
        let before = try h.engine.store!.dump()
        rules.dayEndsAnswer = { _ in answer }
        let refused = h.one(Self.tick(4))
        #expect(refused.at("error", "code") == .string("RULE_VIOLATION"))
        #expect(refused.at("error", "message")?.string?.hasSuffix(message) == true, "\(refused)")
        #expect(try h.engine.store!.dump() == before)
        rules.dayEndsAnswer = nil
        #expect(Self.rollovers(h.one(Self.tick(4))).first?["streak_count"] == .int(0))
    }

    /// A qualified day keeps its count: a rule resetting it is refused too.
    @Test func aQualifiedDayThatLosesItsStreakIsRefused() throws {
        let rules = MisbehavingRules()
        let h = try ReplayHarness(rules: rules)
        h.run([Self.habit, Self.completion(2)])
        rules.dayEndsAnswer = { _ in EarnedStreak(streakCount: 0, freezes: 0) }
        let refused = h.one(Self.tick(3))
        #expect(
            refused.at("error", "message")?.string?.hasSuffix(
                "earned.day_ends(2026-03-02 (weekday 1), qualified HABITS, streak_count 1, freezes 0) returned streak_count 0 (a qualified day keeps its count, 1)"
            ) == true, "\(refused)")
    }

    /// `pressure.next` sees the day's date, weekday and commitment: a rule that keeps the streak
    /// over a weekend day without a commitment (and breaks it on weekdays, or a committed miss).
    /// The default streaks.lua with `pressure.next` keeping the streak over a weekend day without a commitment.
    static func weekendRules() throws -> URL {
        let source = try RuleFixture.edited(
            [
                (
                    "  local current = 0\n",
                    "  local current = 0\n  if day.weekday >= 6 and not day.committed and day.date:sub(1, 4) == \"2026\" then\n    current = streak.current_streak\n  end\n"
                )
            ], in: "streaks.lua")
        return try RuleFixture.folder(replacing: "streaks.lua", with: source)
    }

    @Test func pressureNextSeesTheWeekdayAndTheCommitment() throws {
        let folder = try Self.weekendRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try Engine(store: try Store.inMemory(), ruleFolder: folder.path)
        let replay = Replay(engine: engine)
        // 2026-03-07 is a Saturday, the 8th a Sunday, the 10th a Tuesday.
        let lines =
            [Ev.at(1, "23:30", "\"type\": \"settings\", \"timezone\": \"UTC\"")] + Ev.day(5, "YES") + Ev.day(6, "YES")
            + [Ev.tick(7, "20:00")] + Ev.day(8, "MISSED") + Ev.day(9, "YES") + [Ev.tick(10, "20:00")]
        let out = lines.enumerated().map { replay.output(forLine: $1, number: $0 + 1) }
        #expect(out.allSatisfy { $0["ok"] == .bool(true) }, "\(out)")
        let streaks = out.map { $0.at("state", "current_streak") }
        #expect(streaks[4] == .int(2))
        #expect(streaks[5] == .int(2), "Saturday without a commitment keeps it: \(out[5])")
        #expect(streaks[7] == .int(0), "Sunday's committed miss breaks it: \(out[7])")
        #expect(streaks[9] == .int(1))
        #expect(streaks[10] == .int(0), "Tuesday without a commitment breaks it: \(out[10])")
    }

    /// A restart shield on a day without a commitment asks `pressure.next` with `committed` false
    /// (and the day's weekday): the weekend rule keeps the streak where the default resets it.
    @Test func aShieldOnADayWithoutACommitmentIsUncommitted() throws {
        let folder = try Self.weekendRules()
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try Engine(store: try Store.inMemory(), ruleFolder: folder.path)
        let replay = Replay(engine: engine)
        let lines =
            [Ev.at(1, "23:30", "\"type\": \"subscription\", \"tier\": \"PAID\"")] + Ev.day(5, "YES") + Ev.day(6, "YES")
            + [Ev.tick(7, "09:10"), Ev.at(7, "09:30", "\"type\": \"shield\"")]
        let out = lines.enumerated().map { replay.output(forLine: $1, number: $0 + 1) }
        #expect(out.allSatisfy { $0["ok"] == .bool(true) }, "\(out)")
        #expect(out[6].at("decisions", "shield", "current_streak") == .int(2), "\(out[6])")
        let plain = try ReplayHarness().run(lines)
        #expect(plain[6].at("decisions", "shield", "current_streak") == .int(0), "\(plain[6])")
    }
}
