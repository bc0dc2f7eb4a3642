import Foundation

/// Paths of the repository the tests run in.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let rules = root.appendingPathComponent("rules")
    static let graduatedRecovery = root.appendingPathComponent("examples/graduated-recovery")
    static let missNeverLowersTier = root.appendingPathComponent("examples/miss-never-lowers-tier")
}
