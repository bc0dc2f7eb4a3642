import Foundation
import RulesEngine
import RulesModel
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

    final class Seen: @unchecked Sendable {
        var events: [(number: Int, user: String, ok: Bool)] = []
    }
}
