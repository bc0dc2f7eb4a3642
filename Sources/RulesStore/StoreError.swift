import RulesModel

/// An operation of the store was refused, or the database cannot be used.
///
/// Validation errors of the model are thrown as ``RulesModel/ModelValidationError``; SQLite
/// errors as GRDB's `DatabaseError`. This error covers what the store itself decides: a database
/// newer than the code, a missing row, an operation that does not apply to the current state.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A code that can grow without breaking callers. Written like the codes of `EngineError` and
    /// the kinds of `LuaError`: a raw value in SCREAMING_SNAKE_CASE.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The database was written by a newer version of the code; it was left untouched.
        public static let databaseTooNew = Code("DATABASE_TOO_NEW")
        /// The file is not a database of this program (or is damaged).
        public static let notARulesDatabase = Code("NOT_A_RULES_DATABASE")
        /// A row the operation needs does not exist.
        public static let notFound = Code("NOT_FOUND")
        /// The row exists but its state does not allow the operation.
        public static let invalidState = Code("INVALID_STATE")
        /// The operation would break an invariant of the seeds (e.g. spend more credits than held).
        public static let constraint = Code("CONSTRAINT")
        /// A stored value cannot be read back as the model (a damaged or hand-edited row).
        public static let corruptRow = Code("CORRUPT_ROW")
    }

    public var code: Code
    /// A message written for the person reading it: what failed, on what, and what was found.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func notFound(_ entity: String, _ key: String) -> StoreError {
        StoreError(.notFound, "\(entity) \(key) does not exist")
    }

    static func invalidState(_ message: String) -> StoreError { StoreError(.invalidState, message) }
}
