import Foundation
import Testing

/// The ported test cases of a peer app's example (loop-habits, habitica-dailies, duolingo-streak):
/// `rulesrun test examples/NAME --no-inherit` runs exactly the scenario files `cases` (each with
/// lines that `expect` the peer's values) and the unit tests `unitTests`, and all of them pass.
enum PeerCases {
    static func checkAllPass(
        _ example: String, cases: [String], unitTests: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try CLI.run(["test", "examples/\(example)", "--no-inherit", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        let report = try #require(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        let tests = report["tests"] as? [[String: Any]] ?? []
        #expect(report["passed"] as? Int == cases.count + unitTests.count, sourceLocation: sourceLocation)
        #expect(report["failed"] as? Int == 0, sourceLocation: sourceLocation)
        #expect(Set(tests.compactMap { $0["name"] as? String }) == Set(cases + unitTests), sourceLocation: sourceLocation)
        // Each case checks something: a line of it has an `expect`.
        for name in cases {
            let text = try String(
                contentsOf: CLI.packageRoot.appendingPathComponent("examples/\(example)/tests/\(name).jsonl"), encoding: .utf8)
            #expect(text.contains("\"expect\": {"), "\(name) checks nothing", sourceLocation: sourceLocation)
        }
    }
}
