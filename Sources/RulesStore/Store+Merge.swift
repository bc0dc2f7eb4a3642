import Foundation
import GRDB

/// One database of a shard (`simulate --shard i/n --db`, `simulate --db-shards N`), read for
/// ``Store/merge(_:)``: its path and the ids of its users.
package struct MergePart: Sendable, Equatable {
    package var path: String
    /// The ids of its users (nil: it has none).
    package var users: ClosedRange<Int64>?
    /// The name SQLite reads it by (``InputDatabase/source``).
    package var source: String
}

extension Store {
    /// Reads the databases of `inputs` (nothing is written to them, nothing is made beside them:
    /// ``InputDatabase``) and returns them in the order of their users: each must be a database of
    /// this program at this program's migration level, with its schema (``SchemaShape``: tables
    /// where it has tables, with their columns, and no view, no trigger of another), compared
    /// before any row is read, with the same `meta` as the first, and their users must follow one
    /// another without overlap or gap (user ids are the users' numbers in the whole run). Throws
    /// ``StoreError`` naming the file and what was expected.
    package static func mergeParts(_ inputs: [InputDatabase]) throws -> [MergePart] {
        var parts: [MergePart] = []
        var firstMeta: [String]?
        let schema = try SchemaShape.current()
        for input in inputs {
            let path = input.path
            let expected = InputDatabase.expected
            var configuration = Configuration()
            configuration.readonly = !input.isCopy
            let (meta, users): ([String], Row?)
            do {
                let queue = try DatabaseQueue(path: input.source, configuration: configuration)
                defer { try? queue.close() }
                (meta, users) = try queue.read { db in
                    try checkSchema(db, path: path, schema: schema)
                    return (
                        try String.fetchAll(db, sql: "SELECT key || '=' || value FROM meta ORDER BY key"),
                        try Row.fetchOne(db, sql: "SELECT min(user_id), max(user_id), count(*) FROM app_user")
                    )
                }
            } catch let error as StoreError where error.message.hasPrefix(path) {
                throw StoreError(error.code, error.message.hasSuffix(expected) ? error.message : "\(error.message); \(expected)")
            } catch let error as StoreError {
                throw StoreError(error.code, "\(path): \(error.message); \(expected)")
            } catch let error as DatabaseError {
                throw StoreError(.notARulesDatabase, "\(path): cannot be read as an SQLite database (\(error.message ?? "\(error.resultCode)")); \(expected)")
            }
            if let firstMeta, meta != firstMeta {
                throw StoreError(
                    .notARulesDatabase,
                    "\(path): its meta (\(meta.joined(separator: ", "))) is not \(parts[0].path)'s (\(firstMeta.joined(separator: ", "))); \(expected)"
                )
            }
            firstMeta = firstMeta ?? meta
            var part = MergePart(path: path, users: nil, source: input.source)
            if let users, let low = users[0] as Int64?, let high = users[1] as Int64? {
                let count = users[2] as Int64? ?? 0
                guard count == high - low + 1 else {
                    throw StoreError(
                        .notARulesDatabase, "\(path): its \(count) users are not the consecutive ids \(low)–\(high); \(expected)")
                }
                part.users = low...high
            }
            parts.append(part)
        }
        let sorted = parts.filter { $0.users != nil }.sorted { $0.users!.lowerBound < $1.users!.lowerBound }
        for (previous, next) in zip(sorted, sorted.dropFirst()) {
            let a = previous.users!, b = next.users!
            if b.lowerBound <= a.upperBound {
                throw StoreError(
                    .constraint,
                    "\(previous.path) (users \(a.lowerBound)–\(a.upperBound)) and \(next.path) (users \(b.lowerBound)–\(b.upperBound)) overlap: they are not shards of one run"
                )
            }
            if b.lowerBound > a.upperBound + 1 {
                throw StoreError(
                    .constraint,
                    "users \(a.upperBound + 1)–\(b.lowerBound - 1) are in none of the databases (\(previous.path) ends at \(a.upperBound), \(next.path) starts at \(b.lowerBound)): a shard is missing"
                )
            }
        }
        return sorted + parts.filter { $0.users == nil }
    }

    /// Throws unless `db` is a database of this program at this program's migration level, with
    /// its schema (`schema`, ``SchemaShape/current()``: tables where it has tables, with their
    /// columns, and no view, no trigger of another), compared before any row is read: what a
    /// database read as an input must be (``mergeParts(_:)``, ``StoredUsers``).
    static func checkSchema(_ db: Database, path: String, schema: SchemaShape, expected: String = InputDatabase.expected) throws {
        let shape = try SchemaShape.read(db)
        // The migration level first (an older or newer rulesrun's schema differs from this
        // one's), read when `meta` and `grdb_migrations` are the tables they are here.
        if shape.isAbsentOrExpected("meta", schema), shape.isAbsentOrExpected("grdb_migrations", schema) {
            try Migrations.refuseIfTooNew(db, path: path)
            let level = try Migrations.recordedVersion(db)
            guard level == Migrations.currentVersion else {
                throw StoreError(
                    .notARulesDatabase,
                    "\(path): migration level \(level.map(String.init) ?? "none") (meta.rulesrun_migration), expected "
                        + "\(Migrations.currentVersion): run its simulation again with this rulesrun"
                )
            }
        }
        if let difference = shape.difference(from: schema) {
            throw StoreError(
                .notARulesDatabase, "\(path): its schema is not rulesrun's (\(difference)); \(expected)")
        }
    }

