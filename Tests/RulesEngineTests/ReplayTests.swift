import Foundation
import RulesEngine
import RulesStore
import Testing

@Suite struct ReplayTests {
    /// "\r\n" ends a line (as a Character it is not "\n"); line numbers count every line.
    @Test func windowsLineEndingsSplitLinesWithTheirNumbers() throws {
        let replay = try ReplayHarness().replay
        var out: [String] = []
        let status = replay.run(
            "\u{FEFF}" + Ev.commit(2) + "\r\n\r\n# note\r\n{\"at\": \"2026-03-02T09:00:00Z\"}\r\n" + Ev.tick(2, "10:00") + "\r"
        ) { out.append($0) }
        #expect(out.count == 3, "\(out)")
        #expect(out[0].contains("\"ok\":true") && out[2].contains("\"ok\":true"))
        #expect(out[1].hasPrefix("{\"line\":4,") && out[1].contains("line 4: type: required field is missing"), "\(out[1])")
        #expect(status.exitCode == 2)
    }

    /// Exit status: 2 when a line was invalid input, else 1 when a rule failed, else 0 (the
    /// rules' refusals are results).
    @Test func theStatusTellsInvalidInputFromFailedRulesFromRefusals() throws {
        let rules = MisbehavingRules()
        let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: rules))
        var status = Replay.Status()
        status.count(replay.output(forLine: Ev.commit(2), number: 1))
        status.count(replay.output(forLine: Ev.commit(2, "10:00"), number: 2))  // DEADLINE_PASSED
        #expect(status.exitCode == 0)
        let broken = replay.output(forLine: Ev.checkIn(2, "NO"), number: 3)
        #expect(broken.at("error", "code") == .string("RULE_VIOLATION"))
        #expect(broken["line"] == .int(3) && broken.at("error", "message")?.string?.hasPrefix("line 3: ") == true)
        status.count(broken)
        #expect(status.exitCode == 1)
        status.count(replay.output(forLine: #"{"at": "2026-03-02T12:00:00Z", "type": "check_in", "result": "MAYBE"}"#, number: 4))
        #expect(status.exitCode == 2)
        #expect(
            status
                == {
                    var s = status; s.count(replay.output(forLine: Ev.tick(2, "13:00"), number: 5)); return s
                }())
    }

    /// A line is trimmed as Foundation trims `.whitespacesAndNewlines`, Unicode spaces at its ends
    /// included, whatever is inside it.
    @Test func linesAreTrimmedAsFoundationTrimsThem() {
        let lines = [
            "", " ", "\r\n", "\t {\"a\": 1} \r\n", "x", " x ", "\u{00A0}x\u{2028}\n", " \u{3000} x y \u{0085}", "é\n",
            "\u{FEFF}{}\n", " x\u{0301} ", "a\u{00A0}b", "\u{0085}", "\u{00A0} \u{00A0}",
        ]
        for line in lines {
            #expect(Replay.trimmed(line) == line.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(line.unicodeScalars))")
        }
    }
}
