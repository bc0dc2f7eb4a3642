import LuaHost
import RulesModel
import Testing

@testable import RulesEngine

/// Dates and enumeration values written into rule arguments without Swift strings reach Lua as the
/// same texts as their raw values.
@Suite struct LuaTableWriterModelTests {
    /// `f(t)` returns the argument table as the host reads it back.
    func echo(_ host: LuaHost) throws -> LuaFunction {
        let module = try #require(try host.load("return { f = function(t) return t end }", chunkName: "echo.lua").first?.tableValue)
        return try #require(module["f"].functionValue)
    }

    @Test func enumerationTextsAreTheirRawValues() {
        for status in HabitPeriod.Status.allCases { #expect(status.luaText.name == status.rawValue) }
        for strictness in Strictness.allCases { #expect(strictness.luaText.name == strictness.rawValue) }
        for state in ManualOverrideState.allCases { #expect(state.luaText.name == state.rawValue) }
    }

    @Test func periodsGoToLuaWithTheirDatesAndStatusAsText() throws {
        let host = try LuaHost()
        let f = try echo(host)
        let first = try DayID("1970-01-01"), last = try DayID("9999-12-31"), leap = try DayID("2024-02-29")
        for (start, end, isDay) in [(first, first, true), (leap, last, false), (last, last, true)] {
            for status in HabitPeriod.Status.allCases {
                let period = HabitPeriod(start: start, end: end, isDay: isDay, completions: 1, status: status)
                // Twice: the second call refills the pooled table of the first.
                for _ in 0..<2 {
                    let seen = try host.call(f, Pooled(period), returning: LuaValue.self)
                    #expect(seen["start_date"].stringValue == start.rawValue)
                    #expect(seen["end_date"].stringValue == end.rawValue)
                    #expect(seen["status"].stringValue == status.rawValue)
                }
            }
        }
    }

    @Test func modeCandidatesGoToLuaWithTheirEnumerationsAsText() throws {
        let host = try LuaHost()
        let f = try echo(host)
        for strictness in Strictness.allCases {
            for state in ManualOverrideState.allCases {
                let mode = ModeCandidate(priority: 1, strictness: strictness, manualState: state, overrideInForce: false, windows: [])
                let seen = try host.call(f, Pooled(mode), returning: LuaValue.self)
                #expect(seen["strictness"].stringValue == strictness.rawValue)
                #expect(seen["manual_state"].stringValue == state.rawValue)
            }
        }
    }
}
