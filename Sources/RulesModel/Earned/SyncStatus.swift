/// Sync status, kept for future-proofing; v1.1 is local-only (A2).
public enum SyncStatus: String, Sendable, Codable, CaseIterable {
    case localOnly = "LOCAL_ONLY"
    case pending = "PENDING"
    case synced = "SYNCED"
    case failed = "FAILED"
}
