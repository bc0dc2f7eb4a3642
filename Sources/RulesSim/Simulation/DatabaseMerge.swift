import Foundation
import LuaHost
import RulesStore

/// `rulesrun merge --db`: the databases of a run's shards (`simulate --shard i/n --db`,
/// `simulate --db-shards N`) combined into the database of the whole run (``Store/merge(_:)``).
/// The result is written to a temporary file beside the target and renamed over it once complete
/// (``DatabaseTarget``, locked meanwhile): an interrupted or failed merge leaves nothing. An
/// existing target is replaced only when `replacing` (and only a database rulesrun wrote). The
/// inputs are read and never changed (``InputDatabase``).
package enum DatabaseMerge {
    /// Merges the databases at `paths` into `path`; returns the parts in user order. `users`: the
    /// ids the merged database must hold (those of the merged report given with the databases).
    @discardableResult
    package static func merge(
        _ paths: [String], into path: String, replacing: Bool, users: ClosedRange<Int64>? = nil
    ) throws(SimulationError) -> [MergePart] {
        // An input read through a copy (InputDatabase) has it in the temporary folder until the end.
        let folder = NSTemporaryDirectory() as NSString
        let run = UUID().uuidString.prefix(8)  // two merges of one process (in-process: the tests) share nothing
        let scratch = paths.indices.map { folder.appendingPathComponent("rulesrun-merge-\(getpid())-\(run)-\($0 + 1).sqlite") }
        let cleanup = InterruptCleanup.add(scratch.flatMap(Store.files(of:)))
        var inputs: [InputDatabase] = []
        defer {
            for input in inputs { input.release() }
            InterruptCleanup.remove(cleanup)
        }
        let parts: [MergePart]
        do {
            for (path, scratch) in zip(paths, scratch) { inputs.append(try InputDatabase(path: path, file: WorkingFolder.resolve(path), scratch: scratch)) }
            parts = try Store.mergeParts(inputs)
        } catch { throw SimulationError("\(error)") }
        let held = parts.first?.users.flatMap { first in parts.compactMap(\.users).last.map { first.lowerBound...$0.upperBound } }
        if let users, held != users {
            throw SimulationError(
                "--db \(path): the databases hold \(describe(held)), the reports \(describe(users)): they are not the same shards")
        }
        let target = try DatabaseTarget(path: path, append: false)
        var info = stat()
        if !replacing, lstat(WorkingFolder.resolve(path), &info) == 0 {
            target.discard()
            throw SimulationError("--db \(path): the file exists; give --replace to replace it, or another --db")
        }
        do {
            let store = try Store.open(
                path: target.writtenPath,
                options: StoreOptions(synchronous: .off, deviceID: "rulesrun-simulate", cacheMiB: 1024, bulkLoad: true))
            do {
                try store.merge(parts)
            } catch {
                try? store.close()
                throw error
            }
            try store.close()
            try target.commit()
        } catch let error as SimulationError {
            target.discard()
            throw error
        } catch let error as StoreError where parts.contains(where: { error.message.hasPrefix($0.path + ": ") }) {
            target.discard()
            throw SimulationError(error.message)  // a part's fault, named
        } catch {
            target.discard()
            throw SimulationError("--db \(path): \(error)")
        }
        return parts
    }

    /// "users 1–40", "no users".
    static func describe(_ users: ClosedRange<Int64>?) -> String {
        users.map { "users \($0.lowerBound)–\($0.upperBound)" } ?? "no users"
    }

    /// What the merged parts hold: "4 databases, users 1–40".
    package static func describe(_ parts: [MergePart]) -> String {
        let held = parts.first?.users.flatMap { first in parts.compactMap(\.users).last.map { first.lowerBound...$0.upperBound } }
        return "\(parts.count) database\(parts.count == 1 ? "" : "s"), \(describe(held))"
    }
}
