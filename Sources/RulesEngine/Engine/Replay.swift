import Foundation
import RulesStore

/// Replays a file of events (one JSON object per line) through an engine, one output line each.
///
/// Blank lines and lines starting with `#` are skipped. A malformed line or a refused event gives
/// `{"ok": false, "error": {"code": …, "message": …}}` and changes nothing; the replay goes on.
public struct Replay {
    public let engine: Engine

    public init(engine: Engine) { self.engine = engine }

    /// The output line for each input line that is not blank or a comment.
    public func run(_ text: String, write: (String) -> Void) {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            write(output(forLine: line, number: index + 1).description)
        }
    }

    /// The output of one line.
    public func output(forLine line: String, number: Int) -> JSONOut {
        let event: EngineEvent
        do {
            event = try EngineEvent.parse(line)
        } catch {
            return .object([("line", .int(number)), ("ok", .bool(false)),
                             ("error", .object([("code", .string(error.code.rawValue)), ("message", .string("line \(number): \(error.message)"))]))])
        }
        var fields: [(String, JSONOut)] = [("at", .string(event.at.description)), ("user", .string(event.user)),
                                           ("type", .string(event.kind.typeName))]
        do {
            let outcome = try engine.apply(event)
            fields += [("ok", .bool(true)), ("decisions", outcome.decisions), ("state", outcome.state)]
        } catch {
            fields += [("ok", .bool(false)), ("error", .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))]))]
        }
        return .object(fields)
    }
}
