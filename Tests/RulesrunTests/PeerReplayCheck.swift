import Foundation
import Testing

/// Replays a peer-test file of an example rule folder through the real CLI and checks each
/// `# expect {…}` comment against the state printed for the event above it: `task` (default "h"),
/// `current` (habit_streaks), `score` (habit_scores, within `tolerance`, default 1e-6),
/// `score_above`, `best` (habit_best_streaks, as a prefix: longest first) and `best_count`.
/// Every event of the file must be accepted.
enum PeerReplayCheck {
    static func check(_ file: String, rules: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent(file), encoding: .utf8)
        let run = try CLI.run(["replay", file, "--rules", rules])
        #expect(run.status == 0, "\(file): \(run.stderr)", sourceLocation: sourceLocation)
        let outputs = try run.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        var event = -1, expectations = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let at = "\(file):\(number + 1)"
            if line.hasPrefix("# expect ") {
                expectations += 1
                let expect = try #require(JSONSerialization.jsonObject(with: Data(line.dropFirst(9).utf8)) as? [String: Any])
                let output = try #require(outputs.indices.contains(event) ? outputs[event] : nil, "\(at): no output")
                let state = output["state"] as? [String: Any] ?? [:]
                let task = expect["task"] as? String ?? "h"
                let score = (state["habit_scores"] as? [String: Any])?[task] as? Double
                if let want = expect["score"] as? Double {
                    let tolerance = expect["tolerance"] as? Double ?? 1e-6
                    #expect(
                        score.map { abs($0 - want) <= tolerance } == true, "\(at): score \(String(describing: score)), expected \(want)",
                        sourceLocation: sourceLocation)
                }
                if let floor = expect["score_above"] as? Double {
                    #expect(
                        score.map { $0 > floor } == true, "\(at): score \(String(describing: score)), expected above \(floor)",
                        sourceLocation: sourceLocation)
                }
                if let want = expect["current"] as? Int {
                    let current = (state["habit_streaks"] as? [String: Any])?[task] as? Int
                    #expect(
                        current == want, "\(at): current streak \(String(describing: current)), expected \(want)",
                        sourceLocation: sourceLocation)
                }
                let best = ((state["habit_best_streaks"] as? [String: Any])?[task] as? [[String: Any]] ?? []).map {
                    "\($0["first"] ?? "")…\($0["last"] ?? "") \($0["length"] ?? "")"
                }
                if let want = expect["best"] as? [[String: Any]] {
                    let wanted = want.map { "\($0["first"] ?? "")…\($0["last"] ?? "") \($0["length"] ?? "")" }
                    #expect(Array(best.prefix(wanted.count)) == wanted, "\(at): best \(best)", sourceLocation: sourceLocation)
                }
                if let count = expect["best_count"] as? Int {
                    #expect(best.count == count, "\(at): best \(best)", sourceLocation: sourceLocation)
                }
            } else if !line.isEmpty, !line.hasPrefix("#") {
                event += 1
                let ok = outputs.indices.contains(event) ? outputs[event]["ok"] as? Bool : nil
                #expect(
                    ok == true, "\(at): \(outputs.indices.contains(event) ? "\(outputs[event])" : "no output")",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(event + 1 == outputs.count, "\(file): \(outputs.count) outputs for \(event + 1) events", sourceLocation: sourceLocation)
        #expect(expectations > 0, "\(file) checks nothing", sourceLocation: sourceLocation)
    }
}
