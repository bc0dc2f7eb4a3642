import GRDB
import RulesModel

/// A read-only view of the database at one instant: the narrow query API that rules need
/// (a later issue hands these values to Lua as snapshots). Obtain one with ``Store/read(_:)``;
/// every query inside one `read` sees the same committed state.
///
/// Periods are half-open: `from` included, `to` excluded, for timestamps; day ranges are
/// inclusive of both ends.
public struct Snapshot {
    package let db: Database

    init(_ db: Database) { self.db = db }

    /// Whether the user exists.
    public func userExists(_ userID: UserID) throws -> Bool {
        try Bool.fetchOne(cached: db, sql: "SELECT 1 FROM app_user WHERE user_id = ?", arguments: [userID.rawValue]) == true
    }

    /// The inclusive day range of "the last `days` days" ending on `endingOn`.
    static func lastDays(_ days: Int, endingOn end: DayID) throws -> (DayID, DayID) {
        guard days >= 1, days <= 3660 else {
            throw StoreError(.invalidState, "the number of days must be between 1 and 3660, found \(days)")
        }
        return (end.adding(days: -(days - 1)) ?? DayID(ordinal: 0)!, end)
    }

    static func requirePeriod(_ from: EpochMillis, _ to: EpochMillis) throws {
        guard from <= to else { throw StoreError(.invalidState, "a period must not end (\(to)) before it starts (\(from))") }
    }

    func one<T>(_ sql: String, _ arguments: StatementArguments, _ entity: String, _ key: String, _ decode: (Row) throws -> T) throws -> T {
        guard let row = try Row.fetchOne(cached: db, sql: sql, arguments: arguments) else { throw StoreError.notFound(entity, key) }
        return try decode(row)
    }

    func all<T>(_ sql: String, _ arguments: StatementArguments, _ decode: (Row) throws -> T) throws -> [T] {
        try Row.fetchAll(cached: db, sql: sql, arguments: arguments).map(decode)
    }
}
