import Foundation
import RulesModel
import RulesStore

/// Replays a file of events (one JSON object per line) through an engine, one output line each.
///
/// Lines end with `\n` or `\r\n`. Blank lines and lines starting with `#` are skipped. Every
/// output starts with `line`, the number of the input line it answers: an applied event gives
/// `{"line": …, "at": …, "user": …, "type": …, "ok": true, "decisions": {…}, "state": {…}}`; a
/// refused one `"ok": false, "error": {"code": …, "message": "line …: …"}` and then the user's
/// `state`, unchanged (when the user exists); a malformed line only `line`, `ok` and `error`. A
/// refused line changes nothing; the replay goes on.
package struct Replay {
    package let engine: Engine
    /// Each user's own stream of `math.random` (`replay`'s), or nil: one stream for the whole file.
    package let draws: RuleDraws?

    package init(engine: Engine, draws: RuleDraws? = nil) {
        self.engine = engine
        self.draws = draws
    }

    /// The output line for each input line that is not blank or a comment; how the replay went.
    @discardableResult
    package func run(_ text: String, write: (String) -> Void) -> Status {
        // Split on the byte "\n": as Characters, "\r\n" is one that is not "\n".
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).makeIterator()
        return run(next: { lines.next().map { Array($0) } }, write: write)
    }

    /// Replays the lines `next` gives (each as read, its "\r" included, its bytes not yet taken
    /// for UTF-8; nil at the end), writing the output of each before reading the next; how the
    /// replay went.
    @discardableResult
    package func run<Failure: Error>(next: () throws(Failure) -> [UInt8]?, write: (String) -> Void) throws(Failure) -> Status {
        try run(next: next, writeValue: { write($0.description) })
    }

    /// The same, giving each output as a value (to add to it before it is written).
    @discardableResult
    package func run<Failure: Error>(next: () throws(Failure) -> [UInt8]?, writeValue: (JSONValue) -> Void) throws(Failure) -> Status {
        var status = Status()
        var number = 0
        while let raw = try next() {
            number += 1
            if let out = output(forRawLine: raw, number: number) {
                status.count(out)
                writeValue(out)
            }
        }
        return status
    }

    /// What an input line is, before any event is applied: a blank line or a comment (no output),
    /// a line that is not an event (its output, the error), or an event with its line's number.
    package enum Line {
        case skipped
        case malformed(JSONValue)
        case event(EngineEvent)
    }

    /// The output of line `number` as read (with its line ending, if any), or nil for a blank line
    /// or a comment. A line that is not UTF-8 text is `INVALID_EVENT` naming the field whose string
    /// is not (never decoded with U+FFFD in place of its bytes: two user names differing only in
    /// such bytes would be one user); a comment may hold any bytes.
    package func output(forRawLine raw: [UInt8], number: Int) -> JSONValue? {
        output(for: Self.line(raw, number: number), number: number)
    }

    /// The output of line `number` as read (with its line ending, if any), or nil for a blank line
    /// or a comment.
    package func output(forRawLine raw: String, number: Int) -> JSONValue? {
        output(for: Self.line(raw, number: number), number: number)
    }

    /// The output of a line read (`line(_:number:)`), nil for a blank line or a comment.
    package func output(for line: Line, number: Int, state: Bool = true) -> JSONValue? {
        switch line {
        case .skipped: nil
        case .malformed(let out): out
        case .event(let event): output(for: event, number: number, state: state)
        }
    }

    /// Line `number` as read (with its line ending, if any): see ``output(forRawLine:number:)-([UInt8],_)``.
    package static func line(_ raw: [UInt8], number: Int) -> Line { line(event(raw, number: number), number: number) }

    /// Line `number` as read (with its line ending, if any), as text.
    package static func line(_ raw: String, number: Int) -> Line { line(event(raw, number: number), number: number) }

    private static func line(_ read: Result<EngineEvent, EngineError>?, number: Int) -> Line {
        switch read {
        case nil: .skipped
        case .success(let event): .event(event)
        case .failure(let error): .malformed(.object([("line", .int(number))] + failure(error, line: number)))
        }
    }

    /// Line `number` as read (with its line ending, if any): nil for a blank line or a comment (a
    /// byte-order mark before line 1 is none of its text), else its event or why it is none.
    package static func event(_ raw: [UInt8], number: Int) -> Result<EngineEvent, EngineError>? {
        if let text = String(validating: raw, as: UTF8.self) { return event(text, number: number) }
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains($0) }
        var line = raw.drop(while: isSpace)
        if number == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3).drop(while: isSpace) }  // a byte-order mark
        if line.first == UInt8(ascii: "#") { return nil }
        do {
            _ = try EngineEvent.parse(utf8: Array(line))
            return .failure(EngineError(.invalidEvent, "expected UTF-8 text"))  // (the parser refuses any byte that is not)
        } catch {
            return .failure(error)
        }
    }

    /// Line `number` as read (with its line ending, if any), as text: see ``event(_:number:)-([UInt8],_)``.
    package static func event(_ raw: String, number: Int) -> Result<EngineEvent, EngineError>? {
        var line = trimmed(raw)
        if number == 1, line.hasPrefix("\u{FEFF}") { line = String(line.dropFirst()).trimmingCharacters(in: .whitespaces) }  // a byte-order mark
        if line.isEmpty || line.hasPrefix("#") { return nil }
        do { return .success(try EngineEvent.parse(line)) } catch { return .failure(error) }
    }

    /// `raw` without the white space and line breaks at its ends (`.whitespacesAndNewlines`): the
    /// ASCII ones dropped as bytes, Foundation's trimming only when a Unicode one is left at an end
    /// (trimming every line through Foundation was 4 % of a replay).
    package static func trimmed(_ raw: String) -> String {
        let utf8 = raw.utf8
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        // Only ASCII bytes around: the slice starts and ends on whole scalars.
        let line = String(decoding: utf8[first...last], as: UTF8.self)
        let set = CharacterSet.whitespacesAndNewlines
        guard let head = line.unicodeScalars.first, let tail = line.unicodeScalars.last, !set.contains(head), !set.contains(tail)
        else { return raw.trimmingCharacters(in: set) }
        return line
    }

    /// One line, trimmed, not blank nor a comment: its event, or its output when it is not one.
    package static func parse(_ line: String, number: Int) -> Line {
        do {
            return .event(try EngineEvent.parse(line))
        } catch {
            return .malformed(.object([("line", .int(number))] + failure(error, line: number)))
        }
    }

    /// The output of one line. Without `state`, the line has no `state` field and the event is
    /// applied as a simulation applies it (`Engine.applySummarized`): the user's state, every
    /// streak of it computed by the rules, is neither computed nor checked (a scenario line that
    /// expects nothing of it).
    package func output(forLine line: String, number: Int, state: Bool = true) -> JSONValue {
        switch Self.parse(line, number: number) {
        case .event(let event): output(for: event, number: number, state: state)
        case .malformed(let out): out
        case .skipped: preconditionFailure("parse gives no skipped line")
        }
    }

    /// The output of line `number`'s event, applied (see ``output(forLine:number:state:)``).
    package func output(for event: EngineEvent, number: Int, state: Bool = true) -> JSONValue {
        func failure(_ error: EngineError) -> [(String, JSONValue)] { Self.failure(error, line: number) }
        let fields: [(String, JSONValue)] = [
            ("line", .int(number)), ("at", .string(event.at.description)), ("user", .string(event.user)),
            ("type", .string(event.kind.typeName)),
        ]
        if let draws, let host = (engine.rules as? RuleSet)?.host {
            // Only a Lua error in math.randomseed (out of memory) fails, and then the event's own call does.
            try? draws.draw(for: event.user, in: host)
        }
        do {
            guard state else {
                return .object(fields + [("ok", .bool(true)), ("decisions", try engine.applySummarized(event).decisions.json)])
            }
            let outcome = try engine.apply(event)
            return .object(fields + [("ok", .bool(true)), ("decisions", outcome.decisions), ("state", outcome.state)])
        } catch {
            // The state the refused event left as it was, so that a caller need not look back for it.
            let unchanged = state ? engine.state(ofUser: event.user).map { [("state", $0)] } ?? [] : []
            return .object(fields + failure(error) + unchanged)
        }
    }

    /// What a rule's `print` shows on standard error during a replay, at the line that printed it
    /// (the decisions stay alone on standard output): `streaks.lua:4: print: bonus for	3`.
    package static func printLine(_ text: String, at position: (file: String, line: Int)?) -> String {
        (position.map { "\($0.file):\($0.line): " } ?? "") + "print: " + text
    }

    /// The state an output line's event left, nil for a refused line or a malformed one (a refused
    /// line shows the state as it stayed, which the event did not make).
    package static func appliedState(of out: JSONValue) -> JSONValue? {
        out["ok"] == .bool(true) ? out["state"] : nil
    }

    /// The fields of a refused line's output.
    static func failure(_ error: EngineError, line number: Int) -> [(String, JSONValue)] {
        [
            ("ok", .bool(false)),
            ("error", .object([("code", .string(error.code.rawValue)), ("message", .string("line \(number): \(error.message)"))])),
        ]
    }

    /// How a replay went, as its exit status: 2 when a line was invalid input (`INVALID_EVENT`:
    /// malformed JSON, an unknown type or field, a value out of its range; `INVALID_SETTINGS`),
    /// else 1 when a rule failed (`RULE_ERROR`, `RULE_VIOLATION`) or the store refused a change
    /// (`STORE_ERROR`), else 0. A refusal by the apps' rules (`DEADLINE_PASSED`,
    /// `ALREADY_CHECKED_IN`, `OUT_OF_ORDER`, …) is a result, not an error.
    package struct Status: Sendable, Equatable {
        /// Lines that were invalid input.
        package private(set) var invalid = 0
        /// Events on which a rule or the store failed.
        package private(set) var failed = 0

        package init() {}

        package var exitCode: Int32 { invalid > 0 ? 2 : failed > 0 ? 1 : 0 }

        /// Counts one output line.
        package mutating func count(_ out: JSONValue) {
            guard case .string(let code)? = out["error"]?["code"] else { return }
            switch EngineError.Code(code) {
            case .invalidEvent, .invalidSettings: invalid += 1
            case .ruleError, .ruleViolation, .storeError: failed += 1
            default: break
            }
        }
    }
}
