import Foundation
import LuaHost
import RulesModel
import RulesStore

/// A scenario file: replay lines (docs/replay.md) that may carry `"expect": {PATH: VALUE, …}`,
/// replayed as `rulesrun replay` replays them, the users' rows in memory
/// (``Replay/inMemory(rules:ruleFolder:draws:)``). The runner takes `expect` out of each line
/// before the engine reads it, then compares each PATH of the line's output with its VALUE (a JSON
/// value, or a matcher: ``ExpectedValue``); the first mismatch fails the scenario, naming the line,
/// the path, what was expected and what was found. An event the engine refuses (`"ok": false`)
/// fails it too, unless its line expects `ok` or a field of `error`. `rulesrun replay --check`
/// judges the lines of a replay with the same code (``judge(line:output:label:number:)``).
package struct ScenarioTest {
    let url: URL
    let label: String
    let folder: String

    /// The largest scenario file read (the size of the largest rule file).
    static let maxBytes = LuaLimits.default.maxSourceBytes

    var name: String { url.deletingPathExtension().lastPathComponent }

    /// Runs the scenario against the rule set `rules` (already validated: loaded again from its
    /// snapshot), stopping before a line once `deadline` has passed; `capture` keeps what it prints
    /// and `recorder`, when given, gets the lines the rules ran.
    func run(
        rules: RuleSnapshot, capture: PrintCapture = PrintCapture(), until deadline: TestLimits.Deadline = .none,
        recorder: LineRecorder? = nil
    ) -> RuleTestResult {
        replay(rules: rules, capture: capture, until: deadline, recorder: recorder).result
    }

    /// The rule calls of the line that fails, from a second run that explains; nil when the rule
    /// set cannot be loaded.
    func explainFailure(rules: RuleSnapshot) -> FailureExplanation? {
        let trace = LuaCallTrace()
        let (result, ruleSet) = replay(rules: rules, trace: trace)
        guard let ruleSet else { return nil }
        return FailureExplanation(trace.calls, in: ruleSet, subject: "line \(result.line)", rerunPassed: result.outcome == .passed)
    }

    /// The result of a run, and the rule set it loaded (nil when it could not).
    private typealias Run = (result: RuleTestResult, ruleSet: RuleSet?)

    /// `run`; with `trace`, the host explains, and the trace holds the calls of the last line
    /// replayed (the failing one when the scenario fails). Without `capture`, what it prints is dropped.
    private func replay(
        rules: RuleSnapshot, capture: PrintCapture? = nil, until deadline: TestLimits.Deadline = .none, recorder: LineRecorder? = nil,
        trace: LuaCallTrace? = nil
    ) -> Run {
        var loaded: RuleSet?
        capture?.begin()
        let start = ContinuousClock.now
        func result(_ outcome: RuleTestResult.Outcome, _ failure: [String] = [], line: Int = 1) -> Run {
            let result = RuleTestResult(
                file: label, line: line, name: name, folder: folder, outcome: outcome, failure: failure, printed: capture?.printed ?? [],
                milliseconds: LuaTestFile.milliseconds(ContinuousClock.now - start))
            return (result, loaded)
        }
        let text: String
        do {
            let bytes = try SourceFile.read(url.path, maxBytes: Self.maxBytes)
            guard let decoded = String(validating: SourceFile.withoutByteOrderMark(bytes), as: UTF8.self) else {
                return result(.error, ["\(label): not UTF-8 text (a scenario is a replay file: JSON lines)"])
            }
            text = decoded
        } catch {
            return result(.error, ["\(label): \(error)"])
        }
        let replay: Replay
        var host: LuaHost?
        defer { if let host { recorder?.collect(host) } }
        do {
            let ruleSet = try rules.load()
            ruleSet.host.printHandler = { capture?.append($0) }
            if let trace { try ruleSet.host.explain(trace) }
            loaded = ruleSet
            host = ruleSet.host
            recorder?.start(ruleSet.host)
            replay = Replay.inMemory(rules: ruleSet, ruleFolder: rules.path)
        } catch {
            return result(.error, ["\(label): cannot start the replay: \(error)"])
        }
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return replay.inMemory { () -> Run in
            for (index, raw) in lines.enumerated() {
                let number = index + 1
                let line = Replay.trimmed(String(decoding: raw, as: UTF8.self))
                if line.isEmpty || line.hasPrefix("#") { continue }
                if deadline.hasPassed {
                    let stopped = "\(label):\(number): stopped before this line: \(deadline.limit) was reached"
                    return result(.error, [stopped], line: number)
                }
                let expectations: [Expectation]
                let event: String
                do throws(Invalid) {
                    (event, expectations) = try Self.split(line)
                } catch {
                    return result(.error, ["\(label):\(number): \(error.message)"], line: number)
                }
                _ = trace?.removeAll()
                // The user's state (every streak, computed by the rules) only for a line that expects something of it.
                let state = expectations.contains { LuaPath.isWithin($0.path, "state") }
                let out = replay.output(forLine: event, number: number, state: state)
                if let failure = Self.failure(of: out, expecting: expectations, at: "\(label):\(number)") {
                    return result(.failed, [failure], line: number)
                }
            }
            return result(.passed)
        }
    }

    /// What is wrong with `out`, the output of a line that expects `expectations`: the first of
    /// them it does not meet, or a refusal the line does not expect (one that expects `ok` or a
    /// field of `error` expects it); nil when nothing is. `place` names the line (`tests/days.jsonl:9`).
    static func failure(of out: JSONValue, expecting expectations: [Expectation], at place: String) -> String? {
        for expectation in expectations {
            let found = value(at: expectation.keys, in: out)
            guard expectation.expected.matches(found) else {
                return
                    "\(place): \(expectation.path): expected \(expectation.value), found \(found.map(\.description) ?? "nothing (no such field)")"
            }
        }
        let expectsRefusal = expectations.contains { $0.path == "ok" || LuaPath.isWithin($0.path, "error") }
        guard case .bool(false)? = out["ok"], !expectsRefusal else { return nil }
        let code = out["error"]?["code"].map(\.description) ?? "?"
        let message = out["error"]?["message"].map(\.description) ?? ""
        return "\(place): the event was refused (\(code): \(message)); a line that expects it says so, \"expect\": {\"ok\": false}"
    }

    /// How one line of a scenario went.
    package enum Verdict: Equatable, Sendable {
        /// It meets every expectation it has (or has none), and was not refused unless it expects that.
        case met
        /// What it does not meet, as `rulesrun test` says it (`FILE:LINE: PATH: expected …, found …`).
        case failed(String)
        /// Its `expect` cannot be read (`FILE:LINE: expect: …`): an ERROR under `rulesrun test`.
        case invalid(String)
    }

    /// Judges line `number` of the file `label` (`line`: its text as read, `expect` included) by
    /// `out`, the output of its event with the user's state (`Replay.output(forRawLine:number:)`),
    /// as a scenario judges its lines.
    package static func judge(line: String, output out: JSONValue, label: String, number: Int) -> Verdict {
        var text = Replay.trimmed(line)
        if text.hasPrefix("\u{FEFF}") { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }  // a byte-order mark
        let expectations: [Expectation]
        do {
            expectations = try split(text).expectations
        } catch {
            return .invalid("\(label):\(number): \(error.message)")
        }
        return failure(of: out, expecting: expectations, at: "\(label):\(number)").map(Verdict.failed) ?? .met
    }

    struct Invalid: Error { let message: String }

    /// One entry of a line's `expect`: the path as written, its keys, the value as written and what
    /// it asks for (a value or a matcher, see ``ExpectedValue``).
    typealias Expectation = (path: String, keys: [LuaValue], value: JSONValue, expected: ExpectedValue)

    /// The line without its `expect`, and what `expect` asks for. A line that is not a JSON object
    /// is left to the engine, which says what is wrong with it.
    static func split(_ line: String) throws(Invalid) -> (event: String, expectations: [Expectation]) {
        guard case .object(let members)? = try? JSONLine.parseOrdered(line), let expect = members.first(where: { $0.0 == "expect" })
        else { return (line, []) }
        guard case .object(let entries) = expect.1 else {
            throw Invalid(message: "expect: expected an object from paths to values ({\"state.current_tier\": 1}), found \(expect.1)")
        }
        let expectations = try entries.map { path, value throws(Invalid) in
            guard !path.isEmpty, let keys = LuaPath.keys(of: path), !keys.isEmpty,
                keys.allSatisfy({ $0.integerValue != nil || !($0.stringValue ?? "").isEmpty })
            else {
                throw Invalid(
                    message:
                        "expect: '\(SourceFile.excerpt(path))' is not a path (expected fields separated by dots, list elements as [1]: decisions.reminders[1])"
                )
            }
            return (path: path, keys: keys, value: value, expected: try ExpectedValue(value, path: path))
        }
        return (JSONValue.object(members.filter { $0.0 != "expect" }).description, expectations)
    }

    /// The value at `keys` in an output line: a string key in an object, an index (from 1) in a list.
    static func value(at keys: [LuaValue], in value: JSONValue) -> JSONValue? {
        var current = value
        for key in keys {
            switch (current, key) {
            case (.object, .string(let name)):
                guard let next = current[name] else { return nil }
                current = next
            case (.array(let elements), .integer(let i)):
                guard i >= 1, i <= elements.count else { return nil }
                current = elements[Int(i - 1)]
            default: return nil
            }
        }
        return current
    }
}
