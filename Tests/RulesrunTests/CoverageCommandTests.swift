import Foundation
import Testing

/// `test --coverage`, `--threshold`, the JSON ranges, and `simulate --coverage` / `compare
/// --coverage`, run as a rule author runs them.
@Suite struct CoverageCommandTests {
    /// The default rules, with a pricing.lua of its own holding one line no test runs (line 3).
    static func variantWithAnUnrunLine() throws -> URL {
        try TestCommandTests.variant([
            "pricing.lua": """
            -- The default pricing, with a function nothing calls.
            local function unused(x)
              return x + 1
            end
            return base
            """
        ])
    }

    /// The properties run 10 cases each (of the default 100, drawn from the same seed): a line
    /// their first 10 cases run is run by the 100, so full coverage with 10 is full coverage.
    @Test func theDefaultRulesAreFullyCoveredByTheirTests() throws {
        let result = try CLI.run(["test", "--coverage", "--threshold", "100", "--cases", "10"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let title = try #require(lines.firstIndex(of: "coverage of the rule files by the tests:"))
        #expect(lines[title + 1] == "  escalation.lua  100.0 % lines (29/29); branches 8/8")
        #expect(lines.contains { $0.hasPrefix("  total           100.0 % lines (112/112); branches ") })
    }

    @Test func aLineNoTestRunsIsReportedWithItsFileAndTheThresholdFailsBelow() throws {
        let dir = try Self.variantWithAnUnrunLine()
        let result = try CLI.run(["test", dir.path, "--coverage"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\n  pricing.lua           0.0 % lines (0/1), uncovered 3; branches 0/0\n"))
        // The inherited file counts under its own path.
        #expect(result.stdout.contains("\n  rules/pricing.lua     100.0 % lines (10/10); branches 6/6\n"))
        #expect(result.stdout.contains("\n  total                 99.1 % lines (112/113); branches "))

        // 99.1 % is below 100: exit 1, said on stderr; 99 is met.
        let strict = try CLI.run(["test", dir.path, "--threshold", "100"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("line coverage 99.1 % (112/113) is below --threshold 100 %"))
        #expect(strict.stdout.contains("39 passed, 0 failed"))
        let met = try CLI.run(["test", dir.path, "--threshold", "99"])
        #expect(met.status == 0, "\(met.stderr)")
        let zero = try CLI.run(["test", dir.path, "--threshold", "0"])
        #expect(zero.status == 0, "\(zero.stderr)")
        let bad = try CLI.run(["test", dir.path, "--threshold", "101"])
        #expect(bad.status == 2 && bad.stderr.contains("--threshold: expected a percentage from 0 to 100, found 101"))
    }

    /// A threshold no integer holds (infinite, not a number, past 2^63) is refused as 101 is,
    /// written as given: the message is never made by converting it to an integer.
    @Test func aThresholdNoIntegerHoldsIsRefusedWithTheOthers() throws {
        for (value, shown) in [("inf", "inf"), ("1e300", "1e+300"), ("1e19", "1e+19"), ("nan", "nan")] {
            let huge = try CLI.run(["test", "--threshold", value])
            #expect(huge.status == 2, "\(value): \(huge.stderr)")
            #expect(huge.stderr.contains("--threshold: expected a percentage from 0 to 100, found \(shown)"), "\(huge.stderr)")
        }
    }

    @Test func theJSONReportGivesLineRangesAndArms() throws {
        let dir = try Self.variantWithAnUnrunLine()
        let result = try CLI.run(["test", dir.path, "--coverage", "--format", "json", "--cases", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let coverage = try #require(object["coverage"] as? [String: Any])
        let files = try #require(coverage["files"] as? [[String: Any]])
        let own = try #require(files.first { $0["file"] as? String == "pricing.lua" })
        let ownLines = try #require(own["lines"] as? [String: Any])
        #expect(ownLines["uncovered_ranges"] as? [[Int]] == [[3, 3]])
        #expect(ownLines["covered_ranges"] as? [[Int]] == [])
        let escalation = try #require(files.first { $0["file"] as? String == "rules/escalation.lua" })
        let lines = try #require(escalation["lines"] as? [String: Any])
        #expect(lines["uncovered_ranges"] as? [[Int]] == [])
        #expect((lines["covered_ranges"] as? [[Int]])?.first?.first == 66)
        let arms = try #require((escalation["branches"] as? [String: Any])?["arms"] as? [[String: Any]])
        #expect(arms.count == 8)
        #expect(arms.allSatisfy { $0["line"] is Int && $0["kind"] is String && $0["ran"] as? Bool == true })
        let total = try #require((coverage["total"] as? [String: Any])?["lines"] as? [String: Any])
        #expect(total["covered"] as? Int == 112 && total["total"] as? Int == 113 && total["percent"] as? Double == 99.1)
    }

    @Test func withoutCoverageTheTestOutputHasNone() throws {
        let result = try CLI.run(["test", "--format", "json", "--cases", "10"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("coverage"))
    }

    @Test func simulateCoverageSaysWhatNoSimulatedUserReachedAndChangesNothingElse() throws {
        let run = ["simulate", "7d", "--users", "20", "--no-db", "--format", "json", "--jobs", "2"]
        let plain = try CLI.run(run), covered = try CLI.run(run + ["--coverage"])
        #expect(plain.status == 0 && covered.status == 0, "\(covered.stderr)")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(covered.stdout.utf8)) as? [String: Any])
        let coverage = try #require(object.removeValue(forKey: "coverage") as? [String: Any])
        #expect((coverage["files"] as? [Any])?.count == 5)
        // Everything but the coverage is the report without it.
        let without = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        #expect(NSDictionary(dictionary: object).isEqual(to: without))
        #expect(covered.stdout.hasPrefix(String(plain.stdout.dropLast(2))))

        // The same cohort with one job or four: the same coverage.
        let text = try CLI.run(["simulate", "7d", "--users", "20", "--no-db", "--coverage", "--jobs", "1"])
        let four = try CLI.run(["simulate", "7d", "--users", "20", "--no-db", "--coverage", "--jobs", "4"])
        #expect(text.stdout == four.stdout)
        #expect(text.stdout.contains("\ncoverage of the rule files by the simulated users:\n  escalation.lua  "))
        #expect(text.stdout.contains("\n  arms not run by any simulated user: "))
    }

    @Test func compareCoverageReportsBothSets() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-\(UUID().uuidString)")
        let result = try CLI.run([
            "compare", "rules", "examples/graduated-recovery", "--runs", "20", "--days", "20", "--population-users", "10",
            "--economy-runs", "5", "--habit-runs", "5", "--out", out.path, "--coverage",
        ])
        #expect(result.status <= 1, "\(result.stderr)")
        #expect(result.stdout.contains("\ncoverage of A (rules) by the comparison:\n  escalation.lua  "))
        #expect(result.stdout.contains("\ncoverage of B (examples/graduated-recovery) by the comparison:\n"))
        #expect(result.stdout.contains("\n  rules/streaks.lua  "))  // B's inherited files, under their own path
    }
}
