import Foundation
import Testing

/// examples/duolingo-streak (Duolingo's streak) replayed through the real CLI against the cases of
/// examples/duolingo-streak/tests/ (Duolingo publishes no source nor tests: each case says whether it is
/// documented by the help center, community-reported or assumed; peers17.md §3).
@Suite struct DuolingoStreakExampleTests {
    /// `rulesrun test examples/duolingo-streak --no-inherit` runs every case (a scenario file each, whose lines'
    /// `expect` hold the peer's expected values) and all of them pass.
    @Test func everyCasePasses() throws {
        let result = try CLI.run(["test", "examples/duolingo-streak", "--no-inherit", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tests = report["tests"] as? [[String: Any]] ?? []
        #expect(report["passed"] as? Int == Self.cases.count)
        #expect(report["failed"] as? Int == 0)
        #expect(Set(tests.compactMap { $0["name"] as? String }) == Set(Self.cases))
        // Each case checks something: a line of it has an `expect`.
        for name in Self.cases {
            let text = try String(
                contentsOf: CLI.packageRoot.appendingPathComponent("examples/duolingo-streak/tests/\(name).jsonl"), encoding: .utf8)
            #expect(text.contains("\"expect\": {"), "\(name) checks nothing")
        }
    }

    /// The cases, one scenario file each in examples/duolingo-streak/tests/ (where each comes from is in its header).
    static let cases = [
        "freeze-max",
        "freeze-used-automatically",
        "open-today",
        "repair-within-window",
        "two-misses",
        "freeze-after-the-miss",
    ]
}
