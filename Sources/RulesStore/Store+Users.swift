import Foundation
import GRDB
import RulesModel

extension Store {
    /// Adds a user with every app's singleton rows (see `NewUser`), all in one transaction.
    ///
    /// - Parameters:
    ///   - day: Earned's current `day_id` for the new economy state.
    ///   - timezoneID: the user's IANA time zone (Earned settings, Pressure settings).
    ///   - makeUUID: the source of the preset categories' ids (inject a seeded one for reproducible simulations).
    package func createUser(
        _ userID: UserID, day: DayID, timezoneID: String = "UTC", now: EpochMillis,
        makeUUID: () -> UUID = UUID.init
    ) throws {
        try create(try NewUser(userID, day: day, timezoneID: timezoneID, now: now, makeUUID: makeUUID))
    }

    /// Adds the rows of `user` (what ``UserRecords`` holds of a user it created), in one transaction.
    func create(_ user: NewUser) throws {
        try write(operation: "createUser(_:day:timezoneID:now:makeUUID:)") { db in
            if try Self.userExists(db, user.userID) {
                throw StoreError(.constraint, "user \(user.userID) already exists")
            }
            try user.insert(NewUser.Statements(db))
        }
    }

    /// Throws ``StoreError/Code-swift.struct/notFound`` unless the user exists.
    static func requireUser(_ db: Database, _ userID: UserID) throws {
        guard try userExists(db, userID) else { throw StoreError.notFound("user", "\(userID)") }
    }

    static func userExists(_ db: Database, _ userID: UserID) throws -> Bool {
        try Bool.fetchOne(cached: db, sql: "SELECT 1 FROM app_user WHERE user_id = ?", arguments: [userID.rawValue]) == true
    }

    /// The users of the database, in order.
    package func users() throws -> [UserID] {
        try writer.read { db in
            try Int64.fetchAll(cached: db, sql: "SELECT user_id FROM app_user ORDER BY user_id").compactMap(UserID.init(rawValue:))
        }
    }
}
