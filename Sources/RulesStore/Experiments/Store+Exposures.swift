import GRDB
import RulesModel

/// A user's exposure to one arm of an experiment (a staged rollout of a signed bundle): the first
/// time the user got a decision under that arm, with the bundle's revision then
/// (`experiment_exposure`, migration 4). One per user, experiment and arm: the first is kept, and
/// another arm of the same experiment is another exposure (the user moved). Analysis by arm reads
/// them, so retention never deletes them.
package struct ExperimentExposure: Sendable, Hashable, Validatable {
    package var userID: UserID
    package var experiment: String
    package var arm: String
    /// The revision of the bundle whose arm the user got (1…2,147,483,647, as a manifest's).
    package var revision: Int
    package var exposedAt: EpochMillis

    package init(userID: UserID, experiment: String, arm: String, revision: Int, exposedAt: EpochMillis) {
        self.userID = userID
        self.experiment = experiment
        self.arm = arm
        self.revision = revision
        self.exposedAt = exposedAt
    }

    /// The revisions a bundle may have.
    package static let revisions = 1...Int(Int32.max)

    /// What an experiment's or an arm's name is, as a bundle's manifest names them.
    package static let nameRule = "1 to 40 of a-z, 0-9, '-', '_' and '.'"

    /// Whether `name` is an experiment's or an arm's name (``nameRule``).
    package static func isName(_ name: String) -> Bool {
        (1...40).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
    }

    package func validate() throws {
        for (field, name) in [("experiment", experiment), ("arm", arm)] where !Self.isName(name) {
            throw ModelValidationError(
                entity: "ExperimentExposure", field: field, rule: Self.nameRule, found: "\"\(name.prefix(60))\"")
        }
        guard Self.revisions.contains(revision) else {
            throw ModelValidationError(
                entity: "ExperimentExposure", field: "revision", rule: "from 1 to \(Self.revisions.upperBound)",
                found: "\(revision)")
        }
        try Millis.check(exposedAt, entity: "ExperimentExposure", field: "ts_utc_ms")
    }
}

extension Store {
    /// Records a user's exposure. A second exposure of the user to the same arm of the same
    /// experiment is refused (``StoreError/Code-swift.struct/constraint``): the first is kept.
    package func addExposure(_ exposure: ExperimentExposure) throws {
        try exposure.validate()
        try write { db in
            try Self.requireUser(db, exposure.userID)
            if try Snapshot(db).exposure(exposure.userID, experiment: exposure.experiment, arm: exposure.arm) != nil {
                throw StoreError.duplicateExposure(exposure)
            }
            let arguments = ArgumentValues.of { ExposureRows.values(exposure, into: &$0) }
            try db.execute(cached: ExposureRows.insertSQL, arguments: arguments)
        }
    }

    package func exposures(_ userID: UserID) throws -> [ExperimentExposure] { try read { try $0.exposures(userID) } }

    package func exposure(_ userID: UserID, experiment: String, arm: String) throws -> ExperimentExposure? {
        try read { try $0.exposure(userID, experiment: experiment, arm: arm) }
    }
}

extension Snapshot {
    /// The user's exposures, in the order they happened (at the same instant, by experiment and arm).
    package func exposures(_ userID: UserID) throws -> [ExperimentExposure] {
        try all(
            "SELECT * FROM experiment_exposure WHERE user_id = ? ORDER BY ts_utc_ms, experiment, arm", [userID.rawValue],
            ExposureRows.exposure)
    }

    /// The user's exposure to `arm` of `experiment`, nil when there is none: one read of the primary key.
    package func exposure(_ userID: UserID, experiment: String, arm: String) throws -> ExperimentExposure? {
        try Row.fetchOne(
            cached: db, sql: "SELECT * FROM experiment_exposure WHERE user_id = ? AND experiment = ? AND arm = ?",
            arguments: [userID.rawValue, experiment, arm]
        ).map(ExposureRows.exposure)
    }
}

extension StoreError {
    static func duplicateExposure(_ exposure: ExperimentExposure) -> StoreError {
        StoreError(
            .constraint,
            "ExperimentExposure: user \(exposure.userID) was already exposed to arm \(exposure.arm) of experiment "
                + exposure.experiment)
    }
}

/// `experiment_exposure`'s rows, for the store's operations and the bulk write.
enum ExposureRows {
    static let insertSQL = """
        INSERT INTO experiment_exposure(user_id, experiment, arm, revision, ts_utc_ms) VALUES (?, ?, ?, ?, ?)
        """

    static func values<V: RowValues>(_ exposure: ExperimentExposure, into v: inout V) {
        v.add(exposure.userID.rawValue)
        v.add(exposure.experiment)
        v.add(exposure.arm)
        v.add(exposure.revision)
        v.add(exposure.exposedAt)
    }

    static func exposure(_ row: Row) throws -> ExperimentExposure {
        let r = RowReader(row, "experiment_exposure")
        return ExperimentExposure(
            userID: try r.user(), experiment: try r.string("experiment"), arm: try r.string("arm"),
            revision: try r.int("revision"), exposedAt: try r.int64("ts_utc_ms"))
    }
}
