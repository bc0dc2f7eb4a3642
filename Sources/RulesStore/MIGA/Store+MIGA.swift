import Foundation
import GRDB
import RulesModel

extension Store {
    /// Records a Gateway Screen interaction (validated by the seed's rules first).
    package func recordUsageEvent(_ event: UsageEvent) throws {
        try event.validate()
        try write { db in
            try Self.requireUser(db, event.userID)
            try Self.insert(event, db)
        }
    }

    /// The row of a usage event (``recordUsageEvent(_:)``).
    static func insert(_ event: UsageEvent, _ db: Database) throws {
        try db.execute(cached: MigaRows.insertUsageEventSQL, arguments: MigaRows.usageEventArguments(event))
    }

    /// Inserts or updates a monitored app.
    package func saveSelectedApp(_ app: SelectedApp) throws {
        try app.validate()
        try write { db in
            try Self.requireUser(db, app.userID)
            if let owner = try Int64.fetchOne(
                cached: db, sql: "SELECT user_id FROM miga_selected_app WHERE app_uuid = ?", arguments: [app.id.blob]),
                owner != app.userID.rawValue
            {
                throw StoreError(.constraint, "SelectedApp \(app.id.uuidString) belongs to another user")
            }
            try db.execute(
                cached: """
                    INSERT INTO miga_selected_app(app_uuid, user_id, app_name, url_scheme, icon_name, is_installed, date_added_ts_utc_ms, order_index)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(app_uuid) DO UPDATE SET app_name = excluded.app_name, url_scheme = excluded.url_scheme, icon_name = excluded.icon_name,
                      is_installed = excluded.is_installed, order_index = excluded.order_index
                    """,
                arguments: [
                    app.id.blob, app.userID.rawValue, app.appName, app.urlScheme, app.iconName, app.isInstalled, app.dateAdded,
                    app.orderIndex,
                ])
        }
    }

    /// Removes a monitored app.
    package func removeSelectedApp(_ userID: UserID, id: UUID) throws {
        try write { db in
            try db.execute(
                cached: "DELETE FROM miga_selected_app WHERE app_uuid = ? AND user_id = ?", arguments: [id.blob, userID.rawValue])
            guard db.changesCount == 1 else { throw StoreError.notFound("SelectedApp \(id.uuidString) of user", "\(userID)") }
        }
    }

    /// Replaces MIGA's settings of a user.
    package func saveMigaSettings(_ userID: UserID, _ settings: MigaSettings, now: EpochMillis) throws {
        try Millis.check(now, entity: "MigaSettings", field: "updated_ts_utc_ms")
        try settings.validate()
        try write { db in
            try Self.requireUser(db, userID)
            try db.execute(
                cached: """
                    UPDATE miga_settings SET fre_phase = ?, has_completed_onboarding = ?, gateway_timer_duration = ?, determination_level = ?,
                      selected_interest_tags = ?, updated_ts_utc_ms = ? WHERE user_id = ?
                    """,
                arguments: [
                    settings.frePhase.rawValue, settings.hasCompletedOnboarding, settings.gatewayTimerDuration,
                    settings.determinationLevel, try ModelJSON.encode(settings.selectedInterestTags), now, userID.rawValue,
                ])
        }
    }
}
