import ArgumentParser
import Foundation
import LuaHost
import RulesSim

/// Where a command's text goes: standard output (no path, or `-`), or a file.
enum Output {
    /// Writes `text` to the file at `path` (checked by ``check(_:option:)`` before the run): in
    /// place, holding the file's own lock (`flock`, keyed by the file, not its name) while it
    /// writes, so that two runs writing one file by two names leave one whole text, never a mix;
    /// another rulesrun writing the file at that moment (a database run on it) is refused.
    static func write(_ text: String, to path: String?) throws {
        guard let path, path != "-" else {
            Console.current.output(text)
            return
        }
        try stream(to: path) { write in try write(text) }
    }

    /// Opens the file at `path` as ``write(_:to:)`` does (truncated, under its own lock) and gives
    /// `body` a function that appends text to it (`simulate --events`: written chunk by chunk).
    static func stream<T>(to path: String, _ body: (_ write: (String) throws -> Void) throws -> T) throws -> T {
        func fail(_ reason: String) -> ValidationError { ValidationError("cannot write \(path): \(reason)") }
        // O_NONBLOCK: a FIFO put there since the check is refused (ENXIO), not waited on.
        let fd = open(WorkingFolder.resolve(path), O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw fail(errno == EISDIR ? "is a folder" : String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw fail("not a regular file") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            throw fail(errno == EWOULDBLOCK ? "another rulesrun is writing it (by this name or another)" : String(cString: strerror(errno)))
        }
        guard ftruncate(fd, 0) == 0 else { throw fail(String(cString: strerror(errno))) }
        return try body { text in
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress!, $0.count) }
                if n < 0, errno == EINTR || errno == EAGAIN { continue }
                guard n > 0 else { throw fail(String(cString: strerror(errno))) }
                bytes = bytes.dropFirst(n)
            }
        }
    }

    /// Refuses, before a long run, an output file that cannot be written (``OutputPath``: an empty
    /// name, a folder, a device, a FIFO, a read-only file, a folder that does not exist).
    static func check(_ path: String?, option: String) throws {
        guard let path, path != "-" else { return }
        do { try OutputPath.check(path, option: option) } catch { throw ValidationError(error.message) }
    }
}
