import Foundation
import GRDB
import GRDBSQLite

/// Where the values of one row go, in the order of its statement's parameters: GRDB's
/// `StatementArguments` (``ArgumentValues``), or the parameters of a prepared statement bound
/// straight through SQLite's C API (``BoundValues``, the bulk path). Each table's row is written
/// once, generically (`PressureRows.commitment(_:into:)`, …), for both.
protocol RowValues {
    mutating func add(_ value: Int64)
    mutating func add(_ value: Double)
    mutating func add(_ value: String)
    /// A UUID as its 16 bytes (the BLOB id columns).
    mutating func add(_ value: UUID)
    mutating func addNull()
}

extension RowValues {
    mutating func add(_ value: Int) { add(Int64(value)) }
    mutating func add(_ value: Bool) { add(Int64(value ? 1 : 0)) }
    mutating func add(_ value: Int64?) { if let value { add(value) } else { addNull() } }
    mutating func add(_ value: Int?) { if let value { add(Int64(value)) } else { addNull() } }
    mutating func add(_ value: Double?) { if let value { add(value) } else { addNull() } }
    mutating func add(_ value: String?) { if let value { add(value) } else { addNull() } }
    mutating func add(_ value: UUID?) { if let value { add(value) } else { addNull() } }
}

/// Values collected as GRDB's `StatementArguments`.
struct ArgumentValues: RowValues {
    private var values: [(any DatabaseValueConvertible)?] = []

    var arguments: StatementArguments { StatementArguments(values) }

    mutating func add(_ value: Int64) { values.append(value) }
    mutating func add(_ value: Double) { values.append(value) }
    mutating func add(_ value: String) { values.append(value) }
    mutating func add(_ value: UUID) { values.append(value.blob) }
    mutating func addNull() { values.append(nil) }

    /// The arguments of `fill`.
    static func of(_ fill: (inout ArgumentValues) throws -> Void) rethrows -> StatementArguments {
        var values = ArgumentValues()
        try fill(&values)
        return values.arguments
    }
}

/// Values bound to the parameters of a prepared statement, from the first, as GRDB binds them
/// (integers, reals, UTF-8 text, blobs; SQLite copies each value).
struct BoundValues: RowValues {
    let statement: OpaquePointer
    private var index: Int32 = 1

    init(_ statement: OpaquePointer) { self.statement = statement }

    /// SQLite's SQLITE_TRANSIENT: copy the value now.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    mutating func add(_ value: Int64) { sqlite3_bind_int64(statement, next(), value) }
    mutating func add(_ value: Double) { sqlite3_bind_double(statement, next(), value) }
    mutating func add(_ value: String) {
        var text = value
        let i = next()
        _ = text.withUTF8 { sqlite3_bind_text(statement, i, $0.baseAddress, Int32($0.count), BoundValues.transient) }
    }
    mutating func add(_ value: UUID) {
        let i = next()
        _ = withUnsafeBytes(of: value.uuid) { sqlite3_bind_blob(statement, i, $0.baseAddress, 16, BoundValues.transient) }
    }
    mutating func addNull() { sqlite3_bind_null(statement, next()) }

    private mutating func next() -> Int32 {
        defer { index += 1 }
        return index
    }
}

/// A statement prepared once and run for many rows, its values bound through ``BoundValues``.
struct PreparedStatement {
    let statement: Statement

    init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// Binds the values `fill` adds and runs the statement once.
    func run(_ fill: (inout BoundValues) throws -> Void) throws {
        let handle = statement.sqliteStatement
        var values = BoundValues(handle)
        try fill(&values)
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            let message = sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }
}
