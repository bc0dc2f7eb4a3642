/// Where each field of a rule file's returned table is written, so that an error about a value
/// (`tiers[2].recover_after: expected an integer`) can name its line.
///
/// Lua values carry no positions; this reads the file's text instead. It understands the shapes
/// rule files use: `return { … }`, `local M = { … }` … `return M`, `M.key = …`,
/// `M.a.b = …`, `function M.name(…)`, and nested table constructors with `key = …`,
/// `["key"] = …`, `[n] = …` and positional entries. Paths are those of `LuaPath`.
package struct LuaSourceMap: Sendable {
    private var lines: [String: Int] = [:]

    package init(source: String) {
        var parser = Parser(tokens: Tokenizer.tokens(of: source))
        lines = parser.parse()
    }

    /// The line where `path` is written, or where its closest written ancestor is.
    package func line(for path: String) -> Int? {
        var path = path
        while true {
            if let line = lines[path] { return line }
            guard let cut = LuaSourceMap.parentEnd(of: path) else { return lines[""] }
            path = String(path[..<cut])
        }
    }

    /// The line of exactly `path`, if it is written in the file.
    package func exactLine(for path: String) -> Int? { lines[path] }

    /// The first line of `source` that names `key` as a field (`key =`, `.key`, `["key"]`): where a
    /// file writes a field through a local alias or a loop, which `line(for:)` cannot follow.
    package static func line(naming key: String, in source: String) -> Int? {
        let tokens = Tokenizer.tokens(of: source)
        for (i, (token, line)) in tokens.enumerated() {
            let next = i + 1 < tokens.count ? tokens[i + 1].token : nil
            let previous = i > 0 ? tokens[i - 1].token : nil
            switch token {
            case .name(key) where next == .symbol("=") || previous == .symbol("."): return line
            case .string(key) where previous == .symbol("["): return line
            default: continue
            }
        }
        return nil
    }

    /// The line of the first token nested more than `depth` levels (brackets, parentheses,
    /// blocks) in `source`: where Lua's parser, which then gives no line, runs out of C stack.
    static func line(nestedDeeperThan depth: Int, in source: String) -> Int? {
        var level = 0
        for (token, line) in Tokenizer.tokens(of: source) {
            switch token {
            case .symbol("{"), .symbol("("), .symbol("["), .name("function"), .name("do"), .name("if"), .name("repeat"): level += 1
            case .symbol("}"), .symbol(")"), .symbol("]"), .name("end"), .name("until"): level -= 1
            default: break
            }
            if level > depth { return line }
        }
        return nil
    }

    static func parentEnd(of path: String) -> String.Index? {
        guard !path.isEmpty else { return nil }
        var depth = 0
        var index = path.endIndex
        while index > path.startIndex {
            index = path.index(before: index)
            switch path[index] {
            case "]": depth += 1
            case "[": depth -= 1; if depth == 0 { return index }
            case "." where depth == 0: return index
            default: break
            }
        }
        return path.startIndex
    }

    // MARK: Tokens

    enum Token: Equatable {
        case name(String)
        case string(String)
        case number(String)
        case symbol(String)
    }

    struct Tokenizer {
        static func tokens(of source: String) -> [(token: Token, line: Int)] {
            let s = Array(source.utf8)
            var out: [(Token, Int)] = []
            var i = 0, line = 1
            func longBracket(at j: Int) -> Int? {  // level of "[==[" at j, if any
                guard j < s.count, s[j] == UInt8(ascii: "[") else { return nil }
                var k = j + 1, level = 0
                while k < s.count, s[k] == UInt8(ascii: "=") { level += 1; k += 1 }
                return k < s.count && s[k] == UInt8(ascii: "[") ? level : nil
            }
            func skipLong(from j: Int, level: Int) -> (end: Int, text: String) {
                var k = j + level + 2
                let start = k
                while k < s.count {
                    if s[k] == UInt8(ascii: "\n") { line += 1 }
                    if s[k] == UInt8(ascii: "]") {
                        var m = k + 1, l = 0
                        while m < s.count, s[m] == UInt8(ascii: "=") { l += 1; m += 1 }
                        if l == level, m < s.count, s[m] == UInt8(ascii: "]") {
                            return (m + 1, String(decoding: s[start..<k], as: UTF8.self))
                        }
                    }
                    k += 1
                }
                return (s.count, "")
            }
            while i < s.count {
                let c = s[i]
                if c == UInt8(ascii: "\n") { line += 1; i += 1; continue }
                if c == 0x20 || c == 0x09 || c == 0x0D { i += 1; continue }
                if c == UInt8(ascii: "-"), i + 1 < s.count, s[i + 1] == UInt8(ascii: "-") {
                    if let level = longBracket(at: i + 2) {
                        i = skipLong(from: i + 2, level: level).end
                    } else {
                        while i < s.count, s[i] != UInt8(ascii: "\n") { i += 1 }
                    }
                    continue
                }
                if let level = longBracket(at: i) {
                    let startLine = line
                    let (end, text) = skipLong(from: i, level: level)
                    out.append((.string(text), startLine))
                    i = end
                    continue
                }
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    var k = i + 1
                    var bytes: [UInt8] = []
                    let startLine = line
                    while k < s.count, s[k] != c, s[k] != UInt8(ascii: "\n") {
                        if s[k] == UInt8(ascii: "\\"), k + 1 < s.count {
                            switch s[k + 1] {
                            case UInt8(ascii: "\n"):  // a backslash-newline continues the string
                                line += 1
                                bytes.append(s[k + 1]); k += 2
                            case UInt8(ascii: "z"):  // \z skips the blanks that follow, line breaks included
                                k += 2
                                while k < s.count, [0x20, 0x09, 0x0D, 0x0A, 0x0B, 0x0C].contains(s[k]) {
                                    if s[k] == UInt8(ascii: "\n") { line += 1 }
                                    k += 1
                                }
                            default:
                                bytes.append(s[k + 1]); k += 2
                            }
                            continue
                        }
                        bytes.append(s[k]); k += 1
                    }
                    out.append((.string(String(decoding: bytes, as: UTF8.self)), startLine))
                    i = k + 1
                    continue
                }
                if isNameStart(c) {
                    var k = i
                    while k < s.count, isNameStart(s[k]) || isDigit(s[k]) { k += 1 }
                    out.append((.name(String(decoding: s[i..<k], as: UTF8.self)), line))
                    i = k
                    continue
                }
                if isDigit(c) || (c == UInt8(ascii: ".") && i + 1 < s.count && isDigit(s[i + 1])) {
                    var k = i
                    while k < s.count,
                        isDigit(s[k]) || isNameStart(s[k]) || s[k] == UInt8(ascii: ".")
                            || ((s[k] == UInt8(ascii: "-") || s[k] == UInt8(ascii: "+"))
                                && (s[k - 1] | 0x20 == UInt8(ascii: "e") || s[k - 1] | 0x20 == UInt8(ascii: "p")))
                    {
                        k += 1
                    }
                    out.append((.number(String(decoding: s[i..<k], as: UTF8.self)), line))
                    i = k
                    continue
                }
                if c == UInt8(ascii: "."), i + 2 < s.count, s[i + 1] == c, s[i + 2] == c {
                    out.append((.symbol("..."), line)); i += 3; continue
                }
                if c == UInt8(ascii: "."), i + 1 < s.count, s[i + 1] == c {
                    out.append((.symbol(".."), line)); i += 2; continue
                }
                if c == UInt8(ascii: "="), i + 1 < s.count, s[i + 1] == c {
                    out.append((.symbol("=="), line)); i += 2; continue
                }
                out.append((.symbol(String(UnicodeScalar(c))), line))
                i += 1
            }
            return out
        }

        static func isNameStart(_ c: UInt8) -> Bool {
            c == UInt8(ascii: "_") || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
        }
        static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    }

    // MARK: Parser

    struct Parser {
        let tokens: [(token: Token, line: Int)]
        var i = 0
        /// Paths by local table name (`local M = {…}`), relative to that table.
        var tables: [String: [String: Int]] = [:]
        var returned: [String: Int]?
        /// Table constructors being read, one inside the other. Lua refuses more than about 200
        /// (its C-levels limit); past that, the map stops recording and only skips, so that a
        /// file its tokenizer misreads cannot recurse without bound.
        var constructors = 0
        static let maxConstructors = 200

        init(tokens: [(token: Token, line: Int)]) { self.tokens = tokens }

        func peek(_ offset: Int = 0) -> Token? { i + offset < tokens.count ? tokens[i + offset].token : nil }
        func line(_ offset: Int = 0) -> Int { i + offset < tokens.count ? tokens[i + offset].line : 0 }

        mutating func parse() -> [String: Int] {
            var depth = 0  // block depth: only top-level statements describe the returned table
            while i < tokens.count {
                switch peek() {
                case .name("function") where depth == 0:
                    // function M.a.b(…) / function M:a(…)
                    if case .name(let table)? = peek(1), tables[table] != nil {
                        var path = ""
                        var j = 2
                        while peek(j) == .symbol(".") || peek(j) == .symbol(":"), case .name(let key)? = peek(j + 1) {
                            LuaPath.append(key, to: &path)
                            j += 2
                        }
                        let at = line(1)
                        if !path.isEmpty { tables[table]?[path] = at }
                        i += j
                    } else {
                        i += 1
                    }
                    depth += 1
                case .name("local") where depth == 0:
                    if case .name(let name)? = peek(1), peek(2) == .symbol("="), peek(3) == .symbol("{") {
                        var entries: [String: Int] = ["": line(3)]
                        i += 4
                        constructor(prefix: "", into: &entries)
                        tables[name] = entries
                    } else if case .name(let name)? = peek(1), peek(2) == .symbol("="), case .name? = peek(3),
                        ![.symbol("."), .symbol("["), .symbol("("), .symbol(":")].contains(peek(4))
                    {
                        // `local M = base`: a table from elsewhere; this file writes only what it assigns.
                        tables[name] = [:]
                        i += 4
                    } else {
                        i += 1
                    }
                case .name("return") where depth == 0:
                    if peek(1) == .symbol("{") {
                        var entries: [String: Int] = ["": line(1)]
                        i += 2
                        constructor(prefix: "", into: &entries)
                        returned = entries
                    } else if case .name(let name)? = peek(1), let entries = tables[name] {
                        returned = entries
                        i += 2
                    } else {
                        i += 1
                    }
                case .name(let table)?
                where depth == 0 && tables[table] != nil
                    && (peek(1) == .symbol(".") || peek(1) == .symbol("[")):
                    assignment(to: table)
                case .name("do"), .name("if"), .name("repeat"), .name("function"):
                    depth += 1; i += 1  // while/for open their block with `do`
                case .name("end"), .name("until"):
                    depth = max(0, depth - 1); i += 1
                default:
                    i += 1
                }
            }
            return returned ?? tables.values.first ?? [:]
        }

        /// `M.a.b = value` or `M["a"][2] = value` at top level.
        mutating func assignment(to table: String) {
            let startLine = line()
            var path = ""
            var j = 1
            while true {
                if peek(j) == .symbol("."), case .name(let key)? = peek(j + 1) {
                    LuaPath.append(key, to: &path); j += 2
                } else if peek(j) == .symbol("["), let key = peek(j + 1), peek(j + 2) == .symbol("]") {
                    append(key, to: &path); j += 3
                } else {
                    break
                }
            }
            guard peek(j) == .symbol("="), !path.isEmpty else { i += 1; return }
            tables[table]?[path] = startLine
            i += j + 1
            if peek() == .symbol("{") {
                i += 1
                var entries = tables[table] ?? [:]
                constructor(prefix: path, into: &entries)
                tables[table] = entries
            } else if peek() == .name("function") {
                skipFunction()
            }
        }

        func append(_ key: Token, to path: inout String) {
            switch key {
            case .string(let s): LuaPath.append(s, to: &path)
            case .number(let n): path += "[\(n)]"
            case .name(let n): path += "[\(n)]"
            default: break
            }
        }

        /// Reads a table constructor whose `{` has been consumed, recording each entry's line.
        mutating func constructor(prefix: String, into entries: inout [String: Int]) {
            var position = 1
            while i < tokens.count, peek() != .symbol("}") {
                var key: String?
                let entryLine = line()
                if case .name(let name)? = peek(), peek(1) == .symbol("=") {
                    key = prefix
                    LuaPath.append(name, to: &key!)
                    i += 2
                } else if peek() == .symbol("["), let k = peek(1), peek(2) == .symbol("]"), peek(3) == .symbol("=") {
                    var p = prefix
                    append(k, to: &p)
                    key = p
                    i += 4
                } else {
                    key = prefix + "[\(position)]"
                    position += 1
                }
                if let key { entries[key] = entryLine }
                value(prefix: key ?? prefix, into: &entries)
                if peek() == .symbol(",") || peek() == .symbol(";") { i += 1 }
            }
            i += 1  // "}"
        }

        /// Skips one expression (recording nested constructors) up to `,`, `;` or the closing `}`.
        mutating func value(prefix: String, into entries: inout [String: Int]) {
            var nesting = 0
            while i < tokens.count {
                switch peek() {
                case .symbol("{") where nesting == 0 && constructors < Self.maxConstructors:
                    i += 1
                    constructors += 1
                    constructor(prefix: prefix, into: &entries)
                    constructors -= 1
                    continue
                case .symbol("{"), .symbol("("), .symbol("["):
                    nesting += 1
                case .symbol("}") where nesting == 0, .symbol(",") where nesting == 0, .symbol(";") where nesting == 0:
                    return
                case .symbol("}"), .symbol(")"), .symbol("]"):
                    nesting -= 1
                case .name("function"):
                    skipFunction()
                    continue
                default:
                    break
                }
                i += 1
            }
        }

        /// Skips `function … end`, counting nested blocks.
        mutating func skipFunction() {
            var depth = 0
            while i < tokens.count {
                switch peek() {
                case .name("function"), .name("do"), .name("if"), .name("repeat"): depth += 1
                case .name("end"), .name("until"):
                    depth -= 1
                    if depth == 0 { i += 1; return }
                default: break
                }
                i += 1
            }
        }
    }
}
