import Foundation
import RulesBench
import RulesStore
import Testing

/// The benchmark runs end to end; its throughput is not asserted (no timings in tests), but the
/// on-disk sizes are deterministic and must stay within the seeds' budgets.
@Suite struct StoreBenchmarkTests {
    @Test func benchmarkRunsAndUserYearsFitTheSeedsBudgets() throws {
        let directory = try BenchTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreBenchmark.run(directory: directory.path, users: 2, days: 3, rounds: 1)
        #expect(result.userDays == 6)
        #expect(result.bulkRowsPerSecond > 0 && result.rawRowsPerSecond > 0)
        #expect(result.pressureUserYearBytes <= 200 * 1024, "Pressure user-year: \(result.pressureUserYearBytes) bytes")
        #expect(result.habitUserYearBytes <= 1024 * 1024, "habit tracker user-year: \(result.habitUserYearBytes) bytes")
        #expect(result.pressureUserYearFileGrowthBytes <= 200 * 1024)
        #expect(result.habitUserYearFileGrowthBytes <= 1024 * 1024)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the benchmark left files behind")
        #expect(throws: StoreError.self) { try StoreBenchmark.run(directory: directory.path, users: 0) }
    }
}
