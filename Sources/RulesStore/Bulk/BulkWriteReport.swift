/// What one bulk write stored.
package struct BulkWriteReport: Hashable, Sendable {
    package var userDays: Int
    package var rows: Int

    package init(userDays: Int, rows: Int) {
        self.userDays = userDays
        self.rows = rows
    }
}
