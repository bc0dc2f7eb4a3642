import RulesModel

/// What one retention run deleted.
public struct RetentionReport: Hashable, Sendable {
    public var now: EpochMillis
    /// Rows deleted per table (cascaded rows included under their own table).
    public var deleted: [String: Int]

    public init(now: EpochMillis, deleted: [String: Int]) {
        self.now = now
        self.deleted = deleted
    }

    public var totalDeleted: Int { deleted.values.reduce(0, +) }
}
