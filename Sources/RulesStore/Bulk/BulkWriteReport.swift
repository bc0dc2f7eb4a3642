/// What one bulk write stored.
public struct BulkWriteReport: Hashable, Sendable {
    public var userDays: Int
    public var rows: Int

    public init(userDays: Int, rows: Int) {
        self.userDays = userDays
        self.rows = rows
    }
}
