import Foundation

/// An exclusive lock on a database file for as long as a run writes it: `flock` on a lock file
/// beside it (`FILE.rulesrun-lock`), removed when the lock is released. A second run on the same
/// file is refused instead of removing the first's new file or writing under it.
public final class DatabaseLock: @unchecked Sendable {
    public let lockPath: String
    private var descriptor: Int32 = -1
    private var cleanup = 0

    /// Takes the lock on the database at `path` (named `option` in messages; a symbolic link is
    /// followed: the lock is beside the file), or throws when another run holds it or the lock
    /// file cannot be made.
    public init(database path: String, option: String = "--db") throws(SimulationError) {
        lockPath = ((try? DatabaseTarget.followingLink(path)) ?? path) + ".rulesrun-lock"
        while true {
            let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw SimulationError("\(option) \(path): cannot create the lock file \(lockPath): \(String(cString: strerror(errno)))")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK {
                    throw SimulationError("\(option) \(path): another rulesrun is writing \(path) (it holds \(lockPath)); wait for it to finish, or give another \(option)")
                }
                throw SimulationError("\(option) \(path): cannot lock \(lockPath): \(String(cString: strerror(code)))")
            }
            // The run that held the lock removes its file when it releases it: the file locked
            // must still be the one at the path, else another run may lock a new one.
            var held = stat(), current = stat()
            if fstat(fd, &held) == 0, stat(lockPath, &current) == 0, held.st_dev == current.st_dev, held.st_ino == current.st_ino {
                descriptor = fd
                break
            }
            close(fd)
        }
        cleanup = InterruptCleanup.add([lockPath])
    }

    /// Removes the lock file and releases the lock (once).
    public func release() {
        guard descriptor >= 0 else { return }
        unlink(lockPath)
        close(descriptor)
        descriptor = -1
        InterruptCleanup.remove(cleanup)
    }

    deinit { release() }
}
