import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// The habit streak call on a 90-period history, in one run, in both shapes: the old one
/// (`current_streak(periods)`, 3 fields a period, an integer out) and the widened one
/// (`streak(periods, task, user)`, 8 fields a period with dates and status, the task and user
/// records, a table out), with the default rule's logic in both.
package enum StreakCallBenchmark {
    package struct Result: Sendable, Encodable {
        package var periods: Int
        package var iterations: Int
        package var old_shape_ns: Double
        package var widened_ns: Double
        package var widened_over_old: Double { widened_ns / old_shape_ns }

        private enum CodingKeys: String, CodingKey { case periods, iterations, old_shape_ns, widened_ns, widened_over_old }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(periods, forKey: .periods)
            try c.encode(iterations, forKey: .iterations)
            try c.encode(old_shape_ns, forKey: .old_shape_ns)
            try c.encode(widened_ns, forKey: .widened_ns)
            try c.encode(widened_over_old, forKey: .widened_over_old)
        }
    }

    static let source = """
        local M = {}
        function M.current_streak(periods)
          local streak = 0
          for i, period in ipairs(periods) do
            if period.scheduled then
              if period.completions >= 1 then streak = streak + 1 elseif i ~= 1 then break end
            end
          end
          return streak
        end
        function M.streak(periods, task, user)
          local streak = 0
          for i, period in ipairs(periods) do
            if period.scheduled then
              if period.completions >= 1 then streak = streak + 1 elseif i ~= 1 then break end
            end
          end
          return { current = streak }
        end
        return M
        """

    /// A period as the old rule saw it.
    struct OldPeriod: LuaTableEncodable {
        static let completions = LuaKey("completions")
        static let scheduled = LuaKey("scheduled")
        static let times = LuaKey("times_per_day")
        static var luaFieldCount: Int { 3 }
        var period: HabitPeriod
        func encode(to t: inout LuaTableWriter) {
            t.set(Self.completions, period.completions)
            t.set(Self.scheduled, period.scheduled)
            t.set(Self.times, 1)
        }
    }

    /// 90 days back from 2026-03-31, every one done but the running day; the last call of each
    /// round varies the running day's completions so that no call can be skipped.
    static func history(_ count: Int) -> [HabitPeriod] {
        let today = try! DayID("2026-03-31")
        return (0..<count).map { i in
            let day = today.adding(days: -i)!
            return HabitPeriod(start: day, end: day, isDay: true, completions: i == 0 ? 0 : 1, status: i == 0 ? .open : .done)
        }
    }

    package static func run(iterations: Int, rounds: Int, periods count: Int = 90) throws -> Result {
        let host = try LuaHost()
        let module = try host.load(source, chunkName: "streak-bench.lua").first?.tableValue
        guard let old = module?["current_streak"].functionValue, let new = module?["streak"].functionValue else {
            throw LuaError(kind: .runtime, message: "the streak benchmark rule does not load")
        }
        let periods = history(count)
        let oldPeriods = periods.map(OldPeriod.init)
        let task = HabitTaskRecord(name: "read", measurement: .daily, startDate: periods.last!.start)
        let user = HabitUserRecord(timezone: "Europe/Paris", dayStartsAt: LocalTime(hour: 0, minute: 0))
        var sink = 0
        let oldNs = try LuaHostBenchmark.best(rounds) {
            try LuaHostBenchmark.time(iterations) { _ in
                sink &+= Int(try host.call(old, PooledList(oldPeriods), returning: [LuaValue].self).first?.integerValue ?? 0)
            }
        }
        let newNs = try LuaHostBenchmark.best(rounds) {
            try LuaHostBenchmark.time(iterations) { _ in
                sink &+= try host.call(new, PooledList(periods), Pooled(task), Pooled(user), returning: HabitStreak.self).current
            }
        }
        // Both shapes must give the same streak, or the comparison means nothing.
        guard
            Int(try host.call(old, PooledList(oldPeriods), returning: [LuaValue].self).first?.integerValue ?? -1)
                == (try host.call(new, PooledList(periods), Pooled(task), Pooled(user), returning: HabitStreak.self).current)
        else {
            throw LuaError(kind: .runtime, message: "the two streak benchmark rules disagree")
        }
        if sink == 42 { print("") }
        return Result(periods: count, iterations: iterations, old_shape_ns: oldNs, widened_ns: newNs)
    }
}
