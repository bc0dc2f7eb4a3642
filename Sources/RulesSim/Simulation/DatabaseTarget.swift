import Foundation
import RulesStore

/// The database file a simulation writes (`--db`), checked before the run: a new one is written
/// to a temporary file in the same folder and renamed over the target only when the run
/// succeeded, so a failed run loses nothing. The target must be absent, or a writable regular file
/// that is an empty file or a database of rulesrun: a directory, a device, a read-only file, any
/// other file and any other SQLite database are never replaced. A symbolic link is followed: the
/// file it points to is replaced, the link stays. The run holds ``DatabaseLock`` on the file until
/// it is committed or discarded.
final class DatabaseTarget {
    /// The path as given, for messages.
    let path: String
    /// The file written: `path`, or the file a symbolic link at `path` points to.
    let file: String
    let append: Bool
    /// The permissions of the file replaced, given to the new one.
    private let mode: mode_t?
    private var lock: DatabaseLock?
    private var cleanup: Int?

    /// The file the run writes: the target itself with `--append` (the run is one transaction),
    /// else a temporary file beside it.
    var writtenPath: String { append ? file : file + ".rulesrun-new" }

    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)
    /// The longest suffix of the files written beside the target.
    static let longestSuffix = ".rulesrun-new-journal"

    init(path: String, append: Bool) throws(SimulationError) {
        self.path = path
        self.append = append
        guard !path.isEmpty else { throw SimulationError("--db: expected a file name, found an empty string") }
        guard path != ":memory:" else {
            throw SimulationError("--db :memory:: the database would be a file named ':memory:'; use --no-db to keep it in memory")
        }
        guard path != "-" else { throw SimulationError("--db -: a database is a file, not standard output; give a file name (or --no-db)") }
        file = try Self.followingLink(path)
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        var existingMode: mode_t?
        if manager.fileExists(atPath: file, isDirectory: &isFolder) {
            let replaced = append ? "it is added to" : "it is replaced at each run"
            guard !isFolder.boolValue else {
                throw SimulationError("--db \(path): is a folder; expected an SQLite database file (\(replaced))")
            }
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                throw SimulationError("--db \(path): not a regular file; expected an SQLite database file (\(replaced))")
            }
            guard info.st_mode & 0o222 != 0, access(file, W_OK) == 0 else {
                throw SimulationError("--db \(path): the file is read-only (mode 0\(String(info.st_mode & 0o7777, radix: 8))); refusing to \(append ? "write to" : "replace") it (make it writable, or give another --db)")
            }
            existingMode = info.st_mode & 0o7777
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw SimulationError("--db \(path): cannot be read; expected an SQLite database file")
            }
            let head = (try? handle.read(upToCount: Self.sqliteHeader.count)) ?? nil
            try? handle.close()
            // An empty file is a new database, unless its log holds what it has not got yet.
            let log = (try? manager.attributesOfItem(atPath: file + "-wal")[.size] as? Int) ?? 0
            if let head, !head.isEmpty || log > 0 {
                guard head == Self.sqliteHeader || head.isEmpty else {
                    throw SimulationError("--db \(path): not an SQLite database; refusing to replace it (give another --db, or remove the file)")
                }
                do {
                    // A database of a newer rulesrun is replaced (it is generated), not added to.
                    try Store.check(path: file, allowingNewer: !append)
                } catch {
                    throw SimulationError("--db \(path): \(error); refusing to \(append ? "add to" : "replace") it (give another --db, or remove the file)")
                }
            }
        }
        mode = existingMode
        let folder = (file as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw SimulationError("--db \(path): cannot create the folder \(folder): \(error.localizedDescription)")
            }
        }
        let name = (file as NSString).lastPathComponent
        let nameMax = pathconf(folder.isEmpty ? "." : folder, Int32(_PC_NAME_MAX))
        if nameMax > 0, name.utf8.count + Self.longestSuffix.utf8.count > nameMax {
            throw SimulationError("--db \(path): the file name is \(name.utf8.count) bytes long; at most \(nameMax - Self.longestSuffix.utf8.count) here (rulesrun writes \(name.prefix(8))…\(Self.longestSuffix) beside it)")
        }
        lock = try DatabaseLock(database: file)
        if !append {
            // Left by a run that was killed (the lock says none is running).
            Store.removeFiles(of: writtenPath)
            cleanup = InterruptCleanup.add(Store.files(of: writtenPath))
        }
    }

    /// `path`, or the file a symbolic link there points to (refused when it points nowhere).
    static func followingLink(_ path: String) throws(SimulationError) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            throw SimulationError("--db \(path): a symbolic link to \(target), which does not exist; give the file itself, or remove the link")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Puts the written file in place of the target (with no journal of the old file left), and
    /// releases the lock.
    func commit() throws(SimulationError) {
        defer { release() }
        guard !append else { return }
        if let mode { chmod(writtenPath, mode) }
        Store.removeFiles(of: file, keepingMain: true)
        if rename(writtenPath, file) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw SimulationError("--db \(path): cannot put the new database in place: \(reason)")
        }
        Store.removeFiles(of: writtenPath)
    }

    /// Removes what a failed run wrote (nothing with `--append`: its transaction rolled back),
    /// and releases the lock.
    func discard() {
        if !append { Store.removeFiles(of: writtenPath) }
        release()
    }

    private func release() {
        if let cleanup { InterruptCleanup.remove(cleanup) }
        cleanup = nil
        lock?.release()
        lock = nil
    }

    deinit { release() }
}
