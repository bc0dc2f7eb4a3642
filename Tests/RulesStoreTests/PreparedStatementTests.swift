import Foundation
import GRDB
@testable import RulesStore
import Testing

/// The bulk path's `PreparedStatement`: texts and blobs are copied into its buffer and bound in
/// place once the row is complete, so each row must store exactly its own values.
@Suite struct PreparedStatementTests {
    @Test func everyRowKeepsItsOwnTextsAndBlobs() throws {
        let queue = try DatabaseQueue()
        let rows: [(text: String, other: String?, id: UUID)] = (0..<300).map { i in
            // Empty, short, multi-byte and longer than the buffer's first kilobyte, in turn.
            let text = ["", "é", "day-\(i)", String(repeating: "long ✓ text ", count: i % 7 == 0 ? 200 : 1)][i % 4]
            return (
                text, i % 3 == 0 ? nil : "other \(i)",
                UUID(uuid: (UInt8(i % 256), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(i / 256)))
            )
        }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER, text TEXT, other TEXT, id BLOB, x REAL)")
            let insert = try PreparedStatement(db, "INSERT INTO t (n, text, other, id, x) VALUES (?, ?, ?, ?, ?)")
            for (n, row) in rows.enumerated() {
                try insert.run { values in
                    values.add(n)
                    values.add(row.text)
                    values.add(row.other)
                    values.add(row.id)
                    values.add(Double(n) / 2)
                }
            }
        }
        try queue.read { db in
            let stored = try Row.fetchAll(db, sql: "SELECT n, text, other, id, x FROM t ORDER BY n")
            #expect(stored.count == rows.count)
            for (n, row) in stored.enumerated() {
                #expect(row["n"] as Int == n)
                #expect(row["text"] as String == rows[n].text)
                #expect(row["other"] as String? == rows[n].other)
                #expect(row["id"] as Data == withUnsafeBytes(of: rows[n].id.uuid) { Data($0) })
                #expect(row["x"] as Double == Double(n) / 2)
            }
        }
    }

    /// A parameter left unbound would keep the previous row's value, read from bytes the buffer has
    /// overwritten since: a row with too few or too many values is refused, and nothing is written.
    @Test func aRowMustBindEveryParameter() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT, b TEXT)")
            let insert = try PreparedStatement(db, "INSERT INTO t (a, b) VALUES (?, ?)")
            try insert.run { values in
                values.add("first a")
                values.add("first b")
            }
            #expect(throws: DatabaseError.self) { try insert.run { values in values.add("only a") } }
            #expect(throws: DatabaseError.self) {
                try insert.run { values in
                    values.add("a")
                    values.add("b")
                    values.add("c")
                }
            }
        }
        let stored = try queue.read { db in try Row.fetchAll(db, sql: "SELECT a, b FROM t") }
        #expect(stored.map { [$0["a"] as String, $0["b"] as String] } == [["first a", "first b"]])
    }
}
