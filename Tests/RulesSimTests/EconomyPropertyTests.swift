import Foundation
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

/// Earned's economy along random histories (`EconomyHistory`), through the whole engine: the Lua
/// rules decide as the native reference does, and the store's invariants hold for every rule set of
/// the repository. A failure prints a replay file.
@Suite struct EconomyPropertyTests {
    @Test func theLuaEconomyDecidesAsTheNativeReference() throws {
        let comparison = try EconomyComparison(
            a: try RuleSet.load(Repository.rules.path), b: NativeReference(),
            runs: 60, days: 4, seed: 0xEC0_2026)
        let result = comparison.run()
        for finding in result.findings {
            Issue.record(
                """
                rules/ and NativeReference differ in \(finding.field.rawValue) (\(finding.histories) of \(result.histories) histories); at event \(finding.firstEvent + 1):
                  \(finding.changes.joined(separator: "\n  "))
                replay file:
                \(EconomyComparison.replayText(finding, nameA: "rules", nameB: "NativeReference"))
                """)
        }
    }

    /// Each history is replayed in memory (`Engine.recordingBatch`: the users' rows kept in
    /// `UserRecords`, as a simulation keeps them), then written to the store (`BulkWriter`, as a
    /// simulation writes them) before the store's invariants are read: they are read from the rows
    /// the history made (a store the rows never reached would hold every invariant). The bulk path
    /// stores what applying each event on its own stores (`RecordingBatchTests`).
    @Test(arguments: RuleSetInvariantTests.ruleSetFolders)
    func invariantsHoldAlongRandomEarnedHistories(folder: String) throws {
        let rules = try RuleSetInvariantTests.load(folder)
        let store = try Store.inMemory()
        let recording = Engine(rules: rules)  // no store: the rows stay in the records until written
        recording.userID = Engine.numberedUserID
        let replay = Replay(engine: recording)
        let seed = folder.utf8.reduce(UInt64(0xEA27_2026)) { ($0 &* 31) &+ UInt64($1) }
        let generator = EconomyHistory(seed: seed, days: 5)
        for k in 0..<25 {
            let lines = generator.lines(case: k).map { $0.replacingOccurrences(of: "\"user\": \"u1\"", with: "\"user\": \"u\(k + 1)\"") }
            var refusedByRules: [String] = []
            let (_, records) = try recording.recordingBatch {
                for (i, line) in lines.enumerated() {
                    let out = replay.output(forLine: line, number: i + 1)
                    if let code = out["error"]?["code"]?.description, code.contains("RULE_") || code.contains("STORE_ERROR") {
                        refusedByRules.append("event \(i + 1): \(out)")
                    }
                }
            }
            try BulkWriter(store: store).write(records)
            let violations = try store.checkInvariants()
            if !refusedByRules.isEmpty || !violations.isEmpty {
                Issue.record(
                    """
                    \(folder), economy case \(k) of seed \(seed): \(refusedByRules.joined(separator: "; ")) \(violations.map { "\($0)" }.joined(separator: "; "))
                    replay file:
                    \(lines.joined(separator: "\n"))
                    """)
                return
            }
        }
    }
}
