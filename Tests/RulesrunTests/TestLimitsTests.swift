import Foundation
import Testing

/// The bounds of a `rulesrun test` run (docs/testing-rules.md, "Limits of a run"): the time of a
/// test and of the whole run, the candidates shrinking tries, what the tests print, the lines of a
/// failure and the size of a property's case. Each is asserted by the tool's own message and exit
/// status, never by a stopwatch; the time limits given are far below what the tests would take.
@Suite struct TestLimitsTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path

    /// A rule folder extending the default rules (only `files` of its own), with the given tests.
    static func variant(_ files: [String: String]) throws -> URL {
        try CLI.folder(["extends": rules + "\n"].merging(files) { $1 })
    }

    /// A property's calls each cost about a million instructions: its shrinking (thousands of
    /// candidates from 10^12 down to 20,000) would take minutes. It stops at the test's time limit,
    /// and the failure shows the smallest failing case found so far, saying so.
    @Test(.timeLimit(.minutes(5))) func aValuePropertyStopsShrinkingAtItsTimeLimitWithTheSmallestCaseSoFar() throws {
        let dir = try Self.variant([
            "tests/slow_test.lua": """
            cases = { prop_slow = gen.int(0, 1000000000000) }
            function prop_slow(n)
              local s = 0
              for i = 1, 300000 do s = s + i end
              return n < 20000
            end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain", "--test-timeout", "2"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let fail = try #require(lines.firstIndex { $0.hasPrefix("FAIL  tests/slow_test.lua:2 prop_slow (1 case)") }, "\(result.stdout)")
        try #require(lines.count > fail + 3)
        #expect(lines[fail + 1] == "    tests/slow_test.lua:2: the property returned false")
        let shrunk = try #require(
            lines[fail + 3].wholeMatch(
                of: #/    smallest failing case found \(shrinking stopped after (\d+) attempts: its time limit \(2 s, --test-timeout\) was reached\): (\d+)/#),
            "\(lines[fail + 3])")
        #expect(Int(shrunk.output.2)! >= 20000)
    }

    /// A property that is quick to call but whose shrinking would need far more candidates than
    /// the most shrinking tries: it stops there, and says so.
    @Test(.timeLimit(.minutes(5))) func aValuePropertyStopsShrinkingAtTheMostCandidatesItTries() throws {
        let dir = try Self.variant([
            "tests/long_test.lua": """
            cases = { prop_below = gen.int(0, 1000000000000) }
            function prop_below(n) return n < 30000 end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("    smallest failing case found (shrinking stopped after 20000 attempts: the most it tries (20000)): "),
            "\(result.stdout)")
    }

    /// A history property broken by every history of 600 events or more, on a year of Pressure
    /// events (650): each shrink candidate is a replay of hundreds of events, and the smallest
    /// history that breaks it is far away (one day at a time). Shrinking stops at the test's time
    /// limit; the replay file written is the smallest failing history found so far, and says so.
    @Test(.timeLimit(.minutes(5))) func aHistoryPropertyStopsShrinkingAtItsTimeLimitAndWritesTheSmallestHistorySoFar() throws {
        let dir = try Self.variant([
            "tests/history_test.lua": """
            cases = { prop_short = gen.history("pressure", { days = 366 }) }
            function prop_short(steps) return #steps < 600 end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--test-timeout", "3"], in: dir)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let stop = "its time limit (3 s, --test-timeout) was reached; the smallest failing history found so far"
        let stopped = try #require(result.stdout.firstMatch(of: #/\n    shrinking stopped after \d+ attempts: (.*)\n/#), "\(result.stdout)")
        #expect(stopped.output.1 == stop)
        // The explanation would replay the history once more: not past the limit.
        #expect(result.stdout.contains("\n    its rule calls are not shown: its time limit (3 s, --test-timeout) was reached\n"))
        let file = dir.appendingPathComponent(".rulesrun/test/prop_short.jsonl")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("# shrunk from pressure history 0 of seed 1 (650 events)") && $0.contains(stop) })
        let events = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(events.count >= 600)
        let replay = try CLI.run(["replay", file.path, "--rules", dir.path], in: dir)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.split(separator: "\n").count == events.count)
    }

    /// A property that holds, asked for 100,000 cases of a million instructions each: it stops at
    /// its time limit, an ERROR saying how many cases ran, and the tests after it still run.
    @Test(.timeLimit(.minutes(5))) func aPropertyStoppedAmongItsCasesIsAnErrorSayingHowManyRan() throws {
        let dir = try Self.variant([
            "tests/cases_test.lua": """
            cases = { prop_costly = gen.int(0, 10) }
            function prop_costly(n)
              local s = 0
              for i = 1, 300000 do s = s + i end
              return true
            end

            function test_after() expect_eq(1, 1) end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--cases", "100000", "--test-timeout", "1"], in: dir)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let error = try #require(lines.firstIndex { $0.hasPrefix("ERROR tests/cases_test.lua:2 prop_costly (") }, "\(result.stdout)")
        try #require(lines.count > error + 1)
        #expect(
            lines[error + 1].contains(
                #/^    tests/cases_test.lua: cases.prop_costly: stopped after \d+ of 100000 cases, none of which broke it: its time limit \(1 s, --test-timeout\) was reached$/#
            ), "\(lines[error + 1])")
        #expect(lines.contains { $0.hasPrefix("PASS  tests/cases_test.lua:8 test_after  (") })
        #expect(lines.last == "1 passed, 0 failed, 1 error")
    }

    /// A scenario of 40,000 events stops at its time limit before a line, naming it: 20,000 days of
    /// a commitment and a YES, each day's streak costing about a million instructions (only from
    /// 2031, the days of the scenario: the proofs of a rule that costly on every day would stop at
    /// their budget), so that the lines take minutes in any build however fast.
    @Test(.timeLimit(.minutes(5))) func aScenarioStopsBeforeALineAtItsTimeLimit() throws {
        let start = Date(timeIntervalSince1970: 1_925_337_600)  // 2031-01-05
        let format = ISO8601DateFormatter()
        func at(_ day: Int, hour: Int) -> String {
            format.string(from: start.addingTimeInterval(Double(day * 86_400 + hour * 3_600)))
        }
        let days = (0..<20_000).map { day in
            """
            {"at": "\(at(day, hour: 7))", "type": "commitment", "text": "Write"}
            {"at": "\(at(day, hour: 18))", "type": "check_in", "result": "YES"}
            """
        }
        let costly = """
            local M = base
            local next_streak = M.pressure.next
            function M.pressure.next(streak, day)
              if day.date >= "2031" then
                local s = 0
                for i = 1, 300000 do s = s + i end
              end
              return next_streak(streak, day)
            end
            return M
            """
        let settings = "{\"at\": \"\(at(0, hour: 6))\", \"type\": \"settings\", \"timezone\": \"UTC\"}"
        let scenario = ([settings] + days).joined(separator: "\n") + "\n"
        let dir = try Self.variant(["streaks.lua": costly, "tests/long.jsonl": scenario])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--test-timeout", "1"], in: dir)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                #/ERROR tests/long.jsonl:(\d+) long\n    tests/long.jsonl:\1: stopped before this line: its time limit \(1 s, --test-timeout\) was reached\n/#),
            "\(result.stdout)")
    }

    /// 3,000 tests that each use their whole instruction budget, and a second file: the run stops
    /// at its time limit, after the test it was running, with an ERROR `(not run)` that names it
    /// and says what did not run; in every format.
    @Test(.timeLimit(.minutes(5))) func manyTestsEachUsingTheirWholeBudgetStopAtTheRunsTimeLimit() throws {
        let busy = (0..<3_000).map { "function test_\($0)() while true do end end" }.joined(separator: "\n")
        let dir = try Self.variant(["tests/busy_test.lua": busy + "\n", "tests/later_test.lua": "function test_later() end\n"])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain", "--timeout", "1"], in: dir)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let notRun = try #require(lines.firstIndex { $0 == "ERROR tests/busy_test.lua:1 (not run)" }, "\(result.stdout)")
        try #require(lines.count > notRun + 1)
        // The last test run, when one ran before the time was over (the file takes a while to load).
        let last = lines[..<notRun].last { $0.hasPrefix("FAIL  ") }?.firstMatch(of: #/^FAIL  (tests/busy_test.lua:\d+ test_(\d+))  \(/#)
        let ran = last.map { Int($0.output.2)! + 1 } ?? 0
        let after = last.map { " after \($0.output.1)" } ?? ""
        #expect(
            lines[notRun + 1]
                == "    the run's time limit (1 s, --timeout) was reached\(after): \(3_000 - ran) more tests of tests/busy_test.lua and the tests of tests/later_test.lua did not run"
        )
        #expect(lines.last == "0 passed, \(ran) failed, 1 error")
        let junit = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain", "--timeout", "1", "--format", "junit"], in: dir)
        #expect(junit.status == 2)
        #expect(junit.stdout.contains("name=\"(not run)\""))
        #expect(junit.stdout.contains("more tests of tests/busy_test.lua and the tests of tests/later_test.lua did not run"))
    }

    /// A test that prints in a loop keeps 64 KiB of it, the rest counted in one last line; and
    /// twenty such tests keep 1 MiB in all, in the JUnit file as in the text.
    @Test(.timeLimit(.minutes(5))) func whatTestsPrintIsCutAtTheTestsAndTheRunsLimit() throws {
        let loud = (1...20).map { "function test_loud_\($0)() for i = 1, 2000 do print(string.rep(\"x\", 99)) end end" }
        let dir = try Self.variant(["tests/loud_test.lua": loud.joined(separator: "\n") + "\n"])
        let result = try CLI.run(["test", dir.path, "--no-inherit"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // 661 lines of 99 bytes in 64 KiB; 16 tests keep 16 x 661 x 99 = 1,047,024 bytes of the run's
        // 1 MiB, the 17th the 15 lines of the 1,552 bytes left, the last three none.
        #expect(lines.filter { $0.hasPrefix("    print: xxx") }.count == 16 * 661 + 15)
        let cut = lines.filter { $0.hasPrefix("    print: … cut: ") }
        try #require(cut.count == 20)
        #expect(cut.first == "    print: … cut: 1339 more lines (132561 bytes) not kept: a test keeps 64 KiB of what it prints")
        #expect(cut[16] == "    print: … cut: 1985 more lines (196515 bytes) not kept: a run keeps 1 MiB of what its tests print")
        #expect(cut.last == "    print: … cut: 2000 more lines (198000 bytes) not kept: a run keeps 1 MiB of what its tests print")
        let junit = try CLI.run(["test", dir.path, "--no-inherit", "--format", "junit"], in: dir)
        #expect(junit.status == 0)
        #expect(junit.stdout.utf8.count < 1_100_000)
        #expect(junit.stdout.contains("… cut: 1339 more lines (132561 bytes) not kept: a test keeps 64 KiB of what it prints</system-out>"))
    }

    /// A failure's line is cut at 4,096 characters, saying how long it was.
    @Test func aFailureLineIsCutAtItsLimit() throws {
        let dir = try Self.variant(["tests/long_error_test.lua": "function test_long() error(string.rep(\"y\", 1000000)) end\n"])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain"], in: dir)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let failure = try #require(lines.first { $0.hasPrefix("    tests/long_error_test.lua:1: yyy") })
        // The message is the file's place, `tests/long_error_test.lua:1: ` (29 characters), then the million.
        #expect(failure.hasSuffix("y… (1000029 characters)"))
        #expect(failure.count == 4 + 4_096 + "… (1000029 characters)".count)
    }

    /// Lists of lists of lists of lists of up to 1,000 elements: refused at the first case, before
    /// it is built, an ERROR naming the property (the run neither grows to gigabytes nor aborts).
    @Test(.timeLimit(.minutes(5))) func aNestedListBombIsAnErrorNamingTheProperty() throws {
        let dir = try Self.variant([
            "tests/bomb_test.lua": """
            cases = { prop_bomb = gen.list(gen.list(gen.list(gen.list(gen.int(0, 9), 1000), 1000), 1000), 1000) }
            function prop_bomb(x) return true end
            """
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit"], in: dir)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "ERROR tests/bomb_test.lua:2 prop_bomb (0 cases)\n    tests/bomb_test.lua: cases.prop_bomb: case 0 of seed 1: the case holds more than a case may: 100000 values (numbers, strings, booleans, tables) and 8 MiB of text"
            ), "\(result.stdout)")
        let peak = try CLI.peakMemory(["test", dir.path, "--no-inherit"])
        #expect(peak.status == 2)
        #expect(peak.maxRSSKilobytes < 300_000, "\(peak.maxRSSKilobytes) kB")
    }
}
