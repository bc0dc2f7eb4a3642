import Foundation
import RulesSim

/// Paths and a small simulation shared by the benchmark tests.
enum BenchTestSupport {
    /// The package root (where `rules/` and `examples/personas/` are).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A small run of the standard cohort with the default rules, one job.
    static func config(days: Int, users: Int, database: String?) throws -> SimulationConfig {
        SimulationConfig(
            duration: try SimulationDuration("\(days)d"), users: users, seed: 11, mix: .standard,
            personaFolders: [root.appendingPathComponent("examples/personas").path],
            rules: root.appendingPathComponent("rules").path, jobs: 1, database: database, chunkSize: 5)
    }

    /// A fresh temporary folder (the caller removes it).
    static func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
