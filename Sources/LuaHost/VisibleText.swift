/// Text from outside the program (a rule's message or `print`, a value read from a file, an
/// argument) as the tool shows it on a terminal: nothing in it can move the cursor, clear the
/// screen, retitle the window or hide what follows, and bytes that are not UTF-8 stay visible
/// instead of all becoming the same U+FFFD.
///
/// Escaped: every C0 control character but the line feed and the tab (`\r`, `\u{1B}`, `\u{0}`),
/// DEL (`\u{7F}`) and the C1 controls U+0080–U+009F (`\u{9B}`, which some terminals read as
/// ESC `[`). A byte that is not part of a UTF-8 character is shown as `\xFF`.
package enum VisibleText {
    /// `text` with its control characters escaped.
    package static func escaping(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// `text` as one line of the output (a name, a path: a test's, a file's, a folder's), which no
    /// character of it can end or start again: `escaping`'s escapes, and line feeds and tabs as
    /// `\n` and `\t` (`test_a\nPASS` cannot print a line of its own).
    package static func oneLine(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || $0 == "\n" || $0 == "\t" }) else { return String(text) }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: append(scalar, to: &out)
            }
        }
        return out
    }

    /// `bytes` as text: their UTF-8 characters, other bytes as `\xFF`; control characters escaped
    /// when `escapingControls`. At most `limit` characters, then `…`.
    package static func decoding(_ bytes: some Collection<UInt8>, escapingControls: Bool = true, limit: Int = .max) -> String {
        let bytes = Array(bytes)
        if limit == .max, let text = String(validating: bytes, as: UTF8.self) { return escapingControls ? escaping(text) : text }
        var out = "", i = 0, shown = 0
        while i < bytes.count, shown < limit {
            let b = bytes[i]
            let n = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
            if n > 0, i + n <= bytes.count, let c = String(validating: bytes[i..<(i + n)], as: UTF8.self) {
                if escapingControls { out += escaping(c) } else { out += c }
                i += n
            } else {
                out += "\\x" + String(b, radix: 16, uppercase: true)  // b ≥ 0x80: two digits
                i += 1
            }
            shown += 1
        }
        return i < bytes.count ? out + "…" : out
    }

    /// Where `bytes` (a file's text) stop being UTF-8: the line (from 1) and that line as
    /// `decoding` shows it (80 characters at most); nil when they are UTF-8 throughout.
    package static func firstLineNotUTF8(in bytes: some Collection<UInt8>) -> (line: Int, text: String)? {
        let bytes = Array(bytes)
        guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
        var start = 0, line = 1
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let content = bytes[start..<end]
            if String(validating: content, as: UTF8.self) == nil {
                return (line, decoding(content.drop { $0 == 0x20 || $0 == 0x09 }, limit: 80))
            }
            start = end + 1
            line += 1
        }
        return nil
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }

    static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        guard isControl(scalar) else { out.unicodeScalars.append(scalar); return }
        out += scalar == "\r" ? "\\r" : "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}
