import Foundation
import Testing

@Suite struct BenchCommandTests {
    /// The JSON report is what tools read: one object with the three measurements and the ratios.
    @Test func jsonReportHasTheMeasurements() throws {
        let result = try CLI.run(["bench", "--json", "--iterations", "2000", "--rounds", "1", "--store-users", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in ["floor_ns", "host_ns", "native_ns", "host_no_hook_ns", "host_over_floor", "hook_share"] {
            let value = try #require(object[key] as? Double, "missing \(key)")
            #expect(value.isFinite && value >= 0, "\(key) = \(value)")
        }
        #expect(object["iterations"] as? Int == 2000)
        let store = try #require(object["store"] as? [String: Any])
        #expect((store["bulk_rows_per_second"] as? Double ?? 0) > 0)
        #expect((store["pressure_user_year_bytes"] as? Int ?? Int.max) <= 200 * 1024)
    }
}
