import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Runs replay lines through an engine on an in-memory store and returns the output objects.
struct ReplayHarness {
    let engine: Engine
    let replay: Replay

    init(rules: String = "rules", store: Store? = nil) throws {
        let folder = RuleFixture.rulesFolder.deletingLastPathComponent().appendingPathComponent(rules).path
        engine = try Engine(store: store ?? Store.inMemory(), ruleFolder: folder)
        replay = Replay(engine: engine)
    }

    /// A harness on rules given as an object (misbehaving rules, the native reference).
    init(rules: any PolicyRules) throws {
        engine = Engine(store: try Store.inMemory(), rules: rules)
        replay = Replay(engine: engine)
    }

    /// Outputs for `lines` (events in time order); every line is expected to be accepted unless
    /// `allowRefusals`.
    @discardableResult
    func run(_ lines: [String], allowRefusals: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) -> [JSONValue] {
        lines.enumerated().map { i, line in
            let out = replay.output(forLine: line, number: i + 1)
            if !allowRefusals, out["ok"] != .bool(true) {
                Issue.record("line \(i + 1) was refused: \(out)", sourceLocation: sourceLocation)
            }
            return out
        }
    }

    /// The output of one line, accepted or not.
    func one(_ line: String) -> JSONValue { replay.output(forLine: line, number: 1) }
}

/// `{"at": "2026-03-02T09:30:00+00:00", …}` builders for readable tests (UTC by default).
enum Ev {
    static func at(_ day: Int, _ time: String, _ fields: String, user: String = "u1", month: Int = 3) -> String {
        let d = day < 10 ? "0\(day)" : "\(day)"
        let m = month < 10 ? "0\(month)" : "\(month)"
        return "{\"at\": \"2026-\(m)-\(d)T\(time):00Z\", \"user\": \"\(user)\", \(fields)}"
    }
    static func commit(_ day: Int, _ time: String = "08:00", month: Int = 3) -> String {
        at(day, time, "\"type\": \"commitment\", \"text\": \"Day \(day)\"", month: month)
    }
    static func checkIn(_ day: Int, _ result: String, _ time: String = "12:00", month: Int = 3) -> String {
        at(day, time, "\"type\": \"check_in\", \"result\": \"\(result)\"", month: month)
    }
    static func tick(_ day: Int, _ time: String, month: Int = 3) -> String { at(day, time, "\"type\": \"tick\"", month: month) }
    /// A committed day checked in with `result` (YES/NO), or left to be MISSED at the window close.
    static func day(_ day: Int, _ result: String, month: Int = 3) -> [String] {
        result == "MISSED"
            ? [commit(day, month: month), tick(day, "23:00", month: month)]
            : [commit(day, month: month), checkIn(day, result, month: month)]
    }
}

extension JSONValue {
    var int: Int? { if case .int(let i) = self { i } else { nil } }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var strings: [String]? { array?.compactMap(\.string) }
    /// The value at a path of keys.
    func at(_ keys: String...) -> JSONValue? {
        var value: JSONValue? = self
        for key in keys { value = value?[key] }
        return value
    }
}
