import RulesEngine

/// Reads one line of a replay file (a JSON object) into a `JSONOut`, keeping the order of its keys,
/// so that `--json` shows an event as an object rather than as its text. Its lines are the ones
/// `compare` wrote (text, so UTF-8); one it cannot show as an object (a key twice) stays text.
enum JSONLineParser {
    /// The value of `text`; nil when it is not JSON.
    static func parse(_ text: String) -> JSONOut? {
        var parser = Parser(chars: Array(text.unicodeScalars))
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.index == parser.chars.count ? value : nil
    }

    private struct Parser {
        let chars: [Unicode.Scalar]
        var index = 0

        mutating func skipSpace() {
            while index < chars.count, [" ", "\t", "\n", "\r"].contains(chars[index]) { index += 1 }
        }

        mutating func value() -> JSONOut? {
            skipSpace()
            guard index < chars.count else { return nil }
            switch chars[index] {
            case "{":
                index += 1
                var fields: [(String, JSONOut)] = []
                skipSpace()
                if index < chars.count, chars[index] == "}" { index += 1; return .object(fields) }
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    skipSpace()
                    guard index < chars.count, chars[index] == ":" else { return nil }
                    index += 1
                    guard let item = value(), !fields.contains(where: { $0.0 == key }) else { return nil }   // a key twice: not shown as an object
                    fields.append((key, item))
                    skipSpace()
                    guard index < chars.count else { return nil }
                    if chars[index] == "," { index += 1; continue }
                    if chars[index] == "}" { index += 1; return .object(fields) }
                    return nil
                }
            case "[":
                index += 1
                var items: [JSONOut] = []
                skipSpace()
                if index < chars.count, chars[index] == "]" { index += 1; return .array(items) }
                while true {
                    guard let item = value() else { return nil }
                    items.append(item)
                    skipSpace()
                    guard index < chars.count else { return nil }
                    if chars[index] == "," { index += 1; continue }
                    if chars[index] == "]" { index += 1; return .array(items) }
                    return nil
                }
            case "\"":
                return string().map { .string($0) }
            default:
                for (word, result) in [("true", JSONOut.bool(true)), ("false", .bool(false)), ("null", .null)]
                where chars[index...].starts(with: word.unicodeScalars) {
                    index += word.unicodeScalars.count
                    return result
                }
                let start = index
                while index < chars.count, "+-0123456789.eE".unicodeScalars.contains(chars[index]) { index += 1 }
                let number = String(String.UnicodeScalarView(chars[start..<index]))
                if let int = Int(number) { return .int(int) }
                if let double = Double(number) { return .double(double) }
                return nil
            }
        }

        mutating func string() -> String? {
            guard index < chars.count, chars[index] == "\"" else { return nil }
            index += 1
            var out = String.UnicodeScalarView()
            while index < chars.count {
                let c = chars[index]
                index += 1
                if c == "\"" { return String(out) }
                guard c == "\\" else { out.append(c); continue }
                guard index < chars.count else { return nil }
                let e = chars[index]
                index += 1
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "b": out.append("\u{8}")
                case "f": out.append("\u{c}")
                case "u":
                    guard index + 4 <= chars.count, let code = UInt32(String(String.UnicodeScalarView(chars[index..<index + 4])), radix: 16) else { return nil }
                    index += 4
                    var scalar = code
                    // A surrogate pair.
                    if (0xD800..<0xDC00).contains(code), index + 6 <= chars.count, chars[index] == "\\", chars[index + 1] == "u",
                       let low = UInt32(String(String.UnicodeScalarView(chars[index + 2..<index + 6])), radix: 16), (0xDC00..<0xE000).contains(low) {
                        index += 6
                        scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { return nil }
                    out.append(u)
                default: out.append(e)
                }
            }
            return nil
        }
    }
}
