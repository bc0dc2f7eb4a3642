/// One broken invariant found by ``InvariantChecker``.
package struct InvariantViolation: Hashable, Sendable, CustomStringConvertible {
    /// Which invariant: `A5.1` … `A5.5` for Earned's, or a short name (`foreign_key`, `same_user`,
    /// `valid_row`, `meta`, `focus_state`, `economy_today`, `habit_tracker`).
    package var invariant: String
    package var table: String
    /// The key of the offending row, e.g. `user_id=3` or `attempt_id=a1`.
    package var key: String
    package var message: String

    package init(invariant: String, table: String, key: String, message: String) {
        self.invariant = invariant
        self.table = table
        self.key = key
        self.message = message
    }

    package var description: String { "[\(invariant)] \(table) \(key): \(message)" }
}
