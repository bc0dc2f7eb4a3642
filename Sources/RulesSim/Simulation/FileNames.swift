import Foundation

/// The one way rulesrun makes a file name from text a user or a rule chose (a property's name, a
/// user's): the name is one path component inside the folder it is written in, whatever the text
/// holds (`/`, `..`, a NUL, a leading `.`, 1,000 characters), and no two texts of one run get the
/// same file, not even on a file system that ignores case.
///
/// A name keeps the text's ASCII letters, digits, `_` and `-` (and its `.`s, but not a leading one);
/// every other character becomes `_`. A name is at most `maxBytes` bytes: the text is cut before
/// its suffix. A name that another text of the run already got (ignoring case) gets `-2`, `-3`, …
/// before its suffix; the same key always gets the same name, so a property keeps its file from
/// one `watch` cycle to the next.
package struct FileNames: Sendable {
    /// The longest name made, in bytes: what Linux, macOS and Windows file systems all take.
    package static let maxBytes = 255

    /// The name given to each key (by its bytes: Swift's `==` takes `café` written with U+00E9 and
    /// with U+0301 for one text, Lua two names), and the names given (lower-cased).
    private var given: [[UInt8]: String] = [:]
    private var taken: Set<String> = []

    package init() {}

    /// The file name for `key` (what identifies the thing named; `text` when nil): `prefix`, `text`
    /// made safe, `suffix` (`prefix` and `suffix` are rulesrun's own: `property-`, `.jsonl`).
    package mutating func name(for text: String, key: String? = nil, prefix: String = "", suffix: String) -> String {
        let key = Array((key ?? text).utf8)
        if let known = given[key] { return known }
        let stem = Self.component(text)
        var name = Self.fitted(prefix + stem, suffix: suffix)
        var n = 2
        while taken.contains(name.lowercased()) {
            name = Self.fitted(prefix + stem, suffix: "-\(n)" + suffix)
            n += 1
        }
        taken.insert(name.lowercased())
        given[key] = name
        return name
    }

    /// `text` as characters a file name can hold anywhere: ASCII letters, digits, `_`, `-` and `.`
    /// (not first); `_` for every other character; `_` for no text.
    package static func component(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let kept = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-.".unicodeScalars.contains(scalar))
            out.unicodeScalars.append(kept && !(out.isEmpty && scalar == ".") ? scalar : "_")
        }
        return out.isEmpty ? "_" : out
    }

    /// `stem` cut so that `stem + suffix` is at most `maxBytes` bytes (`stem` is ASCII).
    private static func fitted(_ stem: String, suffix: String) -> String {
        String(stem.prefix(max(1, maxBytes - suffix.utf8.count))) + suffix
    }
}
