import Foundation
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

/// The habit tracker's half of `rulesrun compare`, through the library: generated habit histories
/// (`HabitHistory`) that the default rules accept, and two streak policies compared on them, each
/// kind of difference shrunk to a short replay file that the engine reproduces.
@Suite struct HabitComparisonTests {
    static let loopHabits = Repository.root.appendingPathComponent("examples/loop-habits")

    /// The same seed gives the same lines; every line is accepted by the default rules except a
    /// completion `for_day` (their `habit.max_backfill_days` is 0), and the histories hold every
    /// kind of habit event.
    @Test func generatedHistoriesAreReproducibleAndAcceptedByTheDefaultRules() throws {
        let generator = HabitHistory(seed: 0x4AB1_2026, days: 21)
        #expect(generator.lines(case: 3) == HabitHistory(seed: 0x4AB1_2026, days: 21).lines(case: 3))
        #expect(generator.lines(case: 3) != generator.lines(case: 4))
        let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: try RuleSet.load(Repository.rules.path)))
        var seen: [String: Int] = [:]
        for k in 0..<40 {
            let lines = generator.lines(case: k).map { $0.replacingOccurrences(of: "\"user\": \"u1\"", with: "\"user\": \"case\(k)\"") }
            for (i, line) in lines.enumerated() {
                let event = try #require(try JSONLine.parseOrdered(line)["type"]?.description).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\""))
                let backfill = line.contains("\"for_day\"")
                seen[backfill ? "for_day" : event, default: 0] += 1
                let out = replay.output(forLine: line, number: i + 1)
                if backfill {
                    #expect(out["ok"] == .bool(false), "case \(k), line \(i + 1): \(line)")
                    let message = out["error"]?["message"]?.description ?? ""
                    #expect(message.contains("for_day"), "case \(k), line \(i + 1): \(out)")
                } else {
                    #expect(out["ok"] == .bool(true), "case \(k), line \(i + 1): \(line)\n\(out)")
                }
            }
        }
        for kind in ["settings", "habit_task", "habit_completion", "habit_skip", "habit_freeze", "habit_uncheck", "for_day", "tick"] {
            #expect(seen[kind, default: 0] > 0, "\(kind): \(seen)")
        }
    }

    @Test func aStreakPolicyComparedWithItselfHasNoDifference() throws {
        let rules = try RuleSet.load(Repository.rules.path)
        let result = try HabitComparison(a: rules, b: rules, runs: 30, days: 14, seed: 7).run()
        #expect(result.histories == 30 && result.differing == 0)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.field))")
    }

    /// Loop Habit Tracker's streaks differ from the default rule's; the first history that shows
    /// it is shrunk to a few events, and replaying them through the engine under each set shows
    /// the two streaks at the reported event.
    @Test func loopHabitsStreaksDifferAndShrinkToAFewEvents() throws {
        let a = try RuleSet.load(Repository.rules.path), b = try RuleSet.load(Self.loopHabits.path)
        let result = try HabitComparison(a: a, b: b, runs: 20, days: 14, seed: 1).run()
        let streak = try #require(result.findings.first { $0.field == .habitStreak }, "\(result.findings.map(\.field))")
        #expect(streak.histories > 0 && streak.histories <= result.differing)
        #expect(streak.lines.count <= 8, "\(streak.lines.joined(separator: "\n"))")
        #expect(streak.lines.count < streak.originalEvents)
        #expect(streak.a != streak.b)
        // The replay file replays, under each set with a fresh store, to the values reported.
        let text = HabitComparison.replayText(streak, nameA: "rules", nameB: "examples/loop-habits")
        #expect(text.hasPrefix("# rulesrun compare rules examples/loop-habits: the habit tracker's habit_streak differs\n"))
        func output(_ rules: any PolicyRules) throws -> [JSONValue] {
            let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: rules))
            var out: [JSONValue] = []
            replay.run(text) { out.append(try! JSONLine.parseOrdered($0)) }
            return out
        }
        let outA = try output(a), outB = try output(b)
        #expect(outA.count == streak.lines.count && outB.count == streak.lines.count)
        #expect(outA[streak.firstEvent]["state"]?["habit_streaks"] == streak.a)
        #expect(outB[streak.firstEvent]["state"]?["habit_streaks"] == streak.b)
        for i in 0..<streak.firstEvent {
            #expect(outA[i]["state"]?["habit_streaks"] == outB[i]["state"]?["habit_streaks"], "event \(i + 1)")
        }
        // Loop lets a user edit any past day, the default rules only today: a completion for_day
        // is refused by A alone.
        let error = try #require(result.findings.first { $0.field == .error }, "\(result.findings.map(\.field))")
        #expect(error.lines[error.firstEvent].contains("\"for_day\""))
        #expect(error.a == .string("INVALID_EVENT") && error.b == .string("ok"), "\(error.a) \(error.b)")
    }
}
