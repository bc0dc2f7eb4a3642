import Foundation

/// A database file that is read and never changed: an input of ``Store/mergeParts(_:)``.
///
/// Opening a database can write into it and beside it: a read-write connection checkpoints a
/// write-ahead log into the file and removes the log when it closes, and even a read-only one
/// makes the log and shared-memory files of a WAL database. So an input is read through a
/// read-only URI (``DatabaseFile/readOnlyURI(_:immutable:)``) chosen by what lies beside it:
/// - the file alone (no log holding frames, no rollback journal): `immutable`, which reads the
///   file and nothing else, takes no lock and makes no file. Nothing may write the file
///   meanwhile: the shared `flock` held on it refuses another rulesrun, whose writers hold it
///   exclusively (`DatabaseLock`), and is refused while one does;
/// - a log with its shared-memory file (a program has the database open, or had): `mode=ro`,
///   which reads the log as any reader does and writes neither the file nor the log;
/// - a log without its shared-memory file or a rollback journal (what a writer stopped mid-way
///   leaves), or an SQLite that does not read URIs: a private copy of the file with its log or
///   journal, made at `scratch` and removed by ``release()``, is read instead (SQLite would make
///   the shared memory, or roll the journal back, in the input's folder).
///
/// The file is checked first: a regular file (a symbolic link is followed), not empty, beginning
/// with SQLite's header, and, when it holds the whole database, as long as its header says.
/// Errors name the file as given and what was expected.
package final class InputDatabase {
    /// The path as given, for messages.
    package let path: String
    /// The name SQLite reads it by (to open or to `ATTACH`).
    package let source: String
    /// The private copy read instead of the file, removed by ``release()``.
    private var copy: String?
    /// Whether ``source`` is a private copy (which SQLite may write: roll its journal back).
    package var isCopy: Bool { copy != nil }
    private var descriptor: Int32

    static let expected = "expected a database written by rulesrun simulate --db"
    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

    /// Checks and locks the file at `path`; `scratch` is where a copy goes when one is needed
    /// (the caller removes `Store.files(of: scratch)` should the process be interrupted).
    /// `file`: the path to open, when it is not `path` itself (a path relative to another folder
    /// than the process's: ``WorkingFolder`` of LuaHost).
    /// `expected`: what the file must be, said when it is not.
    package init(path: String, file given: String? = nil, scratch: String, expected: String = InputDatabase.expected) throws {
        self.path = path
        func refuse(_ reason: String) -> StoreError { StoreError(.notARulesDatabase, "\(path): \(reason); \(expected)") }
        var info = stat()
        guard stat(given ?? path, &info) == 0 else { throw refuse(errno == ENOENT ? "no such file" : String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("is a folder")
        default: throw refuse("not a regular file")
        }
        guard info.st_size > 0 else { throw refuse("an empty file") }
        guard let resolved = realpath(given ?? path, nil) else { throw refuse(String(cString: strerror(errno))) }
        let file = String(cString: resolved)
        free(resolved)
        let fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw refuse("cannot be read: \(String(cString: strerror(errno)))") }
        do {
            (source, copy) = try Self.source(
                of: file, path: path, descriptor: fd, size: Int64(info.st_size), scratch: scratch, refuse: refuse)
        } catch {
            close(fd)
            throw error
        }
        descriptor = fd
    }

    /// What SQLite reads `file` by, and the copy made (see the type's description), once `file` is
    /// locked (through `fd`) and checked.
    private static func source(
        of file: String, path: String, descriptor fd: Int32, size: Int64, scratch: String, refuse: (String) -> StoreError
    ) throws -> (String, String?) {
        if flock(fd, LOCK_SH | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK else { throw refuse("cannot lock it: \(String(cString: strerror(code)))") }
            throw StoreError(.notARulesDatabase, "\(path): another rulesrun is writing it; try again once that run has finished")
        }
        let header = (try? FileHandle(fileDescriptor: fd, closeOnDealloc: false).read(upToCount: 100)) ?? nil ?? Data()
        guard header.count >= sqliteHeader.count, header.prefix(sqliteHeader.count) == sqliteHeader else {
            throw refuse("not an SQLite database (it does not begin with SQLite's header, \"SQLite format 3\")")
        }
        let log = Self.size(file + "-wal"), journal = Self.size(file + "-journal")
        if log == 0, journal == 0, header.count == 100 {
            // The header's page count holds when its "version valid for" equals its change counter.
            func number(_ offset: Int, _ width: Int) -> Int { header[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) } }
            let pageSize = number(16, 2) == 1 ? 65536 : number(16, 2), pages = number(28, 4)
            if number(92, 4) == number(24, 4), pages > 0, Int64(pages) * Int64(pageSize) > size {
                throw refuse("truncated: its header gives \(pages) pages of \(pageSize) bytes, \(pages * pageSize) in all, the file has \(size)")
            }
        }
        let shared = access(file + "-shm", F_OK) == 0
        if journal == 0, log == 0 || shared, let uri = DatabaseFile.readOnlyURI(file, immutable: log == 0) { return (uri, nil) }
        Store.removeFiles(of: scratch)
        for suffix in ["", "-wal", "-journal"] where suffix.isEmpty || Self.size(file + suffix) > 0 {
            do { try FileManager.default.copyItem(atPath: file + suffix, toPath: scratch + suffix) } catch {
                Store.removeFiles(of: scratch)
                throw refuse("cannot copy \(file + suffix) to \(scratch + suffix), to read it unchanged: \(error.localizedDescription)")
            }
        }
        return (DatabaseFile.name(scratch), scratch)
    }

    /// The size of the file at `path`, 0 when there is none.
    static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Removes the copy, if one was made, and releases the lock (once).
    package func release() {
        if let copy { Store.removeFiles(of: copy) }
        copy = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { release() }
}
