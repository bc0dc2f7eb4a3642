import LuaHost
import RulesModel

/// A strict JSON parser for one line of a replay file (or a whole JSON document: a line feed is
/// white space), producing `JSONValue`s (objects keep their keys' order; integers are kept apart
/// from floats), which the event declarations read (`EngineEvent.parse`).
/// It reads bytes, never text already decoded, and refuses what a lenient reader would silently
/// change: a string that is not UTF-8 (two names differing only in such bytes would become the
/// same name), a key that appears twice in an object (one of the two values would be lost).
/// Each error names the field it is in.
package enum JSONLine {
    /// Whether `byte` is JSON's white space (space, tab, line feed, carriage return).
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    package struct SyntaxError: Error, CustomStringConvertible, Sendable {
        /// Where: the line (1 for a document on one line) and column (in bytes, from 1).
        package let line: Int
        package let column: Int
        /// The field the error is in (`user`, `windows[1].start`), nil outside any field.
        package let field: String?
        package let message: String
        package let kind: Kind

        package enum Kind: Sendable, Equatable {
            /// Not JSON.
            case syntax
            /// A string (a value or a key) that is not UTF-8 text.
            case notUTF8
            /// A key that appears twice in one object (`field` is the key's path).
            case duplicateKey
            /// A whole number (no fraction, no exponent) beyond a 64-bit integer's range; `found`
            /// is the number as written.
            case integerOutOfRange(found: String)
        }

        /// `field: message (column …)`, for an error that is about a field rather than the syntax.
        package var fieldMessage: String {
            let place = line == 1 ? "column \(column)" : "line \(line), column \(column)"
            return field.map { "\($0): \(message) (\(place))" } ?? "\(message) (\(place))"
        }

        package var description: String {
            let place = line == 1 ? "column \(column)" : "line \(line), column \(column)"
            return field.map { "\(place): \($0): \(message)" } ?? "\(place): \(message)"
        }
    }

    /// The value of `text`, refusing null in a list (an event's lists hold values).
    package static func parse(_ text: String, firstIndex: Int = 1) throws(SyntaxError) -> JSONValue {
        try parse(utf8: Array(text.utf8), firstIndex: firstIndex)
    }

    /// The value of `bytes`, refusing null in a list; list elements are numbered from `firstIndex`
    /// in the fields errors name (1, as events and rule files number them; 0 for a document whose
    /// messages count from 0).
    package static func parse(utf8 bytes: [UInt8], firstIndex: Int = 1) throws(SyntaxError) -> JSONValue {
        try parse(utf8: bytes, firstIndex: firstIndex, nullInList: false)
    }

    /// The value of `text`, keeping the nulls in lists too, for showing a line as an object rather
    /// than as its text.
    package static func parseOrdered(_ text: String) throws(SyntaxError) -> JSONValue {
        try parse(utf8: Array(text.utf8), firstIndex: 1, nullInList: true)
    }

    private static func parse(utf8 bytes: [UInt8], firstIndex: Int, nullInList: Bool) throws(SyntaxError) -> JSONValue {
        var parser = Parser(bytes: bytes, firstIndex: firstIndex, nullInList: nullInList)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        let firstIndex: Int
        /// Whether null is a value of a list (else an error).
        let nullInList: Bool
        var i = 0
        /// The field being read: its keys and list indices, rendered only for an error.
        var path: [PathPart] = []

        enum PathPart {
            case key(String)
            case index(Int)
        }

        init(bytes: [UInt8], firstIndex: Int, nullInList: Bool) {
            self.bytes = bytes
            self.firstIndex = firstIndex
            self.nullInList = nullInList
        }

        /// The field being read as messages name it (`windows[1].start`), nil outside any.
        var field: String? {
            guard !path.isEmpty else { return nil }
            var out = ""
            for part in path {
                switch part {
                case .key(let key): LuaPath.append(key, to: &out)
                case .index(let i): out += "[\(i)]"
                }
            }
            return out
        }

        func error(_ message: String, at offset: Int? = nil, kind: SyntaxError.Kind = .syntax) -> SyntaxError {
            let offset = offset ?? i
            let lineStart = bytes[..<min(offset, bytes.count)].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let line = 1 + bytes[..<lineStart].count { $0 == 0x0A }
            return SyntaxError(line: line, column: offset - lineStart + 1, field: field, message: message, kind: kind)
        }

        mutating func skipSpace() {
            // A switch, not an array's contains: a debug build made the array at each byte.
            while i < bytes.count, JSONLine.isSpace(bytes[i]) { i += 1 }
        }

        mutating func expect(_ c: UInt8) throws(SyntaxError) {
            skipSpace()
            guard i < bytes.count, bytes[i] == c else { throw error("expected '\(Character(UnicodeScalar(c)))'") }
            i += 1
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < 32 else { throw error("nested too deeply") }
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of line") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var object: [(String, JSONValue)] = []
                // The keys seen, once the object is large enough for a set to be quicker than a look along it.
                var keys: Set<String>?
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(object) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a field name in double quotes") }
                    let keyOffset = i
                    let key = try string(isKey: true)
                    path.append(.key(key))
                    // A key seen before, even with null: one of its values would be lost.
                    let seen = keys.map { $0.contains(key) } ?? object.contains { $0.0 == key }
                    guard !seen else {
                        throw error("appears twice in one object", at: keyOffset, kind: .duplicateKey)
                    }
                    try expect(UInt8(ascii: ":"))
                    let element = try value(depth: depth + 1)
                    path.removeLast()
                    object.append((key, element))
                    if keys != nil {
                        keys!.insert(key)
                    } else if object.count == 16 {
                        keys = Set(object.map(\.0))
                    }
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of line in an object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(object) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [JSONValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    path.append(.index(items.count + firstIndex))
                    let item = try value(depth: depth + 1)
                    if !nullInList, case .null = item { throw error("null is not allowed in a list") }
                    path.removeLast()
                    items.append(item)
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of line in a list") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return try number()
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw error("unexpected text") }
            i += w.count
        }

        mutating func string(isKey: Bool = false) throws(SyntaxError) -> String {
            let start = i
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    guard let s = String(validating: out, as: UTF8.self) else {
                        let shown = "\"\(VisibleText.decoding(out, limit: 40))\""
                        throw error(
                            isKey ? "expected a field name in UTF-8, found \(shown)" : "expected UTF-8 text, found string \(shown)",
                            at: start, kind: .notUTF8)
                    }
                    return s
                }
                if c < 0x20 { throw error("control character in a string") }
                if c == UInt8(ascii: "\\") {
                    guard i + 1 < bytes.count else { break }
                    let e = bytes[i + 1]
                    i += 2
                    switch e {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                            bytes[i + 1] == UInt8(ascii: "u")
                        {
                            i += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = UnicodeScalar(code) else { throw error("invalid \\u escape") }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: throw error("invalid escape")
                    }
                    continue
                }
                out.append(c)
                i += 1
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard i + 4 <= bytes.count else { throw error("invalid \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: throw error("invalid \\u escape")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }

        mutating func number() throws(SyntaxError) -> JSONValue {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            var isFloat = false
            while i < bytes.count {
                let c = bytes[i]
                if c >= 0x30 && c <= 0x39 { i += 1; continue }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+")
                    || (c == UInt8(ascii: "-") && i > start)
                {
                    isFloat = true; i += 1; continue
                }
                break
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if !isFloat, let n = Int64(text) { return .int(Int(n)) }
            if !isFloat, !text.isEmpty, text != "-" {  // digits only, perhaps after a minus
                // Not a float: read as one, 2^63 would be 9.223372036854776e+18, another number.
                i = start
                throw error(
                    "expected a whole number from \(Int64.min) to \(Int64.max), found \(text)", kind: .integerOutOfRange(found: text))
            }
            guard let d = Double(text), d.isFinite, !text.isEmpty, text != "-" else {
                i = start
                throw error(text.isEmpty ? "unexpected character" : "invalid number \(text)")
            }
            return .double(d)
        }
    }
}
