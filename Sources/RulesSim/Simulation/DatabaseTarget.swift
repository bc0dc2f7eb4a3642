import Foundation
import RulesStore

/// The database file a simulation writes (`--db`), checked before the run: a new one is written
/// to a temporary file in the same folder and renamed over the target only when the run
/// succeeded, so a failed run loses nothing. The target must be absent, or a regular file that
/// is an SQLite database (or empty): a directory, a device or any other file is never replaced.
struct DatabaseTarget {
    let path: String
    let append: Bool

    /// The file the run writes: the target itself with `--append` (the run is one transaction),
    /// else a temporary file beside it.
    var writtenPath: String { append ? path : path + ".rulesrun-new" }

    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

    init(path: String, append: Bool) throws(SimulationError) {
        self.path = path
        self.append = append
        guard !path.isEmpty else { throw SimulationError("--db: expected a file name, found an empty string") }
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isFolder) {
            guard !isFolder.boolValue else {
                throw SimulationError("--db \(path): is a folder; expected an SQLite database file (it is replaced at each run)")
            }
            let type = (try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType) ?? nil
            guard type == .typeRegular else {
                throw SimulationError("--db \(path): not a regular file; expected an SQLite database file (it is replaced at each run)")
            }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw SimulationError("--db \(path): cannot be read; expected an SQLite database file")
            }
            let head = (try? handle.read(upToCount: Self.sqliteHeader.count)) ?? nil
            try? handle.close()
            if let head, !head.isEmpty, head != Self.sqliteHeader {
                throw SimulationError("--db \(path): not an SQLite database; refusing to replace it (give another --db, or remove the file)")
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw SimulationError("--db \(path): cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }
        if !append { Store.removeFiles(of: writtenPath) }
    }

    /// Puts the written file in place of the target (with no journal of the old file left).
    func commit() throws(SimulationError) {
        guard !append else { return }
        Store.removeFiles(of: path, keepingMain: true)
        if rename(writtenPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw SimulationError("--db \(path): cannot put the new database in place: \(reason)")
        }
        Store.removeFiles(of: writtenPath)
    }

    /// Removes what a failed run wrote (nothing with `--append`: its transaction rolled back).
    func discard() {
        if !append { Store.removeFiles(of: writtenPath) }
    }
}
