import Foundation
import RulesModel
import RulesSim

/// Paths and small configurations shared by the simulation tests.
enum SimTestSupport {
    /// The package root (where `rules/` and `examples/personas/` are).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var rules: String { root.appendingPathComponent("rules").path }
    static var personas: String { root.appendingPathComponent("examples/personas").path }

    /// A small run of the standard cohort (debug builds are slow: a few dozen user-weeks).
    static func config(
        days: Int = 7, users: Int = 24, jobs: Int = 1, mix: String? = nil, database: String? = nil,
        shard: Shard = .whole, seed: UInt64 = 11
    ) throws -> SimulationConfig {
        SimulationConfig(
            duration: try SimulationDuration("\(days)d"), users: users, seed: seed,
            mix: try mix.map { try PersonaMix([$0]) } ?? .standard, personaFolders: [personas], rules: rules,
            jobs: jobs, shard: shard, database: database, chunkSize: 5)
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The rows of `table` in a `Store.dump()`, each split into its columns by name.
    static func rows(of table: String, in dump: String) -> [[String: String]] {
        var columns: [String] = []
        var rows: [[String: String]] = []
        var inside = false
        for line in dump.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                inside = line.hasPrefix("## \(table) (")
                if inside {
                    let list = line.drop { $0 != "(" }.dropFirst().dropLast()
                    columns = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                }
                continue
            }
            guard inside, !line.isEmpty else { continue }
            let values = line.components(separatedBy: " | ")
            rows.append(Dictionary(uniqueKeysWithValues: zip(columns, values)))
        }
        return rows
    }
}
