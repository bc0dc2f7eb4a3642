/// Everything that goes wrong in or around Lua: one error type with a kind, the rule file and line,
/// the message, the field path (for decoding) and the Lua traceback.
///
/// Its `description` is written for the author of the rule file:
/// `escalation.lua:12: attempt to compare number with nil`.
public struct LuaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New kinds may be added; switch with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The file is not valid Lua text (or is a binary chunk, or is too large).
        public static let syntax = Kind("syntax error")
        /// A Lua error raised while running a rule (`error()`, arithmetic on nil, a read-only table, …).
        public static let runtime = Kind("runtime error")
        /// The rule went over the memory ceiling of its Lua state.
        public static let memory = Kind("memory limit")
        /// The rule went over its instruction budget, or asked for a pattern match too costly to run.
        public static let instructionBudget = Kind("instruction budget")
        /// A function provided by the host (Swift) reported a failure.
        public static let hostFunction = Kind("host function error")
        /// A value returned by a rule does not have the expected shape, type or range.
        public static let decoding = Kind("invalid value")
    }

    public var kind: Kind
    /// The rule file, relative to the rule folder (`escalation.lua`), when known.
    public var file: String?
    /// The line in `file`, when known.
    public var line: Int?
    /// For decoding errors: the path of the offending field (`tiers[2].recover_after`).
    public var path: String?
    /// What went wrong, without the `file:line:` prefix.
    public var message: String
    /// The Lua stack traceback at the point of the error, when there is one.
    public var traceback: String?

    public init(kind: Kind, file: String? = nil, line: Int? = nil, path: String? = nil,
                message: String, traceback: String? = nil) {
        self.kind = kind
        self.file = file
        self.line = line
        self.path = path
        self.message = message
        self.traceback = traceback
    }

    /// `file:line: path: message`, leaving out what is unknown.
    public var description: String {
        var prefix = ""
        if let file {
            prefix = file
            if let line { prefix += ":\(line)" }
            prefix += ": "
        }
        if let path, !path.isEmpty { prefix += "\(path): " }
        return prefix + message
    }

    /// The description followed by the Lua traceback.
    public var detailedDescription: String {
        guard let traceback, !traceback.isEmpty else { return description }
        return description + "\n" + traceback
    }

    /// Splits a Lua message of the form `file:line: text` into its parts.
    static func parsePosition(_ text: String) -> (file: String, line: Int, rest: String)? {
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: ":") {
                var j = i + 1
                while j < bytes.count, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1 }
                if j > i + 1, j + 1 < bytes.count, bytes[j] == UInt8(ascii: ":"), bytes[j + 1] == UInt8(ascii: " "),
                   i > 0 {
                    let file = String(decoding: bytes[0..<i], as: UTF8.self)
                    let line = Int(String(decoding: bytes[(i + 1)..<j], as: UTF8.self)) ?? 0
                    let rest = String(decoding: bytes[(j + 2)...], as: UTF8.self)
                    return (file, line, rest)
                }
                if bytes[i + 1..<bytes.count].first == UInt8(ascii: " ") { return nil }
            }
            if bytes[i] == UInt8(ascii: "\n") { return nil }
            i += 1
        }
        return nil
    }
}
