#if canImport(Glibc)
    import Glibc
#endif

/// Waits for changes to the files of rule folders, through Linux's inotify (Foundation has no file
/// watching on Linux): each folder is watched, not each file, so that an editor that writes a
/// temporary file and renames it over the original (vim, VS Code, `sed -i`) is seen as the rename
/// into the folder it is. Only the names `wanted` accepts count (`*.lua`, `*.jsonl`, `extends`):
/// an editor's swap and backup files do not start a cycle. Changes are debounced: the wait ends
/// after `quiet` without another change, so that a save that writes several files is one change.
/// SIGINT and SIGTERM (``StopSignal``) end a wait too.
final class FolderWatcher {
    /// What a wait ended with.
    enum Wake: Equatable {
        /// The files changed, by path (folder/name), in the order of their first change.
        case changed([String])
        /// A signal asked the watch to stop (`SIGINT`, `SIGTERM`).
        case stop(String)
    }

    /// Why a folder could not be watched.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The most folders watched at once (a rule folder and its tests, and those of every folder it
    /// extends): a chain longer than that is refused rather than eating the user's inotify watches.
    static let maxFolders = 64

    /// Events that may change a file's contents or presence.
    private static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)

    private let fd: Int32
    private var folders: [Int32: String] = [:]
    private let wanted: (String) -> Bool
    private let quiet: Int32

    /// `quietMilliseconds`: how long without a change ends a wait once a change was seen.
    init(quietMilliseconds: Int32 = 200, wanted: @escaping (String) -> Bool) throws {
        StopSignal.install()
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw Failure(description: "cannot watch files (inotify_init1: \(String(cString: strerror(errno))))") }
        self.wanted = wanted
        quiet = quietMilliseconds
    }

    deinit { close(fd) }

    /// Watches `paths` too (folders; those already watched and those that do not exist are left
    /// as they are: a folder created later is watched from the next call).
    func watch(_ paths: [String]) throws {
        for path in paths where !folders.values.contains(path) {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            guard folders.count < Self.maxFolders else {
                throw Failure(
                    description: "\(path): more than \(Self.maxFolders) folders to watch (a rule folder, its tests and those it extends)")
            }
            let wd = inotify_add_watch(fd, path, Self.mask)
            guard wd >= 0 else {
                let reason =
                    errno == ENOSPC
                    ? "the system's limit of inotify watches is reached (fs.inotify.max_user_watches)" : String(cString: strerror(errno))
                throw Failure(description: "cannot watch \(path): \(reason)")
            }
            folders[wd] = path
        }
    }

    /// Waits for a change to a wanted file and then for `quiet` without another, or for a signal.
    func next() -> Wake {
        var changed: [String] = []
        while true {
            var polled = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: StopSignal.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&polled, 2, changed.isEmpty ? -1 : quiet)
            if ready < 0 {
                if errno == EINTR { continue }
                fatalError("poll: \(String(cString: strerror(errno)))")
            }
            if let signal = StopSignal.received() { return .stop(signal) }
            if ready == 0 { return .changed(changed) }  // quiet since the last change
            for path in readChanges() where !changed.contains(path) { changed.append(path) }
        }
    }

    /// The wanted files named by the events waiting to be read (none when the queue overflowed:
    /// then every folder's files may have changed, which `"*"` says).
    private func readChanges() -> [String] {
        var paths: [String] = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, size)
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    paths.append("*")
                } else if event.mask & UInt32(IN_IGNORED) != 0 {
                    folders[event.wd] = nil  // the folder was removed or renamed: watched again if it comes back
                } else if let folder = folders[event.wd], !name.isEmpty, wanted(name) {
                    paths.append(folder.hasSuffix("/") ? folder + name : folder + "/" + name)
                }
            }
        }
        return paths
    }
}
