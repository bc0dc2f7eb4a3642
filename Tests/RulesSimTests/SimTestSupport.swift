import Foundation
import LuaHost
import RulesModel
import RulesSim
import Testing

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

    /// A persona file of `text`, loaded and checked (its problems as the failure).
    static func loadPersona(_ text: String) throws -> Result<Persona, InputFileError> {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("p.lua").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let host = try LuaHost()
        return Result { () throws(InputFileError) in try PersonaLoader.load(path: path, host: host) }
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Each user's last A8 cleanup (by `user_id` as dumped), from its engine state
    /// (`earned.cleanup.at`); a user without one fails the test.
    static func lastCleanups(in dump: String) throws -> [String: Int64] {
        var found: [String: Int64] = [:]
        for row in rows(of: "engine_state", in: dump) {
            // The dump quotes text: first the quoted text, then its JSON.
            let text = try #require(try JSONSerialization.jsonObject(with: Data(row["state_json"]!.utf8), options: .fragmentsAllowed) as? String)
            let state = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let cleanup = try #require((state["earned"] as? [String: Any])?["cleanup"] as? [String: Any], "no cleanup in \(text)")
            found[row["user_id"]!] = try #require(cleanup["at"] as? NSNumber).int64Value
        }
        return found
    }

    /// The rows of `table` in a `Store.dump()`, each split into its columns by name.
    static func rows(of table: String, in dump: String) -> [[String: String]] {
        var columns: [String] = []
        var rows: [[String: String]] = []
        var inside = false
        // Foundation's split (a String's split by Character cost a debug build 2 s of the suite).
        for line in dump.components(separatedBy: "\n") {
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
