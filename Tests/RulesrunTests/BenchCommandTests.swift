import Foundation
import Testing

@Suite struct BenchCommandTests {
    /// The JSON report is what tools read: one object with the three measurements and the ratios.
    @Test func jsonReportHasTheMeasurements() throws {
        let result = try CLI.run(["bench", "--json", "--iterations", "2000", "--rounds", "1", "--store-users", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in [
            "floor_ns", "host_ns", "native_ns", "host_no_hook_ns", "host_over_floor", "hook_share", "table_floor_ns",
            "table_floor_hooked_ns", "host_over_table_floor", "host_over_hooked_table_floor",
        ] {
            let value = try #require(object[key] as? Double, "missing \(key)")
            #expect(value.isFinite && value >= 0, "\(key) = \(value)")
        }
        #expect(object["iterations"] as? Int == 2000)
        let store = try #require(object["store"] as? [String: Any])
        #expect((store["bulk_rows_per_second"] as? Double ?? 0) > 0)
        #expect((store["pressure_user_year_bytes"] as? Int ?? Int.max) <= 200 * 1024)
        // The habit streak call on 90 periods, old shape and widened record, in the same run.
        let streak = try #require(object["habit_streak"] as? [String: Any])
        #expect(streak["periods"] as? Int == 90 && streak["iterations"] as? Int == 20, "\(streak)")
        for key in ["old_shape_ns", "widened_ns", "widened_over_old"] {
            let value = try #require(streak[key] as? Double, "missing habit_streak.\(key)")
            #expect(value.isFinite && value > 0, "\(key) = \(value)")
        }
    }

    /// Every target the bench measures is stated with its measure and whether this run meets it,
    /// in the JSON and in the table; the other targets name the command that measures them.
    @Test func targetsAreStatedWithTheirVerdict() throws {
        let json = try CLI.run(["bench", "--json", "--iterations", "2000", "--rounds", "1", "--store-users", "1"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let targets = try #require(object["targets"] as? [[String: Any]])
        let call = try #require(targets.first { ($0["name"] as? String)?.contains("bare C API tables in/out") == true })
        let ratio = try #require(object["host_over_table_floor"] as? Double)
        #expect(call["measured"] as? Double == ratio && call["target"] as? String == "<= 1.3")
        #expect(call["met"] as? Bool == (ratio <= 1.3))
        // The same ratio against the round trip with a count hook: what LuaHost adds beyond the budget.
        let hooked = try #require(targets.first { ($0["name"] as? String)?.contains("with a count hook") == true })
        #expect(hooked["measured"] as? Double == object["host_over_hooked_table_floor"] as? Double)
        #expect(targets.count == 6 && targets.allSatisfy { $0["met"] is Bool })
        let elsewhere = try #require(object["measured_elsewhere"] as? [[String: String]])
        #expect(elsewhere.contains { $0["command"]?.contains("compare") == true })
        let table = try CLI.run(["bench", "--iterations", "2000", "--rounds", "1", "--store-users", "1"])
        #expect(table.status == 0, "\(table.stderr)")
        let line = try #require(table.stdout.split(separator: "\n").first { $0.contains("bare C API tables in/out (issue 20)") })
        #expect(line.contains("target <= 1.3   ") && (line.hasSuffix("   met") || line.hasSuffix("   not met")), "\(line)")
        #expect(table.stdout.contains("measured elsewhere") && table.stdout.contains("simulate 30d --bench"))
    }

    /// `RULESRUN_BENCH_ONLY` runs one measurement alone (for a profiler) and says which; a name it
    /// does not know is refused with the names it knows.
    @Test func oneMeasurementRunsAloneForAProfiler() throws {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let arguments = [CLI.executable.path, "bench", "--iterations", "1000", "--rounds", "1"]
        for name in ["floor", "table-floor", "hooked-table-floor", "host", "host-no-hook"] {
            let result = try CLI.run(["RULESRUN_BENCH_ONLY=\(name)"] + arguments, executableURL: env)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let line = result.stdout.trimmingCharacters(in: .newlines)
            let ns = line.hasPrefix("\(name): ") && line.hasSuffix(" ns per call") ? Double(line.split(separator: " ")[1]) : nil
            #expect((ns ?? 0) > 0, "\(name): \(result.stdout)")
        }
        let unknown = try CLI.run(["RULESRUN_BENCH_ONLY=hots"] + arguments, executableURL: env)
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
        #expect(
            unknown.stderr.contains(
                "RULESRUN_BENCH_ONLY: expected one of floor, table-floor, hooked-table-floor, host, host-no-hook, found \"hots\""),
            "\(unknown.stderr)")
    }

    /// Every option is checked before the rule benchmarks run (--store-users 0 was refused after
    /// them, with status 1; 100,000,000 ran out of memory).
    @Test func optionsAreCheckedBeforeAnythingRuns() throws {
        for (arguments, expected) in [
            (["--store-users", "0"], "The value '0' is invalid for '--store-users <store-users>': expected a whole number from 1 to 1000"),
            (["--store-users", "1001"], "'--store-users <store-users>': expected a whole number from 1 to 1000"),
            (
                ["--iterations", "-1"],
                "The value '-1' is invalid for '--iterations <iterations>': expected a whole number from 1 to 10000000"
            ),
            (["--rounds", "21"], "'--rounds <rounds>': expected a whole number from 1 to 20"),
        ] {
            let result = try CLI.run(["bench", "--iterations", "1000", "--rounds", "1"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
    }

    /// A benchmark that was killed left its folder in the temporary folder: the next one removes
    /// it (a folder of a process still running is left alone).
    @Test func foldersOfKilledBenchmarksAreRemoved() throws {
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let running = Process()
        running.executableURL = URL(fileURLWithPath: "/bin/sleep")
        running.arguments = ["600"]
        // Its own output, not the test runner's (a child holding the runner's pipe keeps the run
        // from ending), and killed outright at the end (SIGTERM may be ignored, inherited so).
        running.standardOutput = FileHandle.nullDevice
        running.standardError = FileHandle.nullDevice
        try running.run()
        defer {
            kill(running.processIdentifier, SIGKILL)
            running.waitUntilExit()
        }
        let temporary = FileManager.default.temporaryDirectory
        let stale = temporary.appendingPathComponent("rulesrun-bench-\(exited.processIdentifier)-0badcafe")
        let live = temporary.appendingPathComponent("rulesrun-bench-\(running.processIdentifier)")
        for folder in [stale, live] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.appendingPathComponent("bench-bulk-0.sqlite"))
        }
        defer { try? FileManager.default.removeItem(at: live); try? FileManager.default.removeItem(at: stale) }
        let result = try CLI.run(["bench", "--json", "--iterations", "1000", "--rounds", "1", "--store-users", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }
}
