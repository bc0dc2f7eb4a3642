/// One broken invariant found by ``InvariantChecker``.
public struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    /// Which invariant: `A5.1` … `A5.5` for Earned's, or a short name (`foreign_key`, `same_user`,
    /// `valid_row`, `meta`, `focus_state`, `economy_today`, `habit_tracker`).
    public var invariant: String
    public var table: String
    /// The key of the offending row, e.g. `user_id=3` or `attempt_id=a1`.
    public var key: String
    public var message: String

    public init(invariant: String, table: String, key: String, message: String) {
        self.invariant = invariant
        self.table = table
        self.key = key
        self.message = message
    }

    public var description: String { "[\(invariant)] \(table) \(key): \(message)" }
}
