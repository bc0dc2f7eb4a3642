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

/// Values bound to the parameters of a prepared statement, from the first: integers, reals and
/// nulls at once; texts and blobs copied into the statement's `BindingBuffer` and bound, without
/// another copy, once the row is complete (`bindBytes()`), so that SQLite does not allocate, copy
/// and free each one.
struct BoundValues: RowValues {
    let statement: OpaquePointer
    let buffer: BindingBuffer
    private(set) var count: Int32 = 0

    init(_ statement: OpaquePointer, buffer: BindingBuffer) {
        self.statement = statement
        self.buffer = buffer
        buffer.removeAll()
    }

    mutating func add(_ value: Int64) { sqlite3_bind_int64(statement, next(), value) }
    mutating func add(_ value: Double) { sqlite3_bind_double(statement, next(), value) }
    mutating func add(_ value: String) {
        var text = value
        let i = next()
        text.withUTF8 { buffer.append(UnsafeRawBufferPointer($0), parameter: i, blob: false) }
    }
    mutating func add(_ value: UUID) {
        let i = next()
        withUnsafeBytes(of: value.uuid) { buffer.append($0, parameter: i, blob: true) }
    }
    mutating func addNull() { sqlite3_bind_null(statement, next()) }

    private mutating func next() -> Int32 {
        count += 1
        return count
    }

    /// Binds the texts and blobs of the row from the buffer, which stays unchanged until the
    /// statement's next row (SQLITE_STATIC: SQLite reads them in place while it steps).
    func bindBytes() {
        let base = buffer.base
        for value in buffer.values {
            let bytes = base + value.offset
            if value.blob {
                sqlite3_bind_blob(statement, value.parameter, bytes, value.count, BindingBuffer.static)
            } else {
                sqlite3_bind_text(statement, value.parameter, bytes.assumingMemoryBound(to: CChar.self), value.count, BindingBuffer.static)
            }
        }
    }
}

/// The bytes of one row's texts and blobs (``BoundValues``), kept by a prepared statement and
/// reused from row to row. It grows while a row is filled, before any of it is bound.
final class BindingBuffer {
    /// SQLite's SQLITE_STATIC: the bytes stay valid, unchanged, until the parameter is bound again.
    static let `static` = unsafeBitCast(0, to: sqlite3_destructor_type.self)

    struct Value {
        var parameter: Int32
        var offset: Int
        var count: Int32
        var blob: Bool
    }

    // Used by one writer at a time, on every value it binds: exclusive access is not checked at run time.
    @exclusivity(unchecked) private(set) var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private(set) var values: [Value] = []

    init(capacity: Int = 1024) {
        self.capacity = capacity
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    func removeAll() {
        used = 0
        values.removeAll(keepingCapacity: true)
    }

    func append(_ bytes: UnsafeRawBufferPointer, parameter: Int32, blob: Bool) {
        if used + bytes.count > capacity {
            let grown = max(capacity * 2, used + bytes.count)
            let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            moved.copyMemory(from: base, byteCount: used)
            base.deallocate()
            base = moved
            capacity = grown
        }
        if let source = bytes.baseAddress, !bytes.isEmpty { (base + used).copyMemory(from: source, byteCount: bytes.count) }
        values.append(Value(parameter: parameter, offset: used, count: Int32(bytes.count), blob: blob))
        used += bytes.count
    }
}

/// A statement prepared once and run for many rows, its values bound through ``BoundValues``.
struct PreparedStatement {
    let statement: Statement
    let buffer: BindingBuffer
    /// Whether the statement outlives the buffer (then no byte of it stays bound after a row).
    private let kept: Bool

    init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        buffer = BindingBuffer()
        kept = false
    }

    /// One of the statements the connection keeps (`Database.cachedStatement(sql:)`), for one row.
    init(cached statement: Statement) {
        self.statement = statement
        buffer = BindingBuffer(capacity: 256)
        kept = true
    }

    /// Binds the values `fill` adds (one for each of the statement's parameters) and runs the
    /// statement once.
    func run(_ fill: (inout BoundValues) throws -> Void) throws {
        let handle = statement.sqliteStatement
        var values = BoundValues(handle, buffer: buffer)
        try fill(&values)
        guard values.count == sqlite3_bind_parameter_count(handle) else {
            // Every parameter is bound at each row: one left from the row before would read bytes
            // that the buffer has overwritten since.
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "\(values.count) values for \(sqlite3_bind_parameter_count(handle)) parameters",
                sql: statement.sql)
        }
        values.bindBytes()
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        if kept { sqlite3_clear_bindings(handle) }
        guard code == SQLITE_DONE else {
            let message = sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }
}

extension Database {
    /// Runs the statement of `sql` that the connection keeps once, its values bound as
    /// ``PreparedStatement`` binds them, without GRDB's `StatementArguments` (a value boxed and
    /// checked each: a third of the time of `replay --db`'s writer).
    func run(cached sql: String, _ fill: (inout BoundValues) throws -> Void) throws {
        try PreparedStatement(cached: try cachedStatement(sql: sql)).run(fill)
    }
}
