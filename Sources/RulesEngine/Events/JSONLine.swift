import LuaHost

/// A strict JSON parser for one line of a replay file, producing `LuaValue`s so that events are
/// decoded by the same strict `LuaDecoder` as rule files (unknown fields rejected with a
/// suggestion, integers kept apart from floats). Duplicate keys are an error.
enum JSONLine {
    struct SyntaxError: Error, CustomStringConvertible {
        let column: Int
        let message: String
        var description: String { "column \(column): \(message)" }
    }

    static func parse(_ text: String) throws -> LuaValue {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        func error(_ message: String) -> SyntaxError { SyntaxError(column: i + 1, message: message) }

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func expect(_ c: UInt8) throws {
            skipSpace()
            guard i < bytes.count, bytes[i] == c else { throw error("expected '\(Character(UnicodeScalar(c)))'") }
            i += 1
        }

        mutating func value(depth: Int) throws -> LuaValue {
            guard depth < 32 else { throw error("nested too deeply") }
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of line") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var table = LuaTable()
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .table(table) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a field name in double quotes") }
                    let keyColumn = i
                    let key = try string()
                    guard table[.string(key)].isNil else {
                        throw SyntaxError(column: keyColumn + 1, message: "field \"\(key)\" appears twice")
                    }
                    try expect(UInt8(ascii: ":"))
                    let element = try value(depth: depth + 1)
                    table[.string(key)] = element.isNil ? .nil : element
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of line in an object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .table(table) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [LuaValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .table(LuaTable(sequence: items)) }
                while true {
                    let item = try value(depth: depth + 1)
                    guard !item.isNil else { throw error("null is not allowed in a list") }
                    items.append(item)
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of line in a list") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .table(LuaTable(sequence: items)) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .boolean(true)
            case UInt8(ascii: "f"): try literal("false"); return .boolean(false)
            case UInt8(ascii: "n"): try literal("null"); return .nil
            default:
                return try number()
            }
        }

        mutating func literal(_ word: String) throws {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw error("unexpected text") }
            i += w.count
        }

        mutating func string() throws -> String {
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    guard let s = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
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
                        if (0xD800...0xDBFF).contains(code), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
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

        mutating func hex4() throws -> UInt32 {
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

        mutating func number() throws -> LuaValue {
            let start = i
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            var isFloat = false
            while i < bytes.count {
                let c = bytes[i]
                if c >= 0x30 && c <= 0x39 { i += 1; continue }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+")
                    || (c == UInt8(ascii: "-") && i > start) { isFloat = true; i += 1; continue }
                break
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if !isFloat, let n = Int64(text) { return .integer(n) }
            guard let d = Double(text), d.isFinite, !text.isEmpty, text != "-" else {
                i = start
                throw error(text.isEmpty ? "unexpected character" : "invalid number \(text)")
            }
            return .number(d)
        }
    }
}
