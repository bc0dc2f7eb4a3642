import RulesModel

/// What one retention run deleted.
package struct RetentionReport: Hashable, Sendable {
    package var now: EpochMillis
    /// Rows deleted per table (cascaded rows included under their own table).
    package var deleted: [String: Int]

    package init(now: EpochMillis, deleted: [String: Int]) {
        self.now = now
        self.deleted = deleted
    }

    package var totalDeleted: Int { deleted.values.reduce(0, +) }
}
