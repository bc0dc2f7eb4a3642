import RulesSim
import Testing

/// The log `analyze` reads, line by line as `replay` reads it.
@Suite struct EventLogTests {
    /// A byte-order mark before line 1, a CRLF ending, blank lines and comments are no events and
    /// no problems; a line that is not one is counted with its message.
    @Test func linesAreReadAsReplayReadsThem() throws {
        var log = EventLog()
        let lines = [
            "\u{FEFF}{\"at\": \"2026-03-02T07:00:00Z\", \"user\": \"a\", \"type\": \"settings\", \"timezone\": \"UTC\"}\r\n",
            "   \n", "# a comment\n", "{\"at\": \"2026-03-02T08:00:00Z\", \"user\": \"a\", \"type\": \"tick\"}\n", "{\"type\": 3}\n",
        ]
        for (i, line) in lines.enumerated() { try log.add(line: Array(line.utf8), number: i + 1) }
        #expect(log.users == ["a"])
        #expect(log.events["a"]?.count == 2)
        #expect(log.problems.lines.count == 1)
        #expect(log.problems.lines.first?.contains("line 5") == true, "\(log.problems.lines)")
    }
}
