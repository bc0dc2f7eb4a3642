/// The check-in status of a Pressure commitment (pressure-data-model.md).
///
/// `PENDING → YES | NO | MISSED`, one way only: once set, a final status never changes.
public enum CommitmentStatus: String, Sendable, Codable, CaseIterable {
    case pending = "PENDING"
    case yes = "YES"
    case no = "NO"
    case missed = "MISSED"

    public var isFinal: Bool { self != .pending }

    /// Whether the seed allows going from `self` to `next`.
    public func canTransition(to next: CommitmentStatus) -> Bool {
        self == .pending && next != .pending
    }
}
