import CLuaSupport

/// What the rule calls of one stretch of work did (`replay --explain`): each call to a rule
/// function, in order, with the arguments it was given, what it returned (and from which line) or
/// the error it raised, the knobs (fields of the rule files' tables) and params (fields of the
/// `params` table of a record it was given) it read, and the notes it attached (`note`).
///
/// A host records calls only while its `callTrace` is set (`LuaHost.explain(tables:)`); with none,
/// a call costs one branch more. The values are converted without charging the call's budget, so an
/// explained call succeeds or fails exactly as it would unexplained.
public final class LuaCallTrace {
    /// One call of a rule function.
    public struct Call: Sendable, Equatable {
        public let function: LuaFunction
        /// The arguments as the rule saw them (nil: too large to show, more than
        /// `LuaCallTrace.maxEntries` table entries).
        public let arguments: [LuaValue?]
        /// What the function returned, or nil when it raised (`error`).
        public let results: [LuaValue?]?
        /// The error the call raised, as its message reads (`escalation.lua:70: …`).
        public let error: String?
        /// The knobs the call read, in order (each read once per read, a knob read twice twice).
        public internal(set) var knobs: [KnobRead]
        /// Reads past `maxKnobReads` that were not recorded.
        public let knobsLeftOut: Int
        /// The lines of the function's file the call executed, in the order of the file (nil when the
        /// host was already recording lines for coverage).
        public var lines: [Int]?
        /// The line of the function's own frame it ran last: the line it returned from (or raised
        /// at); nil when not recorded (a trace of arguments only).
        public var returnLine: Int?
        /// The params the call read (`task.params.freeze_max`, `ctx.params.surcharge`), by name, in
        /// order, once per read; as knobs are, and counted with them in `knobsLeftOut`.
        public var params: [KnobRead] = []
        /// The notes the call attached (`note("night surcharge 50 %")`), in order: at most
        /// `maxNotes`, each cut at `maxNoteBytes` bytes (then ending with `…`).
        public var notes: [String] = []
        /// Notes past `maxNotes` that were not recorded.
        public var notesLeftOut = 0
    }

    /// A read of a knob: its path from the file's table (`escalation.recover_after[2]`) and value
    /// (a string longer than 95 bytes cut, with `cut` set).
    public struct KnobRead: Sendable, Equatable {
        public let name: String
        public let value: LuaValue
        public let cut: Bool
    }

    /// The table entries an argument or a result may have to be shown (a larger one is nil).
    public static let maxEntries = 4_096
    /// The knob reads recorded per call.
    public static let maxKnobReads = Int(RR_TRACE_MAX_READS)
    /// The notes recorded per call, and the bytes kept of each.
    public static let maxNotes = Int(RR_TRACE_MAX_NOTES)
    public static let maxNoteBytes = Int(RR_TRACE_NOTE_BYTES)

    public private(set) var calls: [Call] = []

    /// Whether a call's results and the lines it ran are recorded too (not when only its
    /// arguments are wanted: the tests of what the proofs pass make a hundred thousand calls).
    public let recordsResults: Bool

    public init(recordsResults: Bool = true) { self.recordsResults = recordsResults }

    /// The calls recorded since the last `removeAll()`, which it forgets.
    public func removeAll() -> [Call] {
        defer { calls.removeAll(keepingCapacity: true) }
        return calls
    }

    func append(_ call: Call) { calls.append(call) }
}
