/// The budgets of a Lua state. Exceeding one is a `LuaError` with the file and line, and the state
/// stays usable afterwards.
public struct LuaLimits: Sendable, Equatable {
    /// Lua VM instructions one call may execute (0: no limit, and no count hook).
    public var instructionsPerCall: Int
    /// Lua VM instructions the top level of one rule file may execute when it loads.
    public var instructionsPerLoad: Int
    /// Bytes the whole state may hold (0: no limit).
    public var memoryBytes: Int
    /// The largest rule file accepted, in bytes.
    public var maxSourceBytes: Int
    /// Patterns (`string.find`/`match`/`gmatch`/`gsub`) whose worst-case backtracking on their
    /// subject would exceed this many steps are refused before they run (0: no check). A plain
    /// `string.find` is stopped once its comparisons pass this many steps.
    public var patternSteps: Double
    /// The longest pattern accepted, in bytes.
    public var maxPatternBytes: Int
    /// Nesting depth beyond which a Lua table is not converted to Swift (guards against cycles).
    public var maxTableDepth: Int
    /// Entries one conversion of a Lua value to Swift may visit (a table that holds the same
    /// subtable twice, nested 30 deep, would otherwise expand to a billion entries).
    public var maxConvertedEntries: Int
    /// Which arguments of rule calls are reused between calls (default: `RULESRUN_ARGUMENT_REUSE`,
    /// else `kept`). Rules see the same arguments whichever it is.
    public var argumentReuse: ArgumentReuse

    public init(
        instructionsPerCall: Int = 2_000_000, instructionsPerLoad: Int = 20_000_000,
        memoryBytes: Int = 64 << 20, maxSourceBytes: Int = 4 << 20, patternSteps: Double = 2e7,
        maxPatternBytes: Int = 1024, maxTableDepth: Int = 64, maxConvertedEntries: Int = 1_000_000,
        argumentReuse: ArgumentReuse = .processDefault
    ) {
        self.instructionsPerCall = instructionsPerCall
        self.instructionsPerLoad = instructionsPerLoad
        self.memoryBytes = memoryBytes
        self.maxSourceBytes = maxSourceBytes
        self.patternSteps = patternSteps
        self.maxPatternBytes = maxPatternBytes
        self.maxTableDepth = maxTableDepth
        self.maxConvertedEntries = maxConvertedEntries
        self.argumentReuse = argumentReuse
    }

    /// The defaults: 2 million instructions a call, 64 MiB a state.
    public static let `default` = LuaLimits()
}
