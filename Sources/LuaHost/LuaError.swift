/// Everything that goes wrong in or around Lua: one error type with a kind, the rule file and line,
/// the message, the field path (for decoding) and the Lua traceback.
///
/// Its `description` is written for the author of the rule file:
/// `escalation.lua:12: attempt to compare number with nil`.
public struct LuaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure this is. New kinds may be added; switch with a `default`. Written like the
    /// codes of `EngineError` and `StoreError`: a raw value in SCREAMING_SNAKE_CASE.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file is not valid Lua text (or is a binary chunk, or is too large).
        public static let syntax = Kind("SYNTAX_ERROR")
        /// The file was refused at load because a function of it would keep state between calls (it
        /// assigns a local of the file, its `_ENV`, or a variable of a closure made while it loaded,
        /// or keeps an iterator).
        public static let keepsState = Kind("KEEPS_STATE")
        /// A Lua error raised while running a rule (`error()`, arithmetic on nil, a read-only table, …).
        public static let runtime = Kind("RUNTIME_ERROR")
        /// The rule went over the memory ceiling of its Lua state.
        public static let memory = Kind("MEMORY_LIMIT")
        /// The rule went over its instruction budget, or asked for a pattern match too costly to run.
        public static let instructionBudget = Kind("INSTRUCTION_BUDGET")
        /// A function provided by the host (Swift) reported a failure.
        public static let hostFunction = Kind("HOST_FUNCTION_ERROR")
        /// A value returned by a rule does not have the expected shape, type or range.
        public static let decoding = Kind("INVALID_VALUE")
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

    public init(
        kind: Kind, file: String? = nil, line: Int? = nil, path: String? = nil,
        message: String, traceback: String? = nil
    ) {
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
                    i > 0
                {
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
