import Foundation

/// A grouping label for habit tasks (habit-tracker-data-model.md §2.1). Four presets are seeded
/// for every user; presets cannot be deleted.
///
/// Decision: the seed gives no length for `name`; it is 1–50 characters, not white space only.
public struct Category: Hashable, Sendable, Codable, Validatable {
    public static let maxNameLength = 50

    /// The four built-in categories, in their seed order (`sortOrder` 0…3).
    public static let presetNames = ["Health", "Fitness", "Learning", "Social"]

    public var id: UUID
    public var userID: UserID
    public var name: String
    public var isPreset: Bool
    public var sortOrder: Int
    public var createdAt: EpochMillis

    public init(
        id: UUID = UUID(), userID: UserID, name: String, isPreset: Bool = false, sortOrder: Int = 0,
        createdAt: EpochMillis
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.isPreset = isPreset
        self.sortOrder = sortOrder
        self.createdAt = createdAt
    }

    /// The four preset categories of a new user.
    public static func presets(for userID: UserID, createdAt: EpochMillis, makeID: () -> UUID = UUID.init) -> [Category] {
        presetNames.enumerated().map { index, name in
            Category(id: makeID(), userID: userID, name: name, isPreset: true, sortOrder: index, createdAt: createdAt)
        }
    }

    public func validate() throws {
        let check = FieldCheck("Category")
        try check.text("name", name, max: Category.maxNameLength)
        try check.atLeast("sortOrder", sortOrder, 0)
        try check.timestamp("createdAt", createdAt)
    }
}
