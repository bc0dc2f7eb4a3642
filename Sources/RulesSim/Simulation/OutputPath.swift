import Foundation
import LuaHost

/// The one check of every path rulesrun writes (simulate's and replay's `--db`, simulate's and
/// merge's `--out` and `--chart`, compare's `--out` folder), before anything runs: an existing
/// path must be a writable regular file (a folder, for a folder output) — never a device, a FIFO
/// or a socket, which a write would go to (`/dev/null`) or block on; a new one must be in an
/// existing, writable folder. A missing folder is refused, naming it: rulesrun creates folders only
/// for the paths it chose itself (simulate's default database, compare's default `--out`).
package enum OutputPath {
    package enum Kind: Sendable {
        case file, folder
    }

    /// Checks `path`, given to `option` (e.g. "--out"), and returns the path written: `path`, or
    /// the file a symbolic link there points to (or will create, when it points nowhere yet).
    /// `createsFolders`: the missing folders of the path are created (paths the user did not name).
    @discardableResult
    package static func check(
        _ path: String, option: String, kind: Kind = .file, createsFolders: Bool = false
    ) throws(SimulationError) -> String {
        guard !path.isEmpty else {
            throw SimulationError("\(option): expected \(kind == .file ? "a file name" : "a folder name"), found an empty string")
        }
        let written = try target(of: WorkingFolder.resolve(path), option: option)
        var info = stat()
        if stat(written, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if kind == .file, type == S_IFDIR { throw SimulationError("\(option) \(path): is a folder; expected a file") }
            guard type == (kind == .file ? S_IFREG : S_IFDIR) else {
                let what = kind == .file ? "a regular file" : "a folder"
                throw SimulationError(
                    "\(option) \(path): not \(what) (\(SourceFile.describe(mode: info.st_mode))); expected \(what), or a new one")
            }
            guard info.st_mode & 0o222 != 0, access(written, kind == .file ? W_OK : W_OK | X_OK) == 0 else {
                throw SimulationError(
                    "\(option) \(path): the \(kind == .file ? "file" : "folder") is read-only (mode 0\(String(info.st_mode & 0o7777, radix: 8))); refusing to write \(kind == .file ? "to it" : "in it")"
                )
            }
            return written
        }
        // Not there; any other reason (a name too long, a file where a folder should be, a
        // folder that cannot be searched) is one the write would meet after the run.
        guard errno == ENOENT else { throw SimulationError("\(option) \(path): cannot be written: \(String(cString: strerror(errno)))") }
        guard kind == .folder || !written.hasSuffix("/") else {
            throw SimulationError("\(option) \(path): names a folder; expected a file")
        }
        let folder = parent(of: written)
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw SimulationError("\(option) \(path): \(folder) is not a folder") }
            guard access(folder, W_OK | X_OK) == 0 else {
                throw SimulationError("\(option) \(path): cannot be created: the folder \(folder) is not writable")
            }
            return written
        }
        guard createsFolders else {
            throw SimulationError(
                "\(option) \(path): the folder \(folder) does not exist; rulesrun does not create the folders of a path you name (create it first)"
            )
        }
        // The nearest folder that exists must be one the missing ones can be made in.
        var existing = folder
        while stat(existing, &info) != 0, existing != "/", existing != "." { existing = parent(of: existing) }
        guard info.st_mode & S_IFMT == S_IFDIR, access(existing, W_OK | X_OK) == 0 else {
            throw SimulationError("\(option) \(path): cannot be created in \(existing)")
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw SimulationError("\(option) \(path): cannot create the folder \(folder): \(error.localizedDescription)")
        }
        return written
    }

    /// Refuses the names that are not a database file: nothing, SQLite's `:memory:`, and `-`
    /// (standard output elsewhere). `inMemory`: how the command keeps its database in memory.
    package static func checkDatabaseName(_ path: String, inMemory: String = "--no-db") throws(SimulationError) {
        guard !path.isEmpty else { throw SimulationError("--db: expected a file name, found an empty string") }
        guard path != ":memory:" else {
            throw SimulationError("--db :memory:: the database would be a file named ':memory:'; use \(inMemory) to keep it in memory")
        }
        guard path != "-" else {
            throw SimulationError("--db -: a database is a file, not standard output; give a file name (or \(inMemory))")
        }
    }

    /// The folder of `path`, as the system will look it up ("." for a bare name).
    static func parent(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `path`, or the file the symbolic links there point to (a link to nothing yet: the file a
    /// write through it creates).
    private static func target(of path: String, option: String) throws(SimulationError) -> String {
        var current = path
        for _ in 0..<16 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            if let resolved = realpath(current, nil) {
                defer { free(resolved) }
                return String(cString: resolved)
            }
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = destination.hasPrefix("/") ? destination : (parent(of: current) as NSString).appendingPathComponent(destination)
        }
        throw SimulationError("\(option) \(path): too many levels of symbolic links")
    }
}
