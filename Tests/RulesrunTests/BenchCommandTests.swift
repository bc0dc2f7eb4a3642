import Foundation
import Testing

@Suite struct BenchCommandTests {
    /// One JSON report for the suite's tests that read it (a whole bench is a few seconds of CPU),
    /// run in a working folder of its own.
    static let report = CLI.inProcess(
        ["bench", "--replay-users", "2", "--json", "--iterations", "2000", "--rounds", "1", "--store-users", "2"],
        in: TestFolders.shared.folder(for: "BenchCommandTests.report"))

    /// The JSON report is what tools read: one object with the three measurements and the ratios.
    @Test func jsonReportHasTheMeasurements() throws {
        let result = Self.report
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
        let json = Self.report
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
        #expect(targets.count == 10 && targets.allSatisfy { $0["met"] is Bool })
        // The target for activating the default rule set's bundle, in milliseconds.
        let activation = try #require(targets.first { ($0["name"] as? String)?.hasPrefix("bundle: verify and activate") == true })
        let bundles = try #require(object["bundles"] as? [String: Any])
        let oneArm = try #require(bundles["one_arm"] as? [String: Any])
        #expect(activation["measured"] as? Double == oneArm["activate_ms"] as? Double && activation["target"] as? String == "<= 50")
        let elsewhere = try #require(object["measured_elsewhere"] as? [[String: String]])
        #expect(elsewhere.contains { $0["command"]?.contains("compare") == true })
        let table = try CLI.run(["bench", "--replay-users", "2", "--iterations", "2000", "--rounds", "1", "--store-users", "1"])
        #expect(table.status == 0, "\(table.stderr)")
        let line = try #require(table.stdout.split(separator: "\n").first { $0.contains("bare C API tables in/out (issue 20)") })
        #expect(line.contains("target <= 1.3   ") && (line.hasSuffix("   met") || line.hasSuffix("   not met")), "\(line)")
        #expect(table.stdout.contains("measured elsewhere") && table.stdout.contains("simulate 30d --bench"))
    }

    /// `RULESRUN_BENCH_ONLY` runs one measurement alone (for a profiler) and says which; a name it
    /// does not know is refused with the names it knows.
    @Test func oneMeasurementRunsAloneForAProfiler() throws {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let arguments = [CLI.executable.path, "bench", "--replay-users", "2", "--iterations", "1000", "--rounds", "1"]
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
                "RULESRUN_BENCH_ONLY: expected one of floor, table-floor, hooked-table-floor, host, host-no-hook, bundles, replay, found \"hots\""),
            "\(unknown.stderr)")
    }

    /// The bundle section: the default rule set's bundle verified and activated, alone and as a
    /// two-arm experiment, each against reading its file and one SHA-256 over it; a user's arm
    /// against one SHA-256; the events of an experiment against the same without one. Its shape,
    /// in the JSON and the table, not its times.
    @Test func bundleSectionHasItsMeasurementsAndRatios() throws {
        let result = Self.report
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let bundles = try #require(object["bundles"] as? [String: Any])
        try Self.checkBundles(bundles, calls: 200, events: 10)
        // Run alone (RULESRUN_BENCH_ONLY=bundles): the same section, and nothing else.
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let arguments = [CLI.executable.path, "bench", "--replay-users", "2", "--iterations", "2000", "--rounds", "1"]
        let alone = try CLI.run(["RULESRUN_BENCH_ONLY=bundles"] + arguments + ["--json"], executableURL: env)
        #expect(alone.status == 0, "\(alone.stderr)")
        let aloneObject = try #require(try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any])
        #expect(Array(aloneObject.keys) == ["bundles"])
        try Self.checkBundles(try #require(aloneObject["bundles"] as? [String: Any]), calls: 200, events: 10)
        let table = try CLI.run(["RULESRUN_BENCH_ONLY=bundles"] + arguments, executableURL: env)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("bundles, each read from its file, 1 rounds") == true, "\(table.stdout)")
        for (prefix, count) in [
            ("  the default rule set, 1 rule set, ", 1), ("  a two-arm experiment of it, 2 rule sets, ", 1),
            ("    floor: the file + one SHA-256 ", 2), ("    verify (signature, hashes) ", 2), ("    activate (verify, load, swap) ", 2),
            ("  a user's arm, 200 calls", 1), ("    armIndex(of:) ", 1), ("  per event, 10 ticks of 10 users", 1),
            ("    experiment, every user in one arm ", 1), ("    two arms, half the users in each ", 1),
        ] {
            #expect(lines.filter { $0.hasPrefix(prefix) }.count == count, "\(prefix): \(table.stdout)")
        }
        #expect(lines.filter { $0.contains(" x floor") }.count == 5, "\(table.stdout)")
        #expect(!table.stdout.contains("rule call") && !table.stdout.contains("targets"))
    }

    /// The bundle section's fields, each a number of the right kind.
    static func checkBundles(_ bundles: [String: Any], calls: Int, events: Int) throws {
        #expect(bundles["rounds"] as? Int == 1)
        for (name, arms) in [("one_arm", 1), ("two_arms", 2)] {
            let activation = try #require(bundles[name] as? [String: Any], "missing bundles.\(name)")
            #expect(activation["arms"] as? Int == arms && (activation["bytes"] as? Int ?? 0) > 0, "\(name): \(activation)")
            for key in ["floor_ms", "verify_ms", "activate_ms", "activate_wall_ms", "verify_over_floor", "activate_over_floor"] {
                let value = try #require(activation[key] as? Double, "missing bundles.\(name).\(key)")
                #expect(value.isFinite && value > 0, "\(name).\(key) = \(value)")
            }
        }
        let assignment = try #require(bundles["assignment"] as? [String: Any])
        #expect(assignment["calls"] as? Int == calls)
        for key in ["sha256_ns", "arm_index_ns", "arm_index_over_sha256"] {
            let value = try #require(assignment[key] as? Double, "missing bundles.assignment.\(key)")
            #expect(value.isFinite && value > 0, "\(key) = \(value)")
        }
        let perEvent = try #require(bundles["events"] as? [String: Any])
        #expect(perEvent["events"] as? Int == events && perEvent["users"] as? Int == min(200, events))
        for key in [
            "plain_us", "control_only_us", "control_only_overhead_us", "control_only_overhead_share", "experiment_us", "overhead_us",
            "overhead_share",
        ] {
            // The overhead is a difference of two times: it may come out below zero.
            let value = try #require(perEvent[key] as? Double, "missing bundles.events.\(key)")
            #expect(value.isFinite, "\(key) = \(value)")
        }
        for key in ["plain_us", "control_only_us", "experiment_us"] { #expect((perEvent[key] as? Double ?? 0) > 0, "\(key)") }
        // The timed events all started from their users' kept contexts, with an experiment too
        // (the arms' engines share the store).
        #expect(perEvent["users_read"] as? [Int] == [0, 0, 0], "\(perEvent)")
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
            let result = try CLI.run(["bench", "--replay-users", "2", "--iterations", "1000", "--rounds", "1"] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
    }

    /// A benchmark that was killed left its folder in the temporary folder: the next one removes
    /// it (a folder of a process still running is left alone). The next one here is the bundle
    /// benchmark alone (`RULESRUN_BENCH_ONLY=bundles`), which makes its folder as the whole bench does.
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
        let result = try CLI.run(
            ["bench", "--replay-users", "2", "--json", "--iterations", "1000", "--rounds", "1", "--store-users", "1"],
            environment: ["RULESRUN_BENCH_ONLY": "bundles"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: live.path))
    }
}
