import Foundation
import Testing

/// `rulesrun watch --replay FILE` watches FILE too: a save of it starts a cycle, whose replay of the
/// file as saved is the reference for the next cycles (its new lines are not blamed on the next
/// rule edit). A real process and a real save, with inotify and with `--poll`.
@Suite(.timeLimit(.minutes(5))) struct WatchReplayFileTests {
    /// Another user's day, which the knob of `WatchCommandTests` does not change: a NO from tier 0.
    static let appended = """
        {"at": "2026-03-04T08:00:00+01:00", "user": "u2", "type": "commitment", "text": "Read"}
        {"at": "2026-03-04T20:00:00+01:00", "user": "u2", "type": "check_in", "result": "NO"}

        """

    @Test(arguments: [[], ["--poll"]]) func aSaveOfTheReplayFileStartsACycleWhoseReplayIsTheNewReference(mode: [String]) throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let events = dir.appendingPathComponent("events.jsonl")
        let watch = try WatchProcess(["watch", rules.path, "--no-tests", "--replay", events.path] + mode)
        let first = try watch.waitForLine(containing: "\ncycle 1: ")
        #expect(first.contains("replay \(events.path): 5 events (0 refused); the reference for the next cycles\n"))
        try watch.waitForLine(containing: "watching \(rules.path)")

        // Two lines appended to the replay file: a cycle, for it, which takes it as it is now.
        try WatchCommandTests.save(WatchCommandTests.events + Self.appended, to: events)
        let second = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(second.contains("cycle 2: \(events.path) (--replay) changed\n"), "\(second)")
        #expect(
            second.contains(
                "replay \(events.path): 7 events (0 refused); the file changed since the last good version: the reference for the next cycles\n"
            ), "\(second)")
        #expect(!second.contains("  line "))
        #expect(second.contains("cycle 2: good, "))
        try watch.waitForLine(containing: "watching")

        // A rule edit then shows what it changes, and only that: not the lines added before it.
        let escalation = rules.appendingPathComponent("escalation.lua")
        try WatchCommandTests.save(CLI.edit(try String(contentsOf: escalation, encoding: .utf8), [WatchCommandTests.knob]), to: escalation)
        let third = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(third.contains("cycle 3: \(escalation.path) changed\n"), "\(third)")
        #expect(third.contains("replay \(events.path): 7 events (0 refused); 1 line differs from the last good version\n"), "\(third)")
        #expect(third.contains("  line 5: state.current_tier: 0 → 1"))
        #expect(!third.contains("  line 6:") && !third.contains("  line 7:"))
        try watch.waitForLine(containing: "watching")
        #expect(try watch.stop() == 0)
        #expect(watch.stdout.hasSuffix("watch: stopped by SIGINT after 3 cycles\n"))
    }

    /// Another file of the replay file's folder (which holds no rule file) starts no cycle: only
    /// the replay file is watched there, whatever its name.
    @Test func anotherFileBesideTheReplayFileStartsNoCycle() throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let events = dir.appendingPathComponent("week.events")
        try WatchCommandTests.save(WatchCommandTests.events, to: events)
        let watch = try WatchProcess(["watch", rules.path, "--no-tests", "--replay", events.path])
        try watch.waitForLine(containing: "\ncycle 1: good")
        try watch.waitForLine(containing: "watching")
        // A .jsonl beside it (a rule folder's name) is not watched; the replay file, not a .jsonl, is.
        try WatchCommandTests.save(WatchCommandTests.events, to: dir.appendingPathComponent("other.jsonl"))
        try WatchCommandTests.save(WatchCommandTests.events + Self.appended, to: events)
        let second = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(second.contains("cycle 2: \(events.path) (--replay) changed\n"), "\(second)")
        try watch.waitForLine(containing: "watching")
        #expect(try watch.stop() == 0)
        #expect(!watch.stdout.contains("other.jsonl"))
        #expect(watch.stdout.hasSuffix("watch: stopped by SIGINT after 2 cycles\n"))
    }
}
