import GRDB

/// Schema version 4: users' exposures to the arms of experiments (staged rollouts of signed
/// bundles), one row per user, experiment and arm, the first kept (`ExperimentExposure`).
/// Retention deletes none of them: analysis by arm reads them.
enum SchemaV4 {
    static func create(_ db: Database) throws {
        let name = { (column: String) in "length(\(column)) BETWEEN 1 AND 40 AND \(column) NOT GLOB '*[^a-z0-9._-]*'" }
        try db.execute(
            sql: """
                CREATE TABLE experiment_exposure (
                  user_id INTEGER NOT NULL REFERENCES app_user(user_id),
                  experiment TEXT NOT NULL CHECK (\(name("experiment"))),
                  arm TEXT NOT NULL CHECK (\(name("arm"))),
                  revision INTEGER NOT NULL CHECK (revision BETWEEN 1 AND 2147483647),
                  ts_utc_ms INTEGER NOT NULL CHECK (ts_utc_ms >= 0),
                  PRIMARY KEY (user_id, experiment, arm)
                ) STRICT;
                """)
    }
}
