import Foundation
import GRDB
import RulesModel

/// Reads the columns of one row as model values; anything that does not parse becomes a
/// ``StoreError`` with code `corruptRow` naming the table and column (a hand-edited or damaged row).
package struct RowReader {
    let row: Row
    let table: String
    /// The row's column names, read once (each of GRDB's reads of a name asks SQLite and makes a
    /// new string: looking up every column through them cost a third of a habit replay's time).
    let names: [String]

    package init(_ row: Row, _ table: String) {
        self.row = row
        self.table = table
        self.names = Array(row.columnNames)
    }

    func corrupt(_ column: String, _ detail: String) -> StoreError {
        StoreError(.corruptRow, "\(table).\(column): \(detail)")
    }

    /// The index of the leftmost column named exactly `column`, nil when none is (then GRDB's
    /// lookup, case-insensitive, decides). The names this module reads are spelled as the schema
    /// spells them, so the exact comparison finds them; GRDB's lookup lowercases every column name
    /// of the row at each call (3 % of a replay's CPU time).
    func index(_ column: String) -> Int? {
        names.firstIndex(of: column)
    }

    func value<T: DatabaseValueConvertible>(_ column: String, _ type: T.Type = T.self) throws -> T {
        do {
            guard let i = index(column) else { return try row.decode(T.self, forColumn: column) }
            return try row.decode(T.self, atIndex: i)
        } catch {
            throw corrupt(column, "expected \(T.self), found \(row[column] as DatabaseValue? ?? .null)")
        }
    }

    func optional<T: DatabaseValueConvertible>(_ column: String, _ type: T.Type = T.self) throws -> T? {
        do {
            guard let i = index(column) else { return try row.decode(T?.self, forColumn: column) }
            return try row.decode(T?.self, atIndex: i)
        } catch {
            throw corrupt(column, "expected \(T.self) or NULL, found \(row[column] as DatabaseValue? ?? .null)")
        }
    }

    func int(_ column: String) throws -> Int { try value(column) }
    func int64(_ column: String) throws -> Int64 { try value(column) }
    func string(_ column: String) throws -> String { try value(column) }
    func bool(_ column: String) throws -> Bool { try int64(column) != 0 }
    func double(_ column: String) throws -> Double { try value(column) }

    package func uuid(_ column: String) throws -> UUID {
        let data: Data = try value(column)
        guard data.count == 16 else { throw corrupt(column, "expected a 16-byte UUID, found \(data.count) bytes") }
        return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    func optionalUUID(_ column: String) throws -> UUID? {
        guard let _: Data = try optional(column) else { return nil }
        return try uuid(column)
    }

    func parse<T>(_ column: String, _ body: (String) throws -> T) throws -> T {
        let text = try string(column)
        do { return try body(text) } catch let error as ModelValidationError {
            throw corrupt(column, "\(error.rule), found \(error.found)")
        }
    }

    func optionalParse<T>(_ column: String, _ body: (String) throws -> T) throws -> T? {
        guard let text: String = try optional(column) else { return nil }
        do { return try body(text) } catch let error as ModelValidationError {
            throw corrupt(column, "\(error.rule), found \(error.found)")
        }
    }

    func day(_ column: String) throws -> DayID { try parse(column) { try DayID($0) } }
    func optionalDay(_ column: String) throws -> DayID? { try optionalParse(column) { try DayID($0) } }
    func appID(_ column: String) throws -> AppID { try parse(column) { try AppID.parse($0) } }
    func optionalAppID(_ column: String) throws -> AppID? { try optionalParse(column) { try AppID.parse($0) } }
    func time(_ column: String) throws -> LocalTime { try parse(column) { try LocalTime($0) } }
    func optionalTime(_ column: String) throws -> LocalTime? { try optionalParse(column) { try LocalTime($0) } }

    func user(_ column: String = "user_id") throws -> UserID {
        let raw = try int64(column)
        guard let id = UserID(rawValue: raw) else { throw corrupt(column, "expected a user id ≥ 1, found \(raw)") }
        return id
    }

    func enumValue<E: RawRepresentable>(_ column: String, _ type: E.Type = E.self) throws -> E where E.RawValue == String {
        let text = try string(column)
        guard let value = E(rawValue: text) else { throw corrupt(column, "unknown \(E.self) \"\(text)\"") }
        return value
    }

    func optionalEnum<E: RawRepresentable>(_ column: String, _ type: E.Type = E.self) throws -> E? where E.RawValue == String {
        guard let text: String = try optional(column) else { return nil }
        guard let value = E(rawValue: text) else { throw corrupt(column, "unknown \(E.self) \"\(text)\"") }
        return value
    }

    func json<T: Decodable>(_ column: String, _ type: T.Type = T.self) throws -> T {
        let text = try string(column)
        do { return try ModelJSON.decode(T.self, from: text, entity: table, field: column) } catch let error as ModelValidationError {
            throw corrupt(error.field, "\(error.rule), found \(error.found)")
        }
    }

    func optionalJSON<T: Decodable>(_ column: String, _ type: T.Type = T.self) throws -> T? {
        guard let _: String = try optional(column) else { return nil }
        return try json(column, T.self)
    }
}

extension UUID {
    /// The 16 bytes stored in BLOB id columns.
    var blob: Data { withUnsafeBytes(of: uuid) { Data($0) } }

    /// Whether this id sorts before `other` as SQLite sorts the BLOBs (byte by byte).
    func precedes(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { a in withUnsafeBytes(of: other.uuid) { b in a.lexicographicallyPrecedes(b) } }
    }
}
