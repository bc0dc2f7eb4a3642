import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// What `habit.streak` is told about skips, freezes, every frequency, ceilings, start dates and the
/// open window of an x-in-y task (docs/rules.md), from replayed events through the Lua rules.
@Suite struct HabitPeriodMarksTests {
    /// The default Lua rules with `habit.max_backfill_days` set to `backfill`, and what they were
    /// asked last; `answer`, when given, replaces the rule's answer on the last line. The sets are
    /// loaded without their proofs: what the engine asks the rule is checked here, not validation.
    func replay(
        _ lines: [String], backfill: Int = 0, answer: HabitStreak? = nil
    )
        throws -> (outputs: [JSONValue], asked: (periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord)?)
    {
        let source = try RuleFixture.edited([("max_backfill_days = 0,", "max_backfill_days = \(backfill),")], in: "streaks.lua")
        let dir = try RuleFixture.folder(replacing: "streaks.lua", with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = MisbehavingRules(base: try RuleSet.load(dir.path, proving: false))
        let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: rules))
        let outputs = lines.enumerated().map { i, line in
            if i == lines.count - 1 { rules.habitStreakAnswer = answer }
            return replay.output(forLine: line, number: i + 1)
        }
        return (outputs, rules.habitStreakAsked)
    }

    func asked(_ lines: [String], backfill: Int = 0) throws -> (periods: [HabitPeriod], task: HabitTaskRecord) {
        let (outputs, asked) = try replay(lines, backfill: backfill)
        for out in outputs { #expect(out["ok"] == .bool(true), "\(out)") }
        let found = try #require(asked)
        return (found.periods, found.task)
    }

    static let paris = #"{"at": "2026-03-01T08:00:00+01:00", "type": "settings", "timezone": "Europe/Paris"}"#

    static func event(_ at: String, _ type: String, _ fields: String) -> String {
        #"{"at": "\#(at)T09:00:00+01:00", "type": "\#(type)", \#(fields)}"#
    }

    func days(_ periods: [HabitPeriod]) -> [String] {
        periods.map {
            "\($0.start) \($0.scheduled ? "" : "unscheduled ")\($0.completions) \($0.status.rawValue)\($0.freezesEquipped > 0 ? " equipped \($0.freezesEquipped)" : "")"
        }
    }

    @Test func skipsAndFreezesMarkTheirDays() throws {
        let input = try asked([
            Self.paris,
            Self.event("2026-03-02", "habit_task", #""task": "read""#),
            Self.event("2026-03-02", "habit_completion", #""task": "read""#),
            Self.event("2026-03-03", "habit_skip", #""task": "read""#),
            Self.event("2026-03-03", "habit_skip", #""task": "read", "day": "2026-03-07""#),  // planned: not a period yet
            Self.event("2026-03-04", "habit_freeze", #""task": "read", "action": "use""#),
            Self.event("2026-03-05", "habit_freeze", #""task": "read", "action": "equip""#),
            Self.event("2026-03-05", "habit_freeze", #""task": "read", "action": "equip""#),
            Self.event("2026-03-06", "habit_freeze", #""task": "read", "action": "equip""#),
            Self.event("2026-03-06", "habit_completion", #""task": "read""#),
        ])
        #expect(
            days(input.periods) == [
                "2026-03-06 1 done equipped 1", "2026-03-05 0 missed equipped 2", "2026-03-04 0 frozen",
                "2026-03-03 0 skipped", "2026-03-02 1 done",
            ])
    }

    /// A week (or a month) with a skipped day is skipped; with a freeze used on one of its days, frozen.
    @Test func aWeekWithASkippedOrFrozenDay() throws {
        let input = try asked([
            Self.paris,
            Self.event("2026-03-02", "habit_task", #""task": "run", "measurement": "weekly""#),
            Self.event("2026-03-04", "habit_skip", #""task": "run""#),
            Self.event("2026-03-10", "habit_skip", #""task": "run""#),
            Self.event("2026-03-11", "habit_freeze", #""task": "run", "action": "use""#),
            Self.event("2026-03-17", "habit_freeze", #""task": "run", "action": "equip""#),
        ])
        #expect(days(input.periods) == ["2026-03-16 0 open equipped 1", "2026-03-09 0 frozen", "2026-03-02 0 skipped"])
    }

    @Test func everyNDaysIsScheduledFromItsStartDate() throws {
        let input = try asked([
            Self.paris,
            Self.event(
                "2026-03-02", "habit_task", #""task": "plants", "frequency": "every_n_days", "every": 3, "start_date": "2026-03-02""#),
            Self.event("2026-03-05", "habit_completion", #""task": "plants""#),
            Self.event("2026-03-08", "habit_completion", #""task": "plants""#),
        ])
        #expect(
            days(input.periods) == [
                "2026-03-08 1 done", "2026-03-07 unscheduled 0 missed", "2026-03-06 unscheduled 0 missed",
                "2026-03-05 1 done", "2026-03-04 unscheduled 0 missed", "2026-03-03 unscheduled 0 missed",
                "2026-03-02 0 missed",
            ])
        #expect(input.task.frequencyKind == "every_n_days")
        #expect(input.task.every == 3 && input.task.times == nil && input.task.days == nil)
    }

    /// 31 is every month's last day: 28 February 2027, 29 February 2028 (a leap year), 30 April.
    @Test func daysOfMonthAtTheEndOfShortMonths() throws {
        func scheduled(_ from: String, _ to: String) throws -> [String] {
            let input = try asked([
                Self.paris,
                Self.event(from, "habit_task", #""task": "rent", "frequency": "days_of_month", "days_of_month": [31, 1]"#),
                Self.event(to, "habit_completion", #""task": "rent""#),
            ])
            #expect(input.task.frequencyKind == "days_of_month" && input.task.daysOfMonth == [1, 31])
            return input.periods.filter(\.scheduled).map(\.start.rawValue)
        }
        #expect(try scheduled("2027-02-26", "2027-03-02") == ["2027-03-01", "2027-02-28"])
        #expect(try scheduled("2028-02-26", "2028-03-02") == ["2028-03-01", "2028-02-29"])
        #expect(try scheduled("2026-04-28", "2026-05-02") == ["2026-05-01", "2026-04-30"])
    }

    /// A ceiling: a day within it is done, a day over it missed; a day without completions is not
    /// entered (missed when past, open today).
    @Test func atMostCeilings() throws {
        let input = try asked([
            Self.paris,
            Self.event(
                "2026-03-02", "habit_task",
                #""task": "coffee", "goal_type": "cups", "goal_value": 2, "goal_unit": "cups", "goal_direction": "at_most""#),
            Self.event("2026-03-02", "habit_completion", #""task": "coffee", "value": 1"#),
            Self.event("2026-03-03", "habit_completion", #""task": "coffee", "value": 2"#),
            Self.event("2026-03-03", "habit_completion", #""task": "coffee", "value": 1"#),
            Self.event("2026-03-05", "habit_completion", #""task": "coffee", "value": 2"#),
            Self.event("2026-03-06", "habit_skip", #""task": "coffee""#),
            Self.event("2026-03-07", "habit_completion", #""task": "coffee", "value": 3"#),
        ])
        #expect(
            days(input.periods) == [
                "2026-03-07 1 missed", "2026-03-06 0 skipped", "2026-03-05 1 done", "2026-03-04 0 missed",
                "2026-03-03 2 missed", "2026-03-02 1 done",
            ])
        #expect(input.task.goalDirection == .atMost && input.task.goalTarget == 2)
        let today = try asked([
            Self.paris,
            Self.event(
                "2026-03-02", "habit_task",
                #""task": "coffee", "goal_type": "cups", "goal_value": 2, "goal_unit": "cups", "goal_direction": "at_most""#),
        ])
        #expect(days(today.periods) == ["2026-03-02 0 open"])
    }

    /// A start date before the day the task was created: the periods start there, and completions
    /// backfilled since then count.
    @Test func theStartDateWithBackfilledCompletions() throws {
        let input = try asked(
            [
                Self.paris,
                Self.event("2026-03-10", "habit_task", #""task": "read", "start_date": "2026-03-06""#),
                Self.event("2026-03-10", "habit_completion", #""task": "read", "for_day": "2026-03-07""#),
                Self.event("2026-03-10", "habit_completion", #""task": "read""#),
            ], backfill: 7)
        #expect(
            days(input.periods) == [
                "2026-03-10 1 done", "2026-03-09 0 missed", "2026-03-08 0 missed", "2026-03-07 1 done",
                "2026-03-06 0 missed",
            ])
        #expect(input.task.startDate == (try DayID("2026-03-06")))
    }

    /// 3 times in 7 days: the streak may count the 6 days left of a satisfied window and 6 days
    /// before the first period (a window that began before the start), not a 7th on either side.
    @Test func theOpenWindowOfAnXInYTask() throws {
        let lines = [
            Self.paris,
            Self.event("2026-03-02", "habit_task", #""task": "gym", "frequency": "times_in_days", "times": 3, "days": 7"#),
            Self.event("2026-03-03", "habit_completion", #""task": "gym""#),
        ]
        let allowed = try replay(
            lines, answer: HabitStreak(current: 8, best: [.init(first: try DayID("2026-03-02"), last: try DayID("2026-03-09"), length: 8)]))
        #expect(allowed.outputs.last?.at("decisions", "habit_completion", "current_streak") == .int(8), "\(allowed.outputs)")
        #expect(allowed.asked?.task.times == 3 && allowed.asked?.task.days == 7 && allowed.asked?.task.frequencyKind == "times_in_days")
        #expect(allowed.asked?.task.openWindow == 6)
        let exceeded = try replay(lines, answer: HabitStreak(current: 15))
        #expect(exceeded.outputs.last?.at("error", "code") == .string("RULE_VIOLATION"))
        #expect(
            exceeded.outputs.last?.at("error", "message")?.string?.contains(
                "returned current 15, outside 0…14 (the 2 periods + the task's window of 6 days after and before them) for the 2 periods of task \"gym\""
            ) == true,
            "\(exceeded.outputs.last!)")
        let longBest = try replay(
            lines, answer: HabitStreak(current: 1, best: [.init(first: try DayID("2026-02-24"), last: try DayID("2026-03-10"), length: 15)]))
        #expect(
            longBest.outputs.last?.at("error", "message")?.string?.contains("best[1].length 15, outside 1…14") == true,
            "\(longBest.outputs.last!)")
        // A daily task has no open window.
        let daily = try replay(
            [
                Self.paris, Self.event("2026-03-02", "habit_task", #""task": "read""#),
                Self.event("2026-03-03", "habit_completion", #""task": "read""#),
            ], answer: HabitStreak(current: 3))
        #expect(
            daily.outputs.last?.at("error", "message")?.string?.contains("returned current 3, outside 0…2 (the number of periods)") == true)
    }

    /// The Lua rule reads the new fields: a rule that raises with what it sees, once the task has a completion.
    @Test func theLuaRuleReadsTheRecord() throws {
        let source = try RuleFixture.edited(
            [
                (
                    "function M.habit.streak(periods, task, user)\n",
                    """
                    function M.habit.streak(periods, task, user)
                      if task.name == "water" and #periods >= 3 and periods[1].completions > 0 then
                        local f, g = task.frequency, task.goal
                        error(string.format("seen %s every=%s times=%s days=%s dom=[%s] %s %s start=%s %s/%s/%s/%d", f.kind, tostring(f.every),
                          tostring(f.times), tostring(f.days), table.concat(f.days_of_month, ","), g.direction, tostring(g.target), task.start_date,
                          periods[1].status, periods[2].status, periods[3].status, periods[2].freezes_equipped))
                      end

                    """
                )
            ], in: "streaks.lua")
        let dir = try RuleFixture.folder(replacing: "streaks.lua", with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: try RuleSet.load(dir.path, proving: false)))
        let lines = [
            Self.paris,
            Self.event(
                "2026-03-02", "habit_task",
                #""task": "water", "frequency": "days_of_month", "days_of_month": [2, 31], "goal_type": "cups", "goal_value": 2, "goal_unit": "cups", "goal_direction": "at_most", "start_date": "2026-03-02""#
            ),
            Self.event("2026-03-02", "habit_skip", #""task": "water""#),
            Self.event("2026-03-03", "habit_freeze", #""task": "water", "action": "equip""#),
            Self.event("2026-03-04", "habit_completion", #""task": "water", "value": 1"#),
        ]
        let outputs = lines.enumerated().map { replay.output(forLine: $1, number: $0 + 1) }
        for out in outputs.dropLast() { #expect(out["ok"] == .bool(true), "\(out)") }
        let message = outputs.last?.at("error", "message")?.string ?? ""
        #expect(
            message.contains(
                "seen days_of_month every=nil times=nil days=nil dom=[2,31] at_most 2.0 start=2026-03-02 done/missed/skipped/1"),
            "\(message)")
    }
}
