import GRDB

/// The shape of a database's schema, read from its catalogue alone (`PRAGMA table_list`,
/// `table_xinfo`, `sqlite_master`), before any row is: what each name is (a table, a view, a
/// virtual table), each table's columns, and the triggers. A file that only claims to be a
/// database of rulesrun (its `meta` says so) can make a read run for ever — a view over an endless
/// recursive query where a table should be — or fail half-way with SQL of its own: its shape is
/// compared with ``current()``, the schema this program writes, before it is read.
struct SchemaShape: Equatable {
    struct Column: Equatable {
        var name: String
        var type: String
        var notNull: Bool
        /// Its place in the primary key (0: not part of it).
        var primaryKey: Int
        /// 0: an ordinary column; 2 and 3: generated (`table_xinfo`'s `hidden`).
        var hidden: Int

        var description: String {
            let words = [name, type] + (notNull ? ["NOT NULL"] : []) + (primaryKey > 0 ? ["PRIMARY KEY"] : [])
            return (words + (hidden > 1 ? ["GENERATED"] : [])).filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    struct Entry: Equatable {
        /// `table`, `view`, `virtual` or `shadow` (`PRAGMA table_list`).
        var kind: String
        var withoutRowid: Bool
        var strict: Bool
        /// A table's columns (none for the other kinds).
        var columns: [Column]
    }

    /// Every name of the main schema but SQLite's own (`sqlite_…`).
    var entries: [String: Entry]
    /// Each trigger's table and SQL.
    var triggers: [String: String]

    /// Reads the shape of the main schema of `db`.
    static func read(_ db: Database) throws -> SchemaShape {
        var entries: [String: Entry] = [:]
        for row in try Row.fetchAll(db, sql: "PRAGMA main.table_list") {
            let name: String = row["name"]
            if name.lowercased().hasPrefix("sqlite_") { continue }
            let kind: String = row["type"]
            var columns: [Column] = []
            if kind == "table" {
                for column in try Row.fetchAll(db, sql: "PRAGMA main.table_xinfo(\(name.quotedDatabaseIdentifier))") {
                    columns.append(
                        Column(
                            name: column["name"], type: (column["type"] as String? ?? "").uppercased(), notNull: column["notnull"],
                            primaryKey: column["pk"], hidden: column["hidden"]))
                }
            }
            entries[name] = Entry(kind: kind, withoutRowid: row["wr"], strict: row["strict"], columns: columns)
        }
        var triggers: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name, sql FROM main.sqlite_master WHERE type = 'trigger'") {
            triggers[row["name"]] = "\(row["tbl_name"] as String? ?? "") \(row["sql"] as String? ?? "")"
        }
        return SchemaShape(entries: entries, triggers: triggers)
    }

    /// The shape of the schema this program writes (``Migrations/currentVersion``), read from a
    /// new database in memory.
    static func current() throws -> SchemaShape {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue)
        return try queue.read(read)
    }

    /// Whether `name` is absent, or is the table `expected` has: reading it then runs nothing but
    /// a scan of its rows.
    func isAbsentOrExpected(_ name: String, _ expected: SchemaShape) -> Bool {
        entries[name] == nil || entries[name] == expected.entries[name]
    }

    /// The first way in which this shape differs from `expected`, in words, or nil when it does
    /// not: "app_user is a view, expected a table", "event_log.payload_json is missing", …
    func difference(from expected: SchemaShape) -> String? {
        for name in expected.entries.keys.sorted() {
            let want = expected.entries[name]!
            guard let have = entries[name] else { return "no table \(name)" }
            guard have.kind == want.kind else { return "\(name) is \(Self.article(have.kind)), expected \(Self.article(want.kind))" }
            for (option, has, wanted) in [("STRICT", have.strict, want.strict), ("WITHOUT ROWID", have.withoutRowid, want.withoutRowid)]
            where has != wanted {
                return "\(name) is \(has ? "" : "not ")\(option), expected \(wanted ? "" : "not ")\(option)"
            }
            for column in want.columns where !have.columns.contains(where: { $0.name == column.name }) {
                return "\(name).\(column.name) is missing (expected \(column.description))"
            }
            for column in have.columns {
                guard let wanted = want.columns.first(where: { $0.name == column.name }) else {
                    return "\(name).\(column.name) is not a column of rulesrun's \(name)"
                }
                if column != wanted { return "\(name).\(column.name) is \(column.description), expected \(wanted.description)" }
            }
        }
        for name in entries.keys.sorted() where expected.entries[name] == nil {
            return "\(Self.article(entries[name]!.kind)) \(name) that rulesrun's schema has not"
        }
        for name in triggers.keys.sorted() where triggers[name] != expected.triggers[name] {
            return expected.triggers[name] == nil
                ? "a trigger \(name) that rulesrun's schema has not" : "the trigger \(name) is not rulesrun's"
        }
        for name in expected.triggers.keys.sorted() where triggers[name] == nil { return "no trigger \(name)" }
        return nil
    }

    static func article(_ kind: String) -> String {
        switch kind {
        case "virtual": "a virtual table"
        case "shadow": "a shadow table (of a virtual table)"
        default: "a \(kind)"
        }
    }
}