    /// The SQLite errors of a merge that come from what a part holds, not from the file written.
    static let readErrors: [ResultCode] = [
        .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_CANTOPEN, .SQLITE_ERROR, .SQLITE_MISMATCH, .SQLITE_CONSTRAINT, .SQLITE_TOOBIG,
    ]

    /// Copies the rows of `parts` (from ``mergeParts(_:)``, in user order) into this store, a new
    /// database, in one transaction: the result is the database one run of all their users
    /// writes. Keys SQLite numbers itself (an `INTEGER PRIMARY KEY` that is neither a user id nor
    /// a reference: `tracker_task.task_key`, …) are numbered on from the rows before, as a single
    /// run numbers them, and the columns that refer to them follow; `meta` is the parts'.
    package func merge(_ parts: [MergePart]) throws {
        try writer.writeWithoutTransaction { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            // Rows are copied in their order (a table without rowid is ordered by its key anyway).
            let withoutRowid = Set(
                try String.fetchAll(
                    db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table' AND upper(sql) LIKE '%WITHOUT ROWID%'"))
            var numbered: [String: String] = [:]  // table → its key SQLite numbers
            var references: [String: [(column: String, table: String)]] = [:]  // table → its columns referring to one
            var columns: [String: [String]] = [:]
            for table in tables {
                let info = try db.columns(in: table)
                columns[table] = info.map(\.name)
                let keys = try db.foreignKeys(on: table)
                let referring = Set(keys.flatMap { $0.mapping.map(\.origin) })
                let primary = info.filter { $0.primaryKeyIndex > 0 }
                if table != "app_user", primary.count == 1, primary[0].type.uppercased() == "INTEGER", !referring.contains(primary[0].name)
                {
                    numbered[table] = primary[0].name
                }
                for key in keys {
                    for pair in key.mapping { references[table, default: []].append((pair.origin, key.destinationTable)) }
                }
            }
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            try db.execute(sql: "DELETE FROM main.meta")
            // As a simulation's bulk load does: the indexes that only speed up reads are built once
            // at the end (one sort each), in the order a simulation builds them.
            var deferred: [String] = []
            try db.inTransaction {
                deferred = try BulkWriter.dropReadIndexes(db)
                return .commit
            }
            // One transaction per part (SQLite attaches outside transactions); the file is new and
            // only put in place once complete, so an interrupted merge leaves nothing.
            for (i, part) in parts.enumerated() {
                // What SQLite says of what it read is said of the part that holds it.
                var table = ""
                func naming(_ body: () throws -> Void) throws {
                    do { try body() } catch let error as DatabaseError where Self.readErrors.contains(error.resultCode) {
                        let verb = error.resultCode == .SQLITE_CONSTRAINT ? "merged" : "read"
                        let what = table.isEmpty ? "cannot be attached" : "its table \(table) cannot be \(verb)"
                        throw StoreError(
                            .notARulesDatabase, "\(part.path): \(what) (\(error.message ?? "\(error.resultCode)")); \(InputDatabase.expected)")
                    }
                }
                try naming { try db.execute(sql: "ATTACH DATABASE ? AS part", arguments: [part.source]) }
                defer { try? db.execute(sql: "DETACH DATABASE part") }
                try naming {
                    try db.inTransaction {
                        var offsets: [String: Int64] = [:]
                        for (table, key) in numbered {
                            offsets[table] =
                                try Int64.fetchOne(
                                    db,
                                    sql: "SELECT coalesce(max(\(key.quotedDatabaseIdentifier)), 0) FROM main.\(table.quotedDatabaseIdentifier)")
                                ?? 0
                        }
                        for name in tables where name != "grdb_migrations" && (name != "meta" || i == 0) {
                            table = name
                            let names = columns[table]!
                            let values = names.map { name -> String in
                                let quoted = name.quotedDatabaseIdentifier
                                if numbered[table] == name, let offset = offsets[table], offset > 0 { return "\(quoted) + \(offset)" }
                                if let target = references[table]?.first(where: { $0.column == name })?.table, numbered[target] != nil,
                                    let offset = offsets[target], offset > 0
                                {
                                    return "\(quoted) + \(offset)"
                                }
                                return quoted
                            }
                            let list = names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                            try db.execute(
                                sql: """
                                    INSERT INTO main.\(table.quotedDatabaseIdentifier) (\(list))
                                    SELECT \(values.joined(separator: ", ")) FROM part.\(table.quotedDatabaseIdentifier)\(withoutRowid.contains(table) ? "" : " ORDER BY rowid")
                                    """)
                        }
                        return .commit
                    }
                }
            }
            try db.inTransaction {
                for sql in deferred { try db.execute(sql: sql) }
                return .commit
            }
            let broken = try Row.fetchAll(db, sql: "PRAGMA main.foreign_key_check")
            if let first = broken.first {
                throw StoreError(
                    .constraint,
                    "the merged database has \(broken.count) rows referring to rows it does not hold (the first in \(first[0] as String? ?? "?")): the parts are not shards of one run"
                )
            }
        }
    }
}
