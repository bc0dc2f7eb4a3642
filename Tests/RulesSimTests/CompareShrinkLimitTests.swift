import Foundation
import RulesEngine
import Testing

@testable import RulesSim

/// A property of `compare --property` whose shrinking stops at its limit: its history is the
/// smallest found, not a minimal one, and everything that shows it says so, in the words
/// `rulesrun test` uses; shrinking to the end still says "minimal".
@Suite struct CompareShrinkLimitTests {
    /// A property broken by every Earned history of 5 events or more (two days have about 25).
    static let property = """
        cases = { prop_short = gen.history("earned", { days = 2 }) }
        function prop_short(a, b) return #a < 5 end
        """

    func checked(shrinkLimit: Int) throws -> PropertyComparison.Checked {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-shrink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("props.lua")
        try Self.property.write(to: file, atomically: true, encoding: .utf8)
        let (a, b) = (Repository.rules.path, Repository.graduatedRecovery.path)
        let comparison = PropertyComparison(
            a: try RuleSet.load(a, proving: false), b: try RuleSet.load(b, proving: false), seed: 1, shrinkLimit: shrinkLimit)
        try comparison.load(file: file.path)
        return try #require(comparison.run(runs: 1, expectations: [], folders: (a, b)).first)
    }

    func text(_ checked: PropertyComparison.Checked) -> String {
        CompareResult(
            nameA: "rules", nameB: "examples/graduated-recovery", options: CompareOptions(), histories: 0, differing: 0, findings: [],
            properties: [checked]
        ).text
    }

    @Test func aHistoryWhoseShrinkingStoppedAtItsLimitIsTheSmallestFoundNotMinimal() throws {
        let stopped = try checked(shrinkLimit: 3)
        #expect(!stopped.holds)
        #expect(stopped.outcome.shrinkStopped == .attempts)
        #expect(stopped.outcome.minimal.count > 5)
        #expect(stopped.shrinkText == "shrinking stopped after 3 attempts: the most it tries (3)")
        #expect(
            text(stopped).contains(
                "\n  shrinking stopped after 3 attempts: the most it tries (3); the smallest failing history found so far\n  why: "),
            "\(text(stopped))")
        let header = PropertyComparison.replayText(stopped, nameA: "rules", nameB: "examples/graduated-recovery", seed: 1)
            .split(separator: "\n")
        #expect(header.count > 1 && header[1].hasPrefix("# the smallest history found (\(stopped.outcome.minimal.count) events), shrunk from "))
        #expect(header.count > 1 && header[1].hasSuffix("; shrinking stopped after 3 attempts: the most it tries (3)"), "\(header)")
        #expect(stopped.explanations.count == 2)
        #expect(stopped.explanations.first?.text.first?.contains(" of the smallest history found under A (\(Repository.rules.path))") == true)

        let minimal = try checked(shrinkLimit: HistoryCheck.maxShrinkAttempts)
        #expect(minimal.outcome.shrinkStopped == nil && minimal.shrinkText == nil)
        #expect(minimal.outcome.minimal.count == 5)
        #expect(!text(minimal).contains("shrinking stopped"))
        let minimalHeader = PropertyComparison.replayText(minimal, nameA: "rules", nameB: "examples/graduated-recovery", seed: 1)
        #expect(minimalHeader.split(separator: "\n")[1].hasPrefix("# a minimal history (5 events), shrunk from "))
        #expect(minimal.explanations.first?.text.first?.contains(" of the minimal history under A (\(Repository.rules.path))") == true)
    }
}
