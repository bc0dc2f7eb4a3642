import LuaHost
import RulesEngine
import RulesModel
import Testing

@testable import RulesSim

@Suite struct UserSimulatorTests {
    /// The simulator reads the days the decisions name (`days[].day`, a rollover's `from`) as
    /// indices of the run's days: a day before or after the run is none, and a text that is not a
    /// `YYYY-MM-DD` day cannot name one.
    @Test(arguments: [("7d", "2026-01-11", 6), ("1m", "2026-02-04", 30)])
    func aDayIsTheIndexOfASimulatedDayOrNone(duration: String, last: String, lastIndex: Int) throws {
        let config = SimulationConfig(duration: try SimulationDuration(duration), start: try DayID("2026-01-05"), users: 1)
        let simulator = UserSimulator(engine: Engine(rules: NativeReference()), personas: [], personaHost: try LuaHost(), metrics: nil, config: config)
        #expect(simulator.dayCount == lastIndex + 1)
        #expect(simulator.dayIndex(try DayID("2026-01-05")) == 0)
        #expect(simulator.dayIndex(try DayID("2026-01-06")) == 1)
        #expect(simulator.dayIndex(try DayID(last)) == lastIndex)
        #expect(simulator.dayIndex(try DayID(last).adding(days: 1)!) == nil)
        #expect(simulator.dayIndex(try DayID("2026-01-04")) == nil)
        for notADay in ["2026-1-05", "2026-01-05 ", "", "2026-01-05T00:00"] { #expect((try? DayID(notADay)) == nil) }
    }
}
