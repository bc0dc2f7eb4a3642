import Foundation
import Testing

/// The helper every process test goes through: it reads both pipes at once and kills a child that
/// outlives its timeout.
@Suite(.timeLimit(.minutes(2))) struct CLIHelperTests {
    let shell = URL(fileURLWithPath: "/bin/sh")

    /// 200 KB on standard error before a word on standard output: read one pipe after the other,
    /// the child would wait forever on the full pipe nobody reads.
    @Test func aChildFillingStandardErrorFirstIsReadToTheEnd() throws {
        let result = try CLI.run(["-c", "head -c 200000 /dev/zero >&2; echo done"], executableURL: shell)
        #expect(result.status == 0)
        #expect(result.stdout == "done\n")
        #expect(result.stderr.utf8.count == 200_000)
    }

    /// A child that outlives its timeout is killed, and the test that ran it has an issue.
    @Test func aChildPastItsTimeoutIsKilledAndTheTestHasAnIssue() throws {
        var result: CLI.Result?
        withKnownIssue {
            result = try CLI.run(["-c", "echo started; exec sleep 60"], executableURL: shell, timeout: .seconds(1))
        }
        #expect(result?.stdout == "started\n")
        #expect(result?.status == SIGKILL)
    }
}
