import Foundation
import GRDB
@testable import RulesStore
import Testing

/// ``RowReader`` finds a column by its exact name first, and otherwise as GRDB does
/// (case-insensitively, the leftmost).
@Suite struct RowReaderTests {
    @Test func columnsAreFoundByExactNameThenCaseInsensitively() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let row = try #require(
                try Row.fetchOne(db, sql: "SELECT 1 AS USER_ID, 7 AS user_id, 'x' AS Title, NULL AS n, 'y' AS title"))
            let r = RowReader(row, "t")
            // The exact name, though a column left of it has the same name in capitals.
            #expect(try r.int64("user_id") == 7)
            #expect(try r.int("USER_ID") == 1)
            // No column is spelled so: the leftmost of any case, as GRDB finds it.
            #expect(try r.string("TITLE") == "x")
            #expect(try r.string("title") == "y")
            #expect(try r.optional("n", Int64.self) == nil)
            #expect(try r.optional("Title", String.self) == "x")
            #expect(throws: StoreError.self) { try r.string("n") }
            #expect(throws: StoreError.self) { try r.int64("missing") }
        }
    }
}
