import Foundation
import Testing

/// Tests/slow-tests.txt, which `scripts/test` leaves out and `scripts/test --slow` runs: each line
/// names a suite and a test of it that exist (a renamed test would otherwise run in neither).
@Suite struct SlowTestListTests {
    @Test func eachSlowTestNamesASuiteAndATestOfIt() throws {
        let list = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/slow-tests.txt"), encoding: .utf8)
        let entries = list.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(entries.count >= 10)
        let sources = try FileManager.default.subpathsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("Tests").path)
            .filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/\($0)"), encoding: .utf8) }
        for entry in entries {
            let parts = entry.split(separator: "/").map(String.init)
            #expect(parts.count == 2, "\(entry): expected SUITE/FUNCTION")
            guard parts.count == 2 else { continue }
            let inSuite = sources.contains { text in
                text.contains("struct \(parts[0]) ") || text.contains("extension \(parts[0]) ")
                    ? text.contains("func \(parts[1])(") : false
            }
            #expect(inSuite, "\(entry): no test \(parts[1]) in a file of suite \(parts[0])")
        }
    }
}
