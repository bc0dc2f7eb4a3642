import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for changes to the files of rule folders, through Linux's inotify (Foundation has no file
/// watching on Linux), or, with `polling` (and where there is no inotify), by comparing the
/// folders' files every `quiet` (their inode, size and modification time). Each folder is watched,
/// not each file, so that an editor that writes a temporary file and renames it over the original
/// (vim, VS Code, `sed -i`) is seen as the rename into the folder it is. Only the names `wanted`
/// accepts count (`*.lua`, `*.jsonl`, `extends`): an editor's swap and backup files do not start a
/// cycle. Changes are debounced: the wait ends after `quiet` without another change, so that a save
/// that writes several files is one change. SIGINT and SIGTERM (``StopSignal``) end a wait too.
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

    /// The most files of one folder compared at each look when polling (a folder is listed every
    /// `quiet`): a rule folder holds a handful.
    static let maxPolledFiles = 10_000

    #if os(Linux)
        /// Events that may change a file's contents or presence.
        private static let mask: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
    #endif

    /// The inotify descriptor; -1 when polling.
    private let fd: Int32
    private var folders: [Int32: String] = [:]
    private let wanted: (String) -> Bool
    private let quiet: Int32
    /// When polling: what the wanted files looked like at the last look, by path.
    private var snapshot: [String: [Int]] = [:]

    /// `quietMilliseconds`: how long without a change ends a wait once a change was seen (and, when
    /// polling, the time between two looks).
    init(quietMilliseconds: Int32 = 200, polling: Bool = false, wanted: @escaping (String) -> Bool) throws {
        StopSignal.install()
        self.wanted = wanted
        quiet = quietMilliseconds
        #if os(Linux)
            if polling {
                fd = -1
            } else {
                fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
                guard fd >= 0 else {
                    throw Failure(description: "cannot watch files (inotify_init1: \(String(cString: strerror(errno)))); try --poll")
                }
            }
        #else
            fd = -1
        #endif
    }

    deinit { if fd >= 0 { close(fd) } }

    var isPolling: Bool { fd < 0 }

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
            guard !isPolling else {
                folders[Int32(folders.count)] = path
                snapshot.merge(try look(at: path)) { $1 }
                continue
            }
            #if os(Linux)
                let wd = inotify_add_watch(fd, path, Self.mask)
                guard wd >= 0 else {
                    let reason =
                        errno == ENOSPC
                        ? "the system's limit of inotify watches is reached (fs.inotify.max_user_watches)"
                        : String(cString: strerror(errno))
                    throw Failure(description: "cannot watch \(path): \(reason)")
                }
                folders[wd] = path
            #endif
        }
    }

    /// Waits for a change to a wanted file and then for `quiet` without another, or for a signal.
    func next() -> Wake {
        var changed: [String] = []
        while true {
            // Polling: no descriptor to wait for but the signals', a look every `quiet`.
            var polled = [
                pollfd(fd: StopSignal.readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&polled, isPolling ? 1 : 2, changed.isEmpty && !isPolling ? -1 : quiet)
            if ready < 0 {
                if errno == EINTR { continue }
                fatalError("poll: \(String(cString: strerror(errno)))")
            }
            if let signal = StopSignal.received() { return .stop(signal) }
            let found = isPolling ? lookAgain() : ready == 0 ? [] : readChanges()
            // Quiet since the last change.
            if found.isEmpty, !changed.isEmpty, isPolling || ready == 0 { return .changed(changed) }
            for path in found where !changed.contains(path) { changed.append(path) }
        }
    }

    /// When polling: the wanted files of one folder, each as its inode, size and modification time.
    private func look(at folder: String) throws -> [String: [Int]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard names.count <= Self.maxPolledFiles else {
            throw Failure(
                description: "\(folder): more than \(Self.maxPolledFiles) files, too many to compare every \(quiet) ms with --poll")
        }
        var files: [String: [Int]] = [:]
        for name in names where wanted(name) {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            #if os(Linux)
                let modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
            #else
                let modified = [Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec)]
            #endif
            files[path] = [Int(info.st_ino), Int(info.st_size)] + modified
        }
        return files
    }

    /// When polling: the wanted files created, changed or removed since the last look, in the
    /// order of their paths.
    private func lookAgain() -> [String] {
        var now: [String: [Int]] = [:]
        for folder in Set(folders.values).sorted() {
            // A folder grown too large since: its files as they were (it is not compared again).
            now.merge((try? look(at: folder)) ?? snapshot.filter { $0.key.hasPrefix(folder) }) { $1 }
        }
        let paths = Set(now.keys).union(snapshot.keys).filter { now[$0] != snapshot[$0] }.sorted()
        snapshot = now
        return paths
    }

    #if os(Linux)
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
    #else
        private func readChanges() -> [String] { [] }
    #endif
}
