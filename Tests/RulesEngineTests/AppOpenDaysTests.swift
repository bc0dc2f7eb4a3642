import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// `habit.track_app_opens` (docs/rules.md): the engine records the habit days on which a user sent
/// an event other than `tick`, and `habit.streak`'s periods carry them as `opened`; a rule set that
/// does not set it records nothing (its users' `engine_state` rows stay as they were).
@Suite struct AppOpenDaysTests {
    static let lines = [
        #"{"at": "2026-03-01T08:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}"#,
        #"{"at": "2026-03-02T09:00:00+01:00", "type": "habit_task", "task": "read"}"#,
        #"{"at": "2026-03-02T09:05:00+01:00", "type": "habit_completion", "task": "read"}"#,
        #"{"at": "2026-03-03T09:00:00+01:00", "type": "tick"}"#,
        #"{"at": "2026-03-05T23:30:00+01:00", "type": "settings", "timezone": "Europe/Paris"}"#,
        #"{"at": "2026-03-06T09:00:00+01:00", "type": "habit_completion", "task": "read"}"#,
    ]

    /// The periods `habit.streak` was asked about last, and the user's `engine_state` JSON, after
    /// the lines replayed on the default rules with `habit.track_app_opens` set to `tracking`.
    func replay(tracking: Bool) throws -> (periods: [HabitPeriod], state: String) {
        let source = try RuleFixture.edited(
            [("max_backfill_days = 0,", "max_backfill_days = 0,\n  track_app_opens = \(tracking),")], in: "streaks.lua")
        let dir = try RuleFixture.folder(replacing: "streaks.lua", with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = MisbehavingRules(base: try RuleSet.load(dir.path))
        let store = try Store.inMemory()
        let replay = Replay(engine: Engine(store: store, rules: rules))
        for (i, line) in Self.lines.enumerated() {
            let out = replay.output(forLine: line, number: i + 1)
            #expect(out["ok"] == .bool(true), "\(out)")
        }
        let state = try #require(try store.read { try $0.engineState(named: "u1") }).stateJSON
        return (try #require(rules.habitStreakAsked).periods, state)
    }

    @Test func openedDaysReachTheRule() throws {
        let (periods, state) = try replay(tracking: true)
        // Most recent first: 03-06 and 03-05 (an event at 23:30) opened, 03-03 (only a tick) and 03-04 not.
        #expect(periods.map(\.start.rawValue) == ["2026-03-06", "2026-03-05", "2026-03-04", "2026-03-03", "2026-03-02"])
        #expect(periods.map(\.opened) == [true, true, false, false, true])
        #expect(state.contains(#""appOpens":{"runs":[{"first":"2026-03-01","last":"2026-03-02"},{"first":"2026-03-05","last":"2026-03-06"}]}"#), "\(state)")
    }

    @Test func nothingIsRecordedWithoutTheKnob() throws {
        let (periods, state) = try replay(tracking: false)
        #expect(periods.allSatisfy { $0.opened == nil })
        #expect(!state.contains("appOpens"), "\(state)")
    }
}
