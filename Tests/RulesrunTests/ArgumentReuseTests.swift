import Foundation
import LuaHost
import Testing

/// The reuse of rule calls' arguments (pooled tables, kept histories, lists, records and texts,
/// prices remembered by the fields read) changes nothing a command prints: each command here runs
/// with today's reuse (`kept`, in this process) and with every argument built fresh (`none`, in a
/// process with `RULESRUN_ARGUMENT_REUSE=none`), and both print the same bytes.
@Suite struct ArgumentReuseTests {
    /// Runs `arguments` both ways and expects the same status, output and errors.
    func expectSameOutput(_ arguments: [String], status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(
            LuaLimits.default.argumentReuse == .kept, "\(ArgumentReuse.environmentVariable) is set for the tests",
            sourceLocation: sourceLocation)
        let kept = try CLI.run(arguments)
        let fresh = try CLI.run(arguments, environment: [ArgumentReuse.environmentVariable: "none"])
        #expect(kept.status == status, "\(arguments): \(kept.stderr)", sourceLocation: sourceLocation)
        #expect(!kept.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(fresh.status == kept.status, "\(arguments): \(fresh.stderr)", sourceLocation: sourceLocation)
        #expect(fresh.stderr == kept.stderr, "\(arguments)", sourceLocation: sourceLocation)
        if fresh.stdout != kept.stdout {
            let a = kept.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let b = fresh.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let keptLine = line < a.count ? a[line] : "(end)", freshLine = line < b.count ? b[line] : "(end)"
            Issue.record("\(arguments): line \(line + 1) differs: kept \(keptLine), none \(freshLine)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["table", "json", "jsonl"])
    func simulateSaysTheSameWithFreshArguments(format: String) throws {
        try expectSameOutput(["simulate", "8d", "--users", "24", "--seed", "7", "--no-db", "--format", format])
    }

    /// Personas that reach the histories (habits), the Earned economy (prices) and the streak freezes.
    @Test(arguments: ["streak-keeper", "weekend-skipper", "lapsing-then-recovering"])
    func simulateAPersonaSaysTheSameWithFreshArguments(persona: String) throws {
        try expectSameOutput(
            ["simulate", "10d", "--users", "12", "--seed", "5", "--no-db", "--persona", persona, "--format", "json"])
    }

    /// Two rule sets that differ (status 1), each run writing its replay files in the same folder.
    @Test(arguments: ["examples/surge-pricing", "examples/loop-habits"])
    func compareSaysTheSameWithFreshArguments(folder: String) throws {
        let out = try CLI.folder([:]).appendingPathComponent("compare").path
        try expectSameOutput(
            [
                "compare", "rules", folder, "--runs", "4", "--days", "7", "--seed", "4", "--population-users", "10",
                "--population-replicas", "1", "--economy-runs", "2", "--economy-days", "7", "--habit-runs", "2", "--habit-days", "7",
                "--out", out,
            ],
            status: 1)
    }

    @Test(arguments: ["earned-economy", "escalation-week", "habit-marks", "habits-and-miga"])
    func replayExplainedSaysTheSameWithFreshArguments(file: String) throws {
        try expectSameOutput(["replay", "examples/replay/\(file).jsonl", "--explain", "json"])
    }

    @Test func anInvalidValueIsRefusedNamingTheVariable() throws {
        let result = try CLI.run(["simulate", "2d", "--users", "1", "--no-db"], environment: [ArgumentReuse.environmentVariable: "some"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("RULESRUN_ARGUMENT_REUSE=some: expected none, pooled or kept"))
        #expect(result.stdout.isEmpty)
    }
}
