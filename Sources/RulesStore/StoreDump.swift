import GRDB

/// A full, stable text dump of a database: every table, every row, ordered.
enum StoreDump {
    static func dump(_ db: Database) throws -> String {
        var out = ""
        let tables = try String.fetchAll(
            cached: db,
            sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                """)
        for table in tables {
            let quotedTable = table.quotedDatabaseIdentifier
            let columns = try db.columns(in: table).map(\.name)
            out += "## \(table) (\(columns.joined(separator: ", ")))\n"
            let order = (1...max(1, columns.count)).map(String.init).joined(separator: ", ")
            let rows = try Row.fetchAll(cached: db, sql: "SELECT * FROM \(quotedTable) ORDER BY \(order)")
            for row in rows {
                out += row.databaseValues.map(\.description).joined(separator: " | ") + "\n"
            }
        }
        let schema = try String.fetchAll(cached: db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
        out += "## schema\n" + schema.joined(separator: "\n") + "\n"
        return out
    }
}
