import Foundation
import LuaHost
import RulesModel
import RulesSim
import Testing

@Suite struct PersonaTests {
    @Test func everyShippedPersonaLoads() throws {
        let host = try LuaHost()
        let files = try FileManager.default.contentsOfDirectory(atPath: SimTestSupport.personas).filter { $0.hasSuffix(".lua") }.sorted()
        #expect(files.count >= 5)
        for file in files {
            let persona = try PersonaLoader.load(path: SimTestSupport.personas + "/" + file, host: host)
            #expect(!persona.spec.description.isEmpty)
        }
    }

    @Test func aTypoIsReportedWithItsLineAndASuggestion() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("typo.lua").path
        try """
        return {
          description = "A persona with a typo",
          comit = 0.9,
          answer = { yes = 0.5, no = 0.2 },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let text = error.description
        #expect(text.hasPrefix("\(path):3: "), "\(text)")
        #expect(text.contains("did you mean 'commit'"), "\(text)")
    }

    @Test func valuesOutOfRangeAreReportedTogetherAtTheirLines() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ranges.lua").path
        try """
        return {
          description = "Out of range",
          commit = 1.5,
          answer = {
            yes = 0.7,
            no = 0.5,
          },
          reminder_response = { 0.1, 0.2, 0.3 },
          habits = { { task = "read", rate = -0.1 } },
          settings = { commitment_deadline = "13:00", timezone = "Mars/Olympus" },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        #expect(lines.contains("\(path):3: commit: expected a probability between 0 and 1, found 1.5"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):4: answer: yes + no must be at most 1") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):8: reminder_response: expected one probability per tier") }, "\(lines)")
        #expect(lines.contains("\(path):9: habits[1].rate: expected a probability between 0 and 1, found -0.1"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):10: settings.timezone: unknown time zone") }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("\(path):10: settings") && $0.contains("commitment_deadline") || $0.contains("13:00") },
            "\(lines)")
    }

    @Test func aTypeErrorDoesNotHideTheProblemsOfOtherSections() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("mixed.lua").path
        try """
        return {
          description = "Mixed problems",
          commit = 1.5,
          answer = { yes = 0.5, no = 0 },
          miga = { opens_per_day = "many" },
          habits = { { task = "read", rate = -0.1 } },
          earned = { apps = { "android:a" }, modes = { { strictness = 5 } } },
          settings = { timezone = "Mars/Olympus" },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        #expect(lines.count == 6, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):5: miga.opens_per_day: expected") }, "\(lines)")
        // Both problems of the mode: the field of the wrong type does not hide the missing one.
        #expect(lines.contains("\(path):7: earned.modes[1].name: required field is missing"), "\(lines)")
        #expect(lines.contains("\(path):7: earned.modes[1].strictness: expected a string, found integer 5"), "\(lines)")
        #expect(lines.contains("\(path):3: commit: expected a probability between 0 and 1, found 1.5"), "\(lines)")
        #expect(lines.contains("\(path):6: habits[1].rate: expected a probability between 0 and 1, found -0.1"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):8: settings.timezone: unknown time zone") }, "\(lines)")
    }

    /// A value that stops decoding (NaN, a wrong type) is set aside alone: the other problems,
    /// in its own section and in the others, are reported in the same run.
    @Test(arguments: [
        ("answer = { yes = 0/0, no = 0.1 }", "answer.yes: expected a finite number, found number nan"),
        ("habits = { { task = \"read\", rate = 0/0, times_per_day = 20 } }", "habits[1].rate: expected a finite number"),
        ("answer = \"often\"", "answer: expected a table, found string"),
        ("earned = { share = 0/0, apps = { \"android:a\" }, gate = { credits = 2 } }", "earned.share: expected a finite number"),
    ])
    func aValueThatStopsDecodingHidesNoOtherProblem(_ broken: String, _ expected: String) throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("nan.lua").path
        try """
        return {
          description = "Four mistakes",
          commit = 1.5,
          \(broken.hasPrefix("answer") ? "-- answer: below" : "answer = { yes = 0.5, no = 0.1 },")
          reminder_yes_share = 2,
          shield = -1,
          \(broken),
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        #expect(lines.contains { $0.hasPrefix("\(path):7: \(expected)") }, "\(lines)")
        #expect(lines.contains("\(path):3: commit: expected a probability between 0 and 1, found 1.5"), "\(lines)")
        #expect(lines.contains("\(path):5: reminder_yes_share: expected a probability between 0 and 1, found 2.0"), "\(lines)")
        #expect(lines.contains("\(path):6: shield: expected a probability between 0 and 1, found -1.0"), "\(lines)")
        if broken.hasPrefix("habits") {
            #expect(lines.contains("\(path):7: habits[1].times_per_day: expected 1…10, found 20"), "\(lines)")
        }
        if broken.hasPrefix("earned") {
            #expect(lines.contains { $0.hasPrefix("\(path):7: earned.gate.credits: expected a probability") }, "\(lines)")
        }
    }

    @Test func aHugeTextInAPersonaIsQuotedShort() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("huge.lua").path
        let zone = String(repeating: "A", count: 1_000_000)
        try """
        return {
          description = "A megabyte of time zone", commit = 0.5, answer = { yes = 0.5, no = 0 },
          settings = { timezone = "\(zone)", personality_mode = "\(zone)" },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        #expect(lines.count == 2 && lines.allSatisfy { $0.count < 300 }, "\(lines.map { $0.prefix(300) })")
        #expect(
            lines.contains {
                $0.hasPrefix("\(path):3: settings.timezone: unknown time zone \"AAAA") && $0.hasSuffix("… (1000000 characters)\"")
            })
    }

    @Test func aPersonaHasAtMostFiftyHabitsInEachApp() throws {
        // Unbounded lists made a 20-user, 7-day run take over a minute.
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("many.lua").path
        let tasks = (1...51).map { "{ task = \"t\($0)\", rate = 0.5 }" }.joined(separator: ", ")
        let habits = (1...51).map { "{ name = \"h\($0)\", rate = 0.5 }" }.joined(separator: ", ")
        let text =
            "return {\n  description = \"Too many habits\", commit = 0.5, answer = { yes = 0.5, no = 0 },\n"
            + "  habits = { \(tasks) },\n  earned = { apps = { \"android:a\" }, habits = { \(habits) } },\n}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        #expect(lines.contains("\(path):3: habits: expected at most 50 tasks, found 51"), "\(lines)")
        #expect(lines.contains { $0.contains("earned.habits: expected at most 50 habits, found 51") }, "\(lines)")
    }

    @Test func aBrokenEarnedSectionIsReportedAtItsLines() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("earned.lua").path
        try """
        return {
          description = "Broken Earned",
          commit = 0.5,
          answer = { yes = 0.5, no = 0.1 },
          earned = {
            apps = { "com.instagram.android", "iosToken:abc" },
            modes = {
              { name = "work", strictness = "STRIKT", windows = { { days = { 1, 8 }, from = "09:00", to = "25:00" } } },
            },
            gate = { credits = 0.6, quest = 0.5, quest_types = { "QR_SCAN", "SUDOKU" } },
            quest = { complete = 0.9, minutes = { 5, 2 } },
            urges = { per_day = 4, hours = { 3, 23 } },
          },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        let lines = error.problems.map(\.description)
        #expect(
            lines.contains("\(path):6: earned.apps[1]: expected an AppId \"android:…\" or \"iosToken:…\", found \"com.instagram.android\""),
            "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("\(path):8: earned.modes[1].strictness: expected \"GENTLE\", \"STRICT\" or \"HARD\"") },
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):8: earned.modes[1].windows[1].days: expected distinct ISO weekdays") }, "\(lines)")
        #expect(lines.contains("\(path):8: earned.modes[1].windows[1].to: expected \"HH:MM\", found \"25:00\""), "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("\(path):10: earned.gate: credits + quest + emergency must be at most 1 (the rest gives up)") },
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):10: earned.gate.quest_types[2]: expected \"BREATHING\"") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):11: earned.quest.minutes: expected { low, high }") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(path):12: earned.urges.hours: expected { low, high } with 5 ≤ low") }, "\(lines)")
    }

    @Test func aTypoInTheEarnedSectionSuggestsTheField() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("typo.lua").path
        try """
        return {
          description = "A typo in Earned",
          commit = 0.5,
          answer = { yes = 0.5, no = 0.1 },
          earned = {
            apps = { "android:com.instagram.android" },
            urges = { per_dya = 3 },
          },
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        #expect(error.description.hasPrefix("\(path):7: earned.urges.per_dya: unknown field"), "\(error)")
        #expect(error.description.contains("did you mean 'per_day'"), "\(error)")
    }

    @Test func valuesTheHostCannotReadAreReportedAtTheirFields() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let head = "local P = { description = \"x\", commit = 0.5, answer = { yes = 0.5, no = 0 } }\n"
        let cases = [
            (
                "cycle", "P.settings = {}\nP.settings.again = P.settings\n",
                "3: settings.again: a cycle: the table settings contains itself here"
            ),
            ("text", "P.description = \"caf\\xe9\"\n", #"2: description: expected UTF-8 text, found string "caf\xE9""#),
            (
                "deep", "local t = {}\nfor i = 1, 100 do t = { t } end\nP.habits = t\n",
                "4: habits[1][1]…: tables are nested more than 64 levels deep"
            ),
        ]
        for (name, body, expected) in cases {
            let path = dir.appendingPathComponent("\(name).lua").path
            try (head + body + "return P\n").write(toFile: path, atomically: true, encoding: .utf8)
            let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
            #expect(error.description == "\(path):\(expected)")
        }
    }

    @Test func aSandboxViolationNamesTheFileAndLine() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("escape.lua").path
        try "local x = 1\nreturn os.execute('true')\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        #expect(error.problems.first?.line == 2, "\(error)")
    }

    @Test func aPersonaKeepingACounterInDayIsRefused() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("upvalue.lua").path
        try """
        local n = 0
        return { description = "upvalue", commit = 0.9, answer = { yes = 1, no = 0 },
          day = function(d) n = n + 1; if n > 7 then return { commit = 0 } end; return { commit = 1 } end }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputFileError.self) { try PersonaLoader.load(path: path, host: try LuaHost()) }
        #expect(
            error.description == "\(path):3: function 'day' assigns to 'n', a local of the file: "
                + "rules keep no state between calls (use a local inside the function)", "\(error)")
    }

    @Test func anUnknownNameSuggestsTheClosestPersona() throws {
        let error = try #require(throws: InputFileError.self) {
            try PersonaLoader.resolve("stedy", folders: [SimTestSupport.personas])
        }
        #expect(error.description.contains("did you mean 'steady'?"), "\(error)")
    }

    @Test func mixesParseNamesFilesAndWeights() throws {
        let mix = try PersonaMix(["steady:70,struggling:30", "ghost", "my.lua"])
        #expect(mix.entries.map(\.reference) == ["steady", "struggling", "ghost", "my.lua"])
        #expect(mix.entries.map(\.weight) == [70, 30, 1, 1])
        #expect(throws: InputFileError.self) { try PersonaMix(["steady:-1"]) }
        #expect(throws: InputFileError.self) { try PersonaMix(["steady:x"]) }
    }

    @Test func durationsAreDaysWeeksCalendarMonthsAndYears() throws {
        let start = SimulationConfig.defaultStart  // Monday 5 January 2026
        #expect(try SimulationDuration("30d").days(from: start) == 30)
        #expect(try SimulationDuration("12w").days(from: start) == 84)
        #expect(try SimulationDuration("6m").days(from: start) == 181)  // 2026-01-05 to 2026-07-05
        #expect(try SimulationDuration("1y").days(from: start) == 365)
        #expect(throws: SimulationError.self) { try SimulationDuration("30") }
        #expect(throws: SimulationError.self) { try SimulationDuration("0d") }
        #expect(throws: SimulationError.self) { try SimulationDuration("3h") }
    }

    /// Every unit has the same limit in days (3660: 523 weeks are 3661 days), and a number too
    /// large for an integer is over that limit, not "not a number".
    @Test func durationsAreAtMost3660DaysInEveryUnit() throws {
        let start = SimulationConfig.defaultStart
        for text in ["3660d", "522w", "120m", "10y"] {
            #expect(try SimulationDuration(text).days(from: start) <= SimulationDuration.maxDays, "\(text)")
        }
        for text in ["3661d", "523w", "121m", "11y", "9223372036854775808d", "99999999999999999999w"] {
            #expect(throws: SimulationError.self, "\(text)") { try SimulationDuration(text) }
            do { _ = try SimulationDuration(text) } catch { #expect(error.message.contains("at most 3660 days"), "\(error.message)") }
        }
    }

    /// The last day a run can simulate is 2997-12-28 (the engine takes times up to 2997-12-31);
    /// the message says when the run would end.
    @Test func aRunMustEndByTheLastDayItCanSimulate() throws {
        #expect(
            SimulationDuration.lastSimulatedDay.rawValue == "2997-12-28" && SimulationDuration.firstSimulatedDay.rawValue == "1971-01-02")
        #expect(throws: Never.self) { try SimulationDuration("1d").check(from: try DayID("2997-12-28")) }
        #expect(throws: Never.self) { try SimulationDuration("2d").check(from: try DayID("2997-12-27")) }
        for (duration, start, end) in [
            ("1d", "2997-12-30", "on 2997-12-30"), ("2d", "2997-12-28", "on 2997-12-29"),
            ("1y", "2997-06-01", "on 2998-05-31"), ("1y", "9999-06-01", "after 2997-12-31"),
        ] {
            let first = try DayID(start)
            do {
                try SimulationDuration(duration).check(from: first)
                Issue.record("\(duration) from \(start) was accepted")
            } catch {
                #expect(error.message.contains("would end \(end); it must end by 2997-12-28"), "\(error.message)")
            }
        }
    }

}
