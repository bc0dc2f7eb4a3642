import Foundation
import LuaHost
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
        try OutputPath.checkDatabaseName(path)
        file = try Self.followingLink(WorkingFolder.resolve(path))
        let folder = (file as NSString).deletingLastPathComponent
        let name = (file as NSString).lastPathComponent
        let nameMax = pathconf(folder.isEmpty ? "." : folder, Int32(_PC_NAME_MAX))
        if nameMax > 0, name.utf8.count + Self.longestSuffix.utf8.count > nameMax {
            throw SimulationError(
                "--db \(path): the file name is \(name.utf8.count) bytes long; at most \(nameMax - Self.longestSuffix.utf8.count) here (rulesrun writes \(name.prefix(8))…\(Self.longestSuffix) beside it)"
            )
        }
        // A writable regular file or a new one in an existing folder (made only for the paths
        // rulesrun chose: the default database, a bench's temporary one).
        try OutputPath.check(
            path, option: "--db", createsFolders: path == SimulationConfig.defaultDatabase || SimulationConfig.isBenchDatabase(path))
        // Locked before the file is looked into: opening it while another run writes it by
        // another name would leave a journal of this name beside it.
        let lock = try DatabaseLock(database: file)
        self.lock = lock
        let manager = FileManager.default
        var existingMode: mode_t?
        do throws(SimulationError) {
            var info = stat()
            if stat(file, &info) == 0 {
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
                        throw SimulationError(
                            "--db \(path): not an SQLite database; refusing to replace it (give another --db, or remove the file)")
                    }
                    do {
                        // A database of a newer rulesrun is replaced (it is generated), not added to.
                        try Store.check(path: file, allowingNewer: !append)
                    } catch {
                        throw SimulationError(
                            "--db \(path): \(error); refusing to \(append ? "add to" : "replace") it (give another --db, or remove the file)"
                        )
                    }
                }
            }
        } catch {
            lock.release()
            throw error
        }
        mode = existingMode
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
            throw SimulationError(
                "--db \(path): a symbolic link to \(target), which does not exist; give the file itself, or remove the link")
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
