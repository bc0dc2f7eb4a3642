import LuaHost
import RulesEngine
import RulesModel
import Testing

@testable import RulesSim

@Suite struct UserSimulatorTests {
    /// The simulator reads the days the decisions name (`days[].day`, a rollover's `from_day_id`)
    /// as indices of the run's days: a day before or after the run, or a text that is not a
    /// `YYYY-MM-DD` day, is none.
    @Test(arguments: [("7d", "2026-01-11", 6), ("1m", "2026-02-04", 30)])
    func aDayTextIsTheIndexOfASimulatedDayOrNone(duration: String, last: String, lastIndex: Int) throws {
        let config = SimulationConfig(duration: try SimulationDuration(duration), start: try DayID("2026-01-05"), users: 1)
        let simulator = UserSimulator(engine: Engine(rules: NativeReference()), personas: [], personaHost: try LuaHost(), config: config)
        #expect(simulator.dayCount == lastIndex + 1)
        #expect(simulator.dayIndex("2026-01-05") == 0)
        #expect(simulator.dayIndex("2026-01-06") == 1)
        #expect(simulator.dayIndex(last) == lastIndex)
        #expect(simulator.dayIndex(try DayID(last).adding(days: 1)!.rawValue) == nil)
        #expect(simulator.dayIndex("2026-01-04") == nil)
        for notADay in ["2026-1-05", "2026-01-05 ", "", "2026-01-05T00:00"] { #expect(simulator.dayIndex(notADay) == nil) }
    }
}
