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

    /// A shard keeps its own users' events, but its end (which says the days counted) is the whole
    /// log's: the latest event of any user; and its users' places are their first lines in the log.
    @Test func aShardEndsWhereTheWholeLogEnds() throws {
        let users = (1...12).map { "u\($0)" }
        var whole = EventLog()
        var shards = (1...3).map { i in
            var log = EventLog()
            log.shard = Shard(index: i, count: 3)
            return log
        }
        for (i, user) in users.enumerated() {
            let line = #"{"at": "2026-03-0\#(1 + i % 9)T07:00:00Z", "user": "\#(user)", "type": "settings", "timezone": "UTC"}"# + "\n"
            try whole.add(line: Array(line.utf8), number: i + 1)
            for s in shards.indices { try shards[s].add(line: Array(line.utf8), number: i + 1) }
        }
        #expect(Set(shards.flatMap(\.users)) == Set(users))
        #expect(shards.allSatisfy { $0.end == whole.end && $0.logEvents == 12 }, "\(shards.map(\.end)) \(whole.end)")
        for var shard in shards {
            for logged in try shard.nextUsers(upTo: 12) { #expect(logged.position == users.firstIndex(of: logged.name)! + 1) }
        }
    }
}
