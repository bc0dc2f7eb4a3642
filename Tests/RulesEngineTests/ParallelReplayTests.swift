import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

@Suite struct ParallelReplayTests {
    /// The example files' lines, each file's users renamed apart and the files interleaved line by line.
    static func interleavedExamples() throws -> [[UInt8]] {
        let folder = RuleFixture.rulesFolder.deletingLastPathComponent().appendingPathComponent("examples/replay")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        let texts = try files.enumerated().map { f, name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "\"user\": \"", with: "\"user\": \"f\(f)-") }
        }
        var lines: [[UInt8]] = []
        for i in 0..<(texts.map(\.count).max() ?? 0) {
            for text in texts where i < text.count { lines.append(Array(text[i].utf8)) }
        }
        return lines
    }

    /// Windows of 7 lines, 1 to 4 workers: the outputs of a sequential replay, line for line; the
    /// observer sees each event once, on the worker that owns its user.
    @Test func smallWindowsAndAnyWorkersGiveTheSequentialOutputs() throws {
        let lines = try Self.interleavedExamples()
        let sequential = try ReplayHarness()
        var rest = lines.makeIterator()
        var expected: [String] = []
        let expectedStatus = sequential.replay.run(next: { rest.next() }, writeValue: { expected.append($0.description) })
        #expect(expected.count > 60 && expected.contains { $0.contains("\"ok\":false") })
        for jobs in 1...4 {
            var options = ParallelReplay.Options(jobs: jobs)
            options.windowLines = 7
            let seen = (0..<jobs).map { _ in Seen() }
            let parallel = try ParallelReplay(rules: try RuleSet.load(RuleFixture.rulesFolder.path), options: options) { w in
                { applied in seen[w].events.append((applied.number, applied.event.user, applied.ok)) }
            }
            var rest = lines.makeIterator()
            var got: [String] = []
            var windows = 0
            let status = parallel.run(next: { rest.next() }, write: { got.append($0.text) }, windowEnd: { windows += 1 })
            #expect(got == expected, "\(jobs) jobs")
            #expect(status == expectedStatus)
            #expect(windows == (lines.count + 6) / 7)
            for (w, worker) in seen.enumerated() {
                #expect(worker.events.allSatisfy { ParallelReplay.owner(of: $0.user, workers: jobs) == w })
                #expect(worker.events.map(\.number) == worker.events.map(\.number).sorted())
            }
            #expect(seen.map(\.events.count).reduce(0, +) == expected.filter { $0.contains("\"user\":") }.count)
        }
    }

    /// Without the state: the outputs of a sequential replay without it (`Replay.output(forLine:number:state:)`).
    @Test func withoutTheStateTheOutputsHaveNone() throws {
        let lines = try Self.interleavedExamples()
        let sequential = try ReplayHarness()
        var expected: [String] = []
        for (i, raw) in lines.enumerated() {
            if case .event(let event) = Replay.line(raw, number: i + 1) {
                expected.append(sequential.replay.output(for: event, number: i + 1, state: false).description)
            } else if let out = sequential.replay.output(forRawLine: raw, number: i + 1) {
                expected.append(out.description)
            }
        }
        let parallel = try ParallelReplay(
            rules: try RuleSet.load(RuleFixture.rulesFolder.path), options: ParallelReplay.Options(jobs: 2, state: false))
        var rest = lines.makeIterator()
        var got: [String] = []
        parallel.run(next: { rest.next() }, write: { got.append($0.text) })
        #expect(got == expected)
        #expect(!got.contains { $0.contains("\"state\":") })
    }

    /// Reminder times drawn from `math.random` (loaded without the proofs, which refuse them):
    /// each user draws from its own stream, so any number of workers gives the outputs of a
    /// sequential replay with the same seed, a user's lines are those of the user replayed alone,
    /// and another seed draws otherwise.
    @Test func drawsFromMathRandomAreEachUsersOwn() throws {
        let folder = try RuleFixture.folder(
            with: try RuleFixture.edited([("  local times = {}\n", "  local times = {}\n  if math.random() < 0.5 then return { \"12:00\" } end\n")]))
        defer { try? FileManager.default.removeItem(at: folder) }
        // Six users' ten days, interleaved: each day's commitments, then the check-ins.
        var lines: [[UInt8]] = []
        for day in 2...11 {
            let date = "2026-03-\(day < 10 ? "0" : "")\(day)"
            for u in 1...6 {
                if day == 2 { lines.append(Array(#"{"at": "\#(date)T07:00:00Z", "user": "u\#(u)", "type": "settings", "timezone": "UTC"}"#.utf8)) }
                lines.append(Array(#"{"at": "\#(date)T08:00:00Z", "user": "u\#(u)", "type": "commitment", "text": "x"}"#.utf8))
            }
            for u in 1...6 {
                let result = (day + u) % 3 == 0 ? "NO" : "YES"
                lines.append(Array(#"{"at": "\#(date)T18:00:00Z", "user": "u\#(u)", "type": "check_in", "result": "\#(result)"}"#.utf8))
            }
        }
        func sequential(_ lines: [[UInt8]], seed: UInt64) throws -> [String] {
            let rules = try RuleSet.load(folder.path, proving: false)
            let replay = Replay(engine: Engine(store: try Store.inMemory(), rules: rules), draws: RuleDraws(seed: seed))
            var rest = lines.makeIterator()
            var out: [String] = []
            replay.run(next: { rest.next() }, writeValue: { out.append($0.description) })
            return out
        }
        let expected = try sequential(lines, seed: 7)
        #expect(expected.contains { $0.contains(#"["12:00"]"#) } && expected.contains { !$0.contains(#"["12:00"]"#) })
        #expect(try sequential(lines, seed: 8) != expected)
        for jobs in 1...3 {
            var options = ParallelReplay.Options(jobs: jobs)
            options.windowLines = 5
            options.seed = 7
            let parallel = try ParallelReplay(rules: try RuleSet.load(folder.path, proving: false), options: options)
            var rest = lines.makeIterator()
            var got: [String] = []
            parallel.run(next: { rest.next() }, write: { got.append($0.text) })
            #expect(got == expected, "\(jobs) jobs")
        }
        // One user's lines alone (renumbered by position): the same decisions as among the others.
        let alone = try sequential(lines.filter { String(decoding: $0, as: UTF8.self).contains(#""user": "u3""#) }, seed: 7)
        let among = expected.filter { $0.contains(#""user":"u3""#) }
        #expect(!alone.isEmpty)
        #expect(alone.map(Self.withoutLine) == among.map(Self.withoutLine))
    }

    /// An output line without its `"line":N,` (the input line's number).
    static func withoutLine(_ text: String) -> String {
        text.replacingOccurrences(of: #"^\{"line":\d+,"#, with: "{", options: .regularExpression)
    }

    final class Seen: @unchecked Sendable {
        var events: [(number: Int, user: String, ok: Bool)] = []
    }
}
