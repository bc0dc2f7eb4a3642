import Foundation

/// A mark a user puts on one day of a habit task (issue 17): a skip ("not today, and it does not
/// count against me"), a streak freeze used on a day, or a freeze equipped (held for later).
///
/// Decisions: skips and used freezes are one per task and day (a second is refused); equipped
/// freezes may be several on a day (each is one freeze held). `createdAt` is when it was marked.
public struct DayMark: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var taskID: UUID
    public var day: DayID
    public var kind: DayMarkKind
    public var createdAt: EpochMillis

    public init(userID: UserID, taskID: UUID, day: DayID, kind: DayMarkKind, createdAt: EpochMillis) {
        self.userID = userID
        self.taskID = taskID
        self.day = day
        self.kind = kind
        self.createdAt = createdAt
    }

    public func validate() throws {
        try FieldCheck("DayMark").timestamp("createdAt", createdAt)
    }
}

/// What a ``DayMark`` records.
public enum DayMarkKind: String, Sendable, Codable, CaseIterable {
    case skip
    case freezeUsed
    case freezeEquipped

    /// Whether a task holds at most one of these per day.
    public var isOncePerDay: Bool { self != .freezeEquipped }
}
