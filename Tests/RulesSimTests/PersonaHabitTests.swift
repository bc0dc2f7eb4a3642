import Foundation
import LuaHost
import RulesSim
import Testing

/// A persona's habit tasks beyond their rate: frequency, skip, freeze, late — each checked like
/// the rest of the file, at its line, naming the field.
@Suite struct PersonaHabitTests {
    @Test func badSkipsFreezesAndFrequenciesAreRefusedAtTheirLines() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("habits.lua").path
        try """
        return {
          description = "Bad habits",
          commit = 0.5,
          answer = { yes = 0.5, no = 0.2 },
          habits = {
            { task = "read", rate = 0.5, skip = 1.5 },
            { task = "run", rate = 0.5, frezee = { equip = 0.1 } },
            { task = "gym", rate = 0.5, frequency = { kind = "weekday", weekdays = { 1, 3 } } },
            { task = "swim", rate = 0.5, frequency = { kind = "every_n_days", every = 1 }, freeze = { equip = 2, max = 0 } },
            { task = "yoga", rate = 0.5, frequency = { kind = "weekdays", every = 3 }, late = -1 },
          },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        let expected = [
            "\(path):6: habits[1].skip: expected a probability between 0 and 1, found 1.5",
            "\(path):7: habits[2].frezee: unknown field (did you mean 'freeze'?)",
            "\(path):8: habits[3].frequency.kind: expected one of daily, weekdays, times_in_days, every_n_days, days_of_month, "
                + "found \"weekday\"; did you mean 'weekdays'?",
            "\(path):9: habits[4].freeze.equip: expected a probability between 0 and 1, found 2.0",
            "\(path):9: habits[4].freeze.max: expected 1…10 freezes held at a time, found 0",
            "\(path):9: habits[4].frequency.every: expected between 2 and 365, found 1",
            "\(path):10: habits[5].late: expected a probability between 0 and 1, found -1.0",
            "\(path):10: habits[5].frequency.weekdays: expected with kind \"weekdays\", found none",
            "\(path):10: habits[5].frequency.every: expected only with kind \"every_n_days\", found kind \"weekdays\"",
        ]
        for line in expected { #expect(lines.contains(line), "\(line) not in \(lines)") }
        #expect(lines.count == expected.count, "\(lines)")
    }

    @Test func aBadGoalIsRefusedAtItsLineWithWhatWasExpected() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("goals.lua").path
        try """
        return {
          description = "Bad goals",
          commit = 0.5,
          answer = { yes = 0.5, no = 0.2 },
          habits = {
            { task = "run", rate = 0.5, goal = { type = "distanse", target = 5, value = { 3, 8 } } },
            { task = "swim", rate = 0.5, goal = { type = "distance", unit = "kg", target = 0, value = { 8, 3 } } },
            { task = "coffee", rate = 0.5, goal = { type = "cups", target = 2, direction = "at most", value = { 1 } } },
          },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        let expected = [
            "\(path):6: habits[1].goal.type: expected one of repetitions, time, cups, calories, distance, weight, capacity, "
                + "found \"distanse\"; did you mean 'distance'?",
            "\(path):7: habits[2].goal.unit: expected one of m, km, mi, found \"kg\"; did you mean 'km'?",
            "\(path):7: habits[2].goal.target: expected a number above 0, at most 1000000, found 0.0",
            "\(path):7: habits[2].goal.value: expected { low, high } with 0 ≤ low ≤ high ≤ 1000000, found { 8.0, 3.0 }",
            "\(path):8: habits[3].goal.direction: expected one of at_least, at_most, found \"at most\"; did you mean 'at_most'?",
            "\(path):8: habits[3].goal.value: expected two numbers { low, high }, found 1",
        ]
        for line in expected { #expect(lines.contains(line), "\(line) not in \(lines)") }
        #expect(lines.count == expected.count, "\(lines)")
    }

    @Test func aFreezeIsEquippedByChanceOrEveryFewDaysNotBothNorNeither() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("freezes.lua").path
        try """
        return {
          description = "Freezes",
          commit = 0.5,
          answer = { yes = 0.5, no = 0.2 },
          habits = {
            { task = "a", rate = 0.5, freeze = { max = 2 } },
            { task = "b", rate = 0.5, freeze = { equip = 0.1, every = 7 } },
            { task = "c", rate = 0.5, freeze = { every = 0 } },
            { task = "d", rate = 0.5, freeze = { every = 7, max = 1, use = 0.5 } },
          },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        let expected = [
            "\(path):6: habits[1].freeze: expected equip (a probability a day) or every (days), found neither",
            "\(path):7: habits[2].freeze.every: expected either equip (a probability a day) or every (days), found both",
            "\(path):8: habits[3].freeze.every: expected 1…365 days, found 0",
        ]
        #expect(lines == expected, "\(lines)")
    }

    @Test func theStreakKeeperLoadsWithItsFrequenciesSkipsFreezesAndLateCompletions() throws {
        let persona = try PersonaLoader.load(path: SimTestSupport.personas + "/streak-keeper.lua", host: try LuaHost())
        let habits = persona.spec.habits
        #expect(habits.map(\.task) == ["lesson", "run", "gym"])
        #expect(habits[0].late == 0.3 && habits[0].freeze?.equip == 0.15 && habits[0].freeze?.use == 0.9)
        #expect(habits[1].frequency?.kind == "every_n_days" && habits[1].frequency?.every == 2 && habits[1].skip == 0.5)
        #expect(habits[1].goal?.type == "distance" && habits[1].goal?.target == 5 && habits[1].goal?.value == [3, 8])
        #expect(habits[2].frequency?.weekdays == [1, 3, 5] && habits[2].freeze?.max == 1 && habits[2].freeze?.use == 1)
    }
}
