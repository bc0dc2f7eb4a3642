import Foundation

/// How much of a rule call's arguments the host reuses from one call to the next (`LuaLimits`).
/// Rules see the same arguments whichever it is: the switch exists so that the reuse can be
/// compared with fresh arguments (the differential tests run under `none` and `kept`) and turned
/// off when a problem is suspected in it.
public enum ArgumentReuse: String, Sendable {
    /// Every argument built fresh: no pooled table, list or view, no kept history, list, record or
    /// text, and no price remembered by the fields read.
    case none
    /// The pooled argument tables, lists and views, refilled for each call; nothing kept.
    case pooled
    /// Pooled and kept arguments: histories, kept lists and records written again only where they
    /// changed, texts kept by number, prices remembered by the fields read (the default).
    case kept

    /// The environment variable that sets the default (`none`, `pooled` or `kept`).
    public static let environmentVariable = "RULESRUN_ARGUMENT_REUSE"

    /// The reuse `value` names, or nil.
    public init?(name value: String) { self.init(rawValue: value.trimmingCharacters(in: .whitespaces).lowercased()) }

    /// The reuse the environment sets (`kept` when the variable is unset or invalid; the command
    /// line refuses an invalid value before anything runs: `problem(in:)`).
    public static let processDefault: ArgumentReuse = ProcessInfo.processInfo.environment[environmentVariable]
        .flatMap(ArgumentReuse.init(name:)) ?? .kept

    /// The message for an invalid value of the variable in `environment`, or nil.
    public static func problem(in environment: [String: String]) -> String? {
        guard let value = environment[environmentVariable], ArgumentReuse(name: value) == nil else { return nil }
        return "\(environmentVariable)=\(value): expected none, pooled or kept"
    }
}

extension LuaHost {
    /// How many reused arguments a host holds: what tells its `argumentReuse` at work (tests).
    package struct ReusedArguments: Equatable, Sendable {
        /// Pooled argument tables and views (by position and type) and pooled lists (by type).
        package var pooledTables = 0, pooledLists = 0
        /// Kept histories, lists and records (by type and key), kept lists of one-field records
        /// (by field), and kept texts.
        package var keptLists = 0, fieldLists = 0, keptTexts = 0

        package init(pooledTables: Int = 0, pooledLists: Int = 0, keptLists: Int = 0, fieldLists: Int = 0, keptTexts: Int = 0) {
            self.pooledTables = pooledTables
            self.pooledLists = pooledLists
            self.keptLists = keptLists
            self.fieldLists = fieldLists
            self.keptTexts = keptTexts
        }
    }

    package var reusedArguments: ReusedArguments { hot.reused }
}
