import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// What `habit.streak` is asked (docs/rules.md): each period's local dates, weekday, scheduled,
/// completions and status, the task's record and the user's, from the events a user replays.
@Suite struct HabitPeriodRecordTests {
    func asked(_ lines: [String]) throws -> (periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord) {
        let rules = MisbehavingRules()
        let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: rules))
        for (i, line) in lines.enumerated() {
            let out = replay.output(forLine: line, number: i + 1)
            #expect(out["ok"] == .bool(true), "\(out)")
        }
        return try #require(rules.habitStreakAsked)
    }

    static let paris = #"{"at": "2026-03-01T08:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}"#

    func days(_ periods: [HabitPeriod]) -> [String] {
        periods.map {
            "\($0.start)…\($0.end) \($0.weekday.map(String.init) ?? "-") \($0.scheduled ? "scheduled" : "unscheduled") \($0.completions) \($0.status.rawValue)"
        }
    }

    @Test func aSpecificDaysTaskSeesItsDaysWeekdaysAndStatuses() throws {
        let input = try asked([
            Self.paris,
            #"{"at": "2026-03-02T08:00:00+01:00", "type": "habit_task", "task": "gym", "measurement": "daily", "frequency": "specificDays", "scheduled_days": [1, 3, 5], "times_per_day": 2}"#,
            #"{"at": "2026-03-02T23:30:00+01:00", "type": "habit_completion", "task": "gym"}"#,  // Monday, local
            #"{"at": "2026-03-05T07:00:00+01:00", "type": "habit_completion", "task": "gym"}"#,  // Thursday
        ])
        #expect(
            days(input.periods) == [
                "2026-03-05…2026-03-05 4 unscheduled 1 done", "2026-03-04…2026-03-04 3 scheduled 0 missed",
                "2026-03-03…2026-03-03 2 unscheduled 0 missed", "2026-03-02…2026-03-02 1 scheduled 1 done",
            ])
        #expect(
            input.task
                == HabitTaskRecord(
                    name: "gym", measurement: .daily, frequency: .specificDays, weekdays: [1, 3, 5], timesPerDay: 2,
                    startDate: try DayID("2026-03-02")))
        #expect(input.user == HabitUserRecord(timezone: "Europe/Paris", dayStartsAt: LocalTime(hour: 0, minute: 0)))
    }

    @Test func weeksRunMondayToSundayAndMonthsToTheirLastDay() throws {
        let weekly = try asked([
            Self.paris,
            #"{"at": "2026-03-04T08:00:00+01:00", "type": "habit_task", "task": "run", "measurement": "weekly"}"#,
            #"{"at": "2026-03-09T08:00:00+01:00", "type": "habit_completion", "task": "run"}"#,
        ])
        #expect(days(weekly.periods) == ["2026-03-09…2026-03-15 - scheduled 1 done", "2026-03-02…2026-03-08 - scheduled 0 missed"])
        #expect(weekly.task.startDate == (try DayID("2026-03-04")))
        let monthly = try asked([
            Self.paris,
            #"{"at": "2028-02-10T08:00:00+01:00", "type": "habit_task", "task": "call", "measurement": "monthly"}"#,
            #"{"at": "2028-03-01T08:00:00+01:00", "type": "habit_completion", "task": "call"}"#,
        ])
        #expect(days(monthly.periods) == ["2028-03-01…2028-03-31 - scheduled 1 done", "2028-02-01…2028-02-29 - scheduled 0 missed"])
    }

    /// The running period is `open` until done; a past one with too few completions is `partial`
    /// (here with `require_times_per_day`, the knob that makes 2 a day the target).
    @Test func theHostsStatusFollowsTheKnobs() {
        #expect(HabitPeriod.status(completions: 1, value: 0, needed: 2, goalTarget: nil, running: true, mark: nil) == .open)
        #expect(HabitPeriod.status(completions: 1, value: 0, needed: 2, goalTarget: nil, running: false, mark: nil) == .partial)
        #expect(HabitPeriod.status(completions: 2, value: 0, needed: 2, goalTarget: nil, running: false, mark: .frozen) == .done)
        #expect(HabitPeriod.status(completions: 0, value: 0, needed: 1, goalTarget: nil, running: false, mark: .skipped) == .skipped)
        #expect(HabitPeriod.status(completions: 2, value: 30, needed: 1, goalTarget: 40, running: false, mark: nil) == .partial)
        #expect(HabitPeriod.status(completions: 2, value: 40, needed: 1, goalTarget: 40, running: false, mark: nil) == .done)
    }
}
