import Foundation

/// The one quoting of the command lines rulesrun prints for pasting into a shell (`test`'s
/// reproduce line, `simulate`'s failure notice, `compare`'s replay commands, the replay files'
/// headers): every part a user or a rule named (a folder, a file, a property's name) is one POSIX
/// shell word that gives the command exactly that text, and nothing else: no quote, `;`, `$(…)` or
/// line feed in it ends the word or starts another command.
///
/// The printed word holds only characters a terminal shows: a control character (C0, DEL, C1), a
/// Unicode format character (the bidirectional overrides, which reorder what is shown) or a line or
/// paragraph separator is written as its UTF-8 bytes in octal, `"$(printf '\033')"`, which the
/// terminal output (`VisibleText`) leaves as it is. `$(…)` drops the line feeds its output ends
/// with: a line feed is written with the character after it (`"$(printf '\012b')"`), and a word's
/// own trailing line feeds are kept as they are, between single quotes.
package enum ShellQuote {
    /// `text` as one shell word: unchanged when it has only characters no shell treats specially,
    /// else in single quotes (a single quote inside written as `'\''`), with its invisible
    /// characters as `"$(printf '\ooo')"`.
    package static func quote(_ text: String) -> String {
        // (`=word` unquoted is a command's path in zsh.)
        if !text.isEmpty, !text.hasPrefix("="), text.unicodeScalars.allSatisfy(isPlain) { return text }
        var out = "", shown = "", hidden: [UInt8] = []
        func flush() {
            if !shown.isEmpty { out += "'" + shown.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            if !hidden.isEmpty {
                out += "\"$(printf '" + hidden.map { String(format: "\\%03o", $0) }.joined() + "')\""
            }
            shown = ""
            hidden = []
        }
        let scalars = Array(text.unicodeScalars)
        let trailingLineFeeds = scalars.reversed().prefix { $0 == "\n" }.count
        for (index, scalar) in scalars.enumerated() {
            if hidden.last == UInt8(ascii: "\n") {
                hidden += Array(String(scalar).utf8)  // not the last of the printf's output
            } else if isShown(scalar) || index >= scalars.count - trailingLineFeeds {
                if !hidden.isEmpty { flush() }
                shown.unicodeScalars.append(scalar)
            } else {
                if !shown.isEmpty { flush() }
                hidden += Array(String(scalar).utf8)
            }
        }
        flush()
        return out.isEmpty ? "''" : out
    }

    /// A path as a command's argument: `quote(path)`, with `./` before a relative path that starts
    /// with `-` (which the command would take for an option).
    package static func path(_ path: String) -> String {
        quote(path.hasPrefix("-") ? "./" + path : path)
    }

    /// An option and its value (`--rules DIR`): `--name=VALUE` when the value starts with `-`
    /// (`--name -x` would read `-x` as an option).
    package static func option(_ name: String, _ value: String) -> String {
        value.hasPrefix("-") ? name + "=" + quote(value) : name + " " + quote(value)
    }

    /// `rulesrun replay FILE --rules DIR`, each part quoted (`FILE` itself for the header of the
    /// replay file, which is the file).
    package static func replay(_ file: String, rules: String) -> String {
        "rulesrun replay \(path(file)) \(option("--rules", rules))"
    }

    /// A regular expression (Swift's `Regex` syntax, `test --run`'s) that matches `name` and
    /// nothing else, as a shell word: `^` and `$` around it, the characters the syntax gives a
    /// meaning escaped with `\`, invisible characters (as `quote` finds them) as `\u{1B}`.
    package static func exactRegex(_ name: String) -> String {
        var pattern = "^"
        for scalar in name.unicodeScalars {
            if #"\^$.|?*+()[]{}"#.unicodeScalars.contains(scalar) {
                pattern += "\\" + String(scalar)
            } else if isShown(scalar) {
                pattern.unicodeScalars.append(scalar)
            } else {
                pattern += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return quote(pattern + "$")
    }

    /// Characters a word may hold unquoted.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-./:=@%+,".unicodeScalars.contains(scalar))
    }

    /// Whether a terminal shows `scalar` as itself: not a control character, a format character
    /// (U+200B…U+200F, U+202A…U+202E, U+2066…U+2069, …), a line or paragraph separator or a
    /// noncharacter (U+FFFE, U+FFFF).
    static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: false
        default: !scalar.properties.isNoncharacterCodePoint
        }
    }
}
