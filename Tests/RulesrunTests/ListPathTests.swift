import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Testing

/// One way of counting list elements, from 1: a list path taken from each output that prints one
/// (a `watch` diff, a `compare` diff, explain's knobs, a sweep's knob names), written in a
/// scenario's `expect`, addresses the element the output meant, and the scenario passes.
@Suite struct ListPathTests {
    /// `lines` as a scenario whose line `number` (from 1) expects `path` to hold `value` (JSON text).
    static func scenario(_ lines: [String], expecting path: String, _ value: String, atLine number: Int) throws -> String {
        var lines = lines
        let line = lines[number - 1]
        #expect(line.hasSuffix("}"), "\(line)")
        lines[number - 1] = String(line.dropLast()) + ", \"expect\": {\"\(path)\": \(value)}}"
        return lines.joined(separator: "\n") + "\n"
    }

    /// `rulesrun test` of `folder`'s own tests (not those of the folders it extends).
    static func test(_ folder: URL) throws -> CLI.Result {
        try CLI.run(["test", folder.path, "--no-inherit"])
    }

    /// `path: a → b` (a diff's line without its prefix) as its path and `b`.
    static func change(_ text: Substring) throws -> (path: String, b: String) {
        let colon = try #require(text.range(of: ": "))
        let arrow = try #require(text.range(of: " → ", range: colon.upperBound..<text.endIndex))
        return (String(text[..<colon.lowerBound]), String(text[arrow.upperBound...]))
    }

    @Test func aCompareDiffsPathsAddressTheElementsTheyName() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-list-paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run([
            "compare", "rules", "examples/gentle-pricing", "--runs", "1", "--economy-runs", "1", "--habit-runs", "0",
            "--population-users", "0", "--out", out.path,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        // A kind's changes are paths in the value it compares: the gate's decision, the day rollovers.
        for (kind, field, pick) in [("gate_options", "decisions.unlock_gate.", 1), ("rollover", "decisions.earned_days", 0)] {
            let block = try #require(result.stdout.components(separatedBy: "\n  \(kind): first in ").dropFirst().first, "\(result.stdout)")
            let lines = block.split(separator: "\n")
            let event = try #require(lines.first { $0.hasPrefix("    first diverging event: event ") })
            let number = try #require(Int(event.dropFirst("    first diverging event: event ".count).prefix { $0.isNumber }))
            let changes = lines.prefix { !$0.hasPrefix("  ") || $0.hasPrefix("    ") }.filter { $0.hasPrefix("      A → B  ") }
            #expect(changes.count > pick, "\(block)")
            let (path, b) = try Self.change(changes[pick].dropFirst("      A → B  ".count))
            let replay = try String(contentsOf: out.appendingPathComponent("economy-\(kind).jsonl"), encoding: .utf8)
            let dir = try CLI.folder([
                "extends": CLI.packageRoot.appendingPathComponent("examples/gentle-pricing").path,
                "tests/from-compare.jsonl": try Self.scenario(
                    replay.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init), expecting: field + path, b,
                    atLine: number),
            ])
            defer { try? FileManager.default.removeItem(at: dir) }
            let test = try Self.test(dir)
            #expect(test.status == 0 && test.stdout.contains("1 passed, 0 failed"), "\(kind) \(path): \(test.stdout)\(test.stderr)")
        }
    }

    @Test func aWatchDiffsPathAddressesTheElementItNames() throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules"), events = dir.appendingPathComponent("events.jsonl")
        let watch = try WatchProcess(["watch", rules.path, "--replay", events.path])
        try watch.waitForLine(containing: "\ncycle 1: ")
        try watch.waitForLine(containing: "watching \(rules.path)")
        let escalation = rules.appendingPathComponent("escalation.lua")
        try WatchCommandTests.save(
            CLI.edit(try String(contentsOf: escalation, encoding: .utf8), [WatchCommandTests.knob]), to: escalation)
        let second = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(try watch.stop(SIGINT) == 0)
        // The YES of line 5 no longer leaves tier 1: its day's decision shows it, in a list.
        let diff = try #require(second.split(separator: "\n").first { $0.hasPrefix("  line 5: decisions.days[") }, "\(second)")
        let (path, b) = try Self.change(diff.dropFirst("  line 5: ".count))
        let tests = rules.appendingPathComponent("tests")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try Self.scenario(WatchCommandTests.events.split(separator: "\n").map(String.init), expecting: path, b, atLine: 5)
            .write(to: tests.appendingPathComponent("from-watch.jsonl"), atomically: true, encoding: .utf8)
        let test = try Self.test(rules)
        #expect(test.status == 0 && test.stdout.contains("1 passed, 0 failed"), "\(path): \(test.stdout)\(test.stderr)")
    }

    @Test func explainsAndSweepsKnobPathsAddressTheElementTheyName() throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules"), events = dir.appendingPathComponent("events.jsonl")
        // Line 4's commitment at tier 1 reads tier 1's reminders: the second is "close-60".
        let explained = try CLI.run(["replay", events.path, "--rules", rules.path, "--explain", "text"])
        #expect(explained.status == 0, "\(explained.stderr)")
        let knob = try #require(
            explained.stdout.components(separatedBy: ", ").compactMap { read -> String? in
                guard let end = read.range(of: " = \"close-60\"") else { return nil }
                return String(read[..<end.lowerBound].split(separator: " ").last!)
            }.first, "\(explained.stdout)")
        // A sweep takes the path and finds the same knob in the rules: its base value is that one.
        let sweep = try CLI.run(["sweep", "1d", "--users", "1", "--rules", rules.path, "--set", "\(knob)=close-90", "--metric", "YES rate"])
        #expect(sweep.status == 0, "\(sweep.stdout)\(sweep.stderr)")
        #expect(sweep.stdout.contains("base: \(knob) = close-60"), "\(sweep.stdout)")
        #expect(sweep.stdout.contains("\n  \(knob)  "), "\(sweep.stdout)")
        // A variant writing that knob moves the reminder at the same position of the day's list
        // (22:00 - 90 minutes).
        let position = try #require(knob.split(separator: "[").last?.dropLast())
        let variant = try CLI.folder([
            "extends": rules.path,
            "escalation.lua": "local M = base\nM\(knob.dropFirst("escalation".count)) = \"close-90\"\nreturn M\n",
            "tests/from-knob.jsonl": try Self.scenario(
                WatchCommandTests.events.split(separator: "\n").prefix(4).map(String.init),
                expecting: "state.today.reminders[\(position)]", "\"20:30\"", atLine: 4),
        ])
        defer { try? FileManager.default.removeItem(at: variant) }
        let test = try Self.test(variant)
        #expect(test.status == 0 && test.stdout.contains("1 passed, 0 failed"), "\(knob): \(test.stdout)\(test.stderr)")
    }
}
