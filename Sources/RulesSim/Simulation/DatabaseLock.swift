import Foundation
import LuaHost

/// An exclusive lock on a database file for as long as a run writes it, keyed by the file itself:
/// `flock` on the database file (its device and inode: a second name of it, a hard link, finds the
/// lock too), and, for a file that does not exist yet, on a lock file beside its path
/// (`FILE.rulesrun-lock`, removed when the lock is released). A second run on the same file, by
/// any name, is refused instead of removing the first's new file or writing under it (two
/// connections through two names keep two journals: SQLite's own locks do not see each other).
package final class DatabaseLock: @unchecked Sendable {
    package let lockPath: String
    private var descriptor: Int32 = -1
    /// The database file itself, locked (-1 while it does not exist).
    private var fileDescriptor: Int32 = -1
    private var cleanup = 0

    /// Takes the lock on the database at `path` (named `option` in messages; a symbolic link is
    /// followed: the lock is beside the file), or throws when another run holds it or the lock
    /// file cannot be made. `creating`: a missing database file is created (empty: a new
    /// database) and locked at once, for a run that opens the file itself rather than renaming a
    /// new one into place.
    package init(database path: String, option: String = "--db", creating: Bool = false) throws(SimulationError) {
        let given = WorkingFolder.resolve(path)
        let file = (try? DatabaseTarget.followingLink(given)) ?? given
        lockPath = file + ".rulesrun-lock"
        // Made and registered as one step: an interruption in between would leave the lock file.
        cleanup = try InterruptCleanup.add { () throws(SimulationError) -> [String] in
            while true {
                let fd = open(self.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
                guard fd >= 0 else {
                    throw SimulationError("\(option) \(path): cannot create the lock file \(self.lockPath): \(String(cString: strerror(errno)))")
                }
                if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                    let code = errno
                    close(fd)
                    if code == EWOULDBLOCK {
                        throw SimulationError(
                            "\(option) \(path): another rulesrun is writing \(path) (it holds \(self.lockPath)); wait for it to finish, or give another \(option)"
                        )
                    }
                    throw SimulationError("\(option) \(path): cannot lock \(self.lockPath): \(String(cString: strerror(code)))")
                }
                // The run that held the lock removes its file when it releases it: the file locked
                // must still be the one at the path, else another run may lock a new one.
                var held = stat(), current = stat()
                if fstat(fd, &held) == 0, stat(self.lockPath, &current) == 0, held.st_dev == current.st_dev, held.st_ino == current.st_ino {
                    self.descriptor = fd
                    break
                }
                close(fd)
            }
            return [self.lockPath]
        }
        // The file itself: a run that reaches it by another name holds this one.
        let fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (creating ? O_CREAT : 0), 0o644)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT, !creating { return }
            release()
            throw SimulationError("\(option) \(path): cannot open \(file) to lock it: \(String(cString: strerror(code)))")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(fd)
            release()
            if code == EWOULDBLOCK {
                throw SimulationError(
                    "\(option) \(path): another rulesrun is writing \(path) (by another name of the same file: a hard link); wait for it to finish, or give another \(option)"
                )
            }
            throw SimulationError("\(option) \(path): cannot lock \(file): \(String(cString: strerror(code)))")
        }
        fileDescriptor = fd
        // SQLite keeps a database's journal beside the name it was opened by: after a run through
        // one name is killed, a run through another cannot see its journal, and a later run through
        // the first name rolls that stale journal over the newer content. A database rulesrun
        // writes has one name (SQLite's "How To Corrupt", 2.4: multiple links to one file).
        var info = stat()
        if fstat(fd, &info) == 0, info.st_nlink > 1 {
            release()
            throw SimulationError(
                "\(option) \(path): the file has \(info.st_nlink) names (hard links); SQLite keeps its journal beside the name it opens, so a run stopped under one name would leave a journal the others cannot see and a later run would roll it back over newer data; write a copy instead (cp \(path) NEW), or remove the other names"
            )
        }
    }

    /// Removes the lock file and releases the lock (once).
    package func release() {
        if fileDescriptor >= 0 { close(fileDescriptor) }
        fileDescriptor = -1
        guard descriptor >= 0 else { return }
        unlink(lockPath)
        close(descriptor)
        descriptor = -1
        InterruptCleanup.remove(cleanup)
    }

    deinit { release() }
}
