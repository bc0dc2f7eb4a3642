import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for changes to the files of rule folders, through Linux's inotify (Foundation has no file
/// watching on Linux), or, with `polling` (and where there is no inotify), by comparing the
/// folders' files every `quiet` (their inode, size and modification time, through any symbolic
/// link). Each folder is watched, not each file, so that an editor that writes a temporary file and
/// renames it over the original (vim, VS Code, `sed -i`) is seen as the rename into the folder it
/// is. Only the names `wanted` accepts count (`*.lua`, `*.jsonl`, `extends`): an editor's swap and
/// backup files do not start a cycle. Single files can be watched too (`watch --replay FILE`): their
/// folder is watched for their names only. Changes are debounced: the wait ends after `quiet` without
/// another change, so that a save that writes several files is one change. SIGINT and SIGTERM
/// (``StopSignal``) end a wait too.
///
/// A folder is watched by the path the user gave, which may come to name another folder (deleted
/// and made again, renamed, a symbolic link on its path pointed elsewhere), and its files may be
/// links to files elsewhere: the ``WatchPlan`` of the folders is made again at each event on an
/// entry it holds and every `recheckMilliseconds`, the watches follow it, and a folder that is
/// another one now (its device and inode) is a change.
final class FolderWatcher {
    /// What a wait ended with.
    enum Wake: Equatable {
        /// The files changed, by path (folder/name), in the order of their first change; and the
        /// watched folders that are another folder now, or none, each said in a few words
        /// (`current is now the folder /srv/rules/v2`).
        case changed(files: [String], folders: [String])
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

    /// How often, with inotify, the folders' plan is made again without any event: what no watched
    /// folder hears of (a folder above the rule folder renamed or made again) is seen within this.
    static let recheckMilliseconds = 1_000

    #if os(Linux)
        /// The events of a folder whose files count (a watched folder, the folder of a linked file):
        /// those that may change a file's contents or presence, and the folder's own end.
        private static let filesMask = UInt32(IN_CLOSE_WRITE | IN_MODIFY) | entriesMask
        /// The events of a folder that only holds an entry on the way to a watched folder: its
        /// entries made, removed or renamed (not the writes of its other files).
        private static let entriesMask = UInt32(
            IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    #endif

    /// The inotify descriptor; -1 when polling.
    private let fd: Int32
    private let wanted: (String) -> Bool
    private let quiet: Int32
    /// The folders asked for (``watch(_:files:)``), and those of the files asked for, as the user names them.
    private var watched: [String] = []
    /// The folders asked for, whose every file `wanted` accepts counts.
    private var wholeFolders: Set<String> = []
    /// The names of the files asked for, by the folder that holds them (as the user names it).
    private var singleFiles: [String: Set<String>] = [:]
    /// What they rested on at the last check.
    private var plan = WatchPlan()
    /// With inotify: the real folders watched, each with its descriptor, its identity when it was
    /// watched (a folder made again under the same path is watched again) and the events asked for.
    private var watches: [String: (descriptor: Int32, identity: FileIdentity?, mask: UInt32)] = [:]
    private var folderOf: [Int32: String] = [:]
    /// When polling: what the wanted files looked like at the last look, by watched folder, then by name.
    private var snapshot: [String: [String: [Int]]] = [:]

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

    /// Watches `paths` (folders, as the user names them; one that does not exist is watched for
    /// when it does) and `files` (each by its name in its folder, whatever `wanted` says: a change
    /// to it is a change to `folder/name`), and no longer the folders of the last call that are not
    /// among them. A folder watched already keeps what it was at the last check, so that one
    /// replaced since (during a cycle) is still a change for the next wait.
    func watch(_ paths: [String], files: [String] = []) throws {
        var single: [String: Set<String>] = [:]
        var unique: [String] = []
        for path in paths where !unique.contains(path) { unique.append(path) }
        let whole = Set(unique)
        for file in files {
            let parent = (file as NSString).deletingLastPathComponent
            let folder = WatchPlan.tidy(parent.isEmpty ? "." : parent)
            single[folder, default: []].insert((file as NSString).lastPathComponent)
            if !unique.contains(folder) { unique.append(folder) }
        }
        guard unique.count <= Self.maxFolders else {
            throw Failure(
                description:
                    "\(unique[0]): more than \(Self.maxFolders) folders to watch (a rule folder, its tests, those it extends and the folders of --replay files)"
            )
        }
        let added = unique.filter { !watched.contains($0) }
        watched = unique
        wholeFolders = whole
        singleFiles = single
        let before = plan
        plan = WatchPlan(folders: watched, wanted: counts)
        plan.keepIdentities(of: before)
        if isPolling {
            snapshot = snapshot.filter { watched.contains($0.key) }
            for folder in added { snapshot[folder] = try look(at: folder) }
        } else {
            try follow(plan)
        }
    }

    /// Waits for a change to a wanted file or a watched folder and then for `quiet` without
    /// another, or for a signal.
    func next() -> Wake {
        var files: [String] = []
        // The watched folders that are another one now, with what they are at the last check.
        var folders: [(path: String, change: String)] = []
        var quietUntil: ContinuousClock.Instant?
        // The first check at once: what changed during the cycle that ended.
        var nextCheck = ContinuousClock.now
        while true {
            // Polling: no descriptor to wait for but the signals', a look every `quiet`.
            let wakeAt: ContinuousClock.Instant = isPolling ? .now + .milliseconds(quiet) : min(quietUntil ?? nextCheck, nextCheck)
            var polled = [
                pollfd(fd: StopSignal.readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&polled, isPolling ? 1 : 2, Self.milliseconds(until: wakeAt))
            if ready < 0 {
                if errno == EINTR { continue }
                fatalError("poll: \(String(cString: strerror(errno)))")
            }
            if let signal = StopSignal.received() { return .stop(signal) }
            var found = (files: [String](), folders: [(path: String, change: String)]())
            if isPolling {
                let looked = lookAgain()
                found = recheck(lost: [])
                found.files = looked + found.files
            } else if ready > 0 || ContinuousClock.now >= nextCheck {
                let events = ready > 0 ? readChanges() : (paths: [], lost: [], concerned: false)
                // Checked at each wake that concerns a watched entry, and every second whatever the events.
                if events.concerned || ContinuousClock.now >= nextCheck {
                    found = recheck(lost: events.lost)
                    nextCheck = .now + .milliseconds(Self.recheckMilliseconds)
                }
                found.files = events.paths + found.files
            }
            // A watched folder (`tests`) that changed is said by the check, as a folder.
            found.files.removeAll { watched.contains($0) }
            for path in found.files where !files.contains(path) { files.append(path) }
            for folder in found.folders {
                folders.removeAll { $0.path == folder.path }
                folders.append(folder)
            }
            if !found.files.isEmpty || !found.folders.isEmpty {
                quietUntil = .now + .milliseconds(quiet)
            } else if let quietUntil, ContinuousClock.now >= quietUntil {
                // The files of a folder that is another one now are said by it (`rules is a new folder`).
                let inside = folders.map { $0.path.hasSuffix("/") ? $0.path : $0.path + "/" }
                return .changed(files: files.filter { file in !inside.contains { file.hasPrefix($0) } }, folders: folders.map(\.change))
            }
        }
    }

    /// The plan of the watched folders made again: the watched folders that are another folder
    /// now (and those in `lost`, whose watch ended: removed, though maybe made again with the same
    /// inode), each with what it is now (``WatchPlan/change(of:since:)``); and the linked files
    /// that name another file now (a link on their way pointed elsewhere). With inotify, the
    /// watches follow it (a folder that cannot be watched now is left to the checks; the next
    /// ``watch(_:)`` says why).
    private func recheck(lost: Set<String>) -> (files: [String], folders: [(path: String, change: String)]) {
        let before = plan
        plan = WatchPlan(folders: watched, wanted: counts)
        if !isPolling { try? follow(plan) }
        let folders = watched.filter { lost.contains($0) || plan.isAnother($0, than: before) }
            .map { ($0, plan.change(of: $0, since: before)) }
        let files = plan.identities.compactMap { path, identity in
            !watched.contains(path) && before.identities[path] != nil && before.identities[path] != identity ? path : nil
        }
        return (files.sorted(), folders)
    }

    /// With inotify: watches the real folders of `plan` with the events their roles need, again
    /// those whose folder is another one now, and no longer the others. A watched folder that
    /// cannot be watched is an error (the last one); a folder on the way to it is left to the checks.
    private func follow(_ plan: WatchPlan) throws {
        #if os(Linux)
            var failure: Failure?
            for (folder, roles) in plan.folders.sorted(by: { $0.key < $1.key }) {
                let hearsWrites = roles.contains { if case .path = $0 { false } else { true } }
                let mask = hearsWrites ? Self.filesMask : Self.entriesMask
                let identity = FileIdentity(existing: folder)
                if let current = watches[folder] {
                    if current.identity == identity, current.mask == mask { continue }
                    // Another folder under this path now; the same one asked for other events keeps its descriptor.
                    if current.identity != identity { unwatch(folder) }
                }
                // A second add for the same folder replaces the events asked for, and returns its descriptor.
                let descriptor = inotify_add_watch(fd, folder, mask)
                guard descriptor >= 0 else {
                    let reason =
                        errno == ENOSPC
                        ? "the system's limit of inotify watches is reached (fs.inotify.max_user_watches)"
                        : String(cString: strerror(errno))
                    if roles.contains(where: { if case .files = $0 { true } else { false } }) {
                        failure = failure ?? Failure(description: "cannot watch \(folder): \(reason)")
                    }
                    continue
                }
                watches[folder] = (descriptor, identity, mask)
                folderOf[descriptor] = folder
            }
            for folder in watches.keys where plan.folders[folder] == nil { unwatch(folder) }
            if let failure { throw failure }
        #endif
    }

    private func unwatch(_ folder: String) {
        guard let watch = watches.removeValue(forKey: folder) else { return }
        if let other = watches.first(where: { $0.value.descriptor == watch.descriptor }) {
            folderOf[watch.descriptor] = other.key  // one folder by two paths (a bind mount): still watched
        } else {
            folderOf[watch.descriptor] = nil
            #if os(Linux)
                inotify_rm_watch(fd, watch.descriptor)
            #endif
        }
    }

    /// Whether a change to `name` in the watched `folder` counts: a name `wanted` accepts in a folder
    /// asked for, or a file asked for.
    private func counts(_ folder: String, _ name: String) -> Bool {
        (wholeFolders.contains(folder) && wanted(name)) || singleFiles[folder]?.contains(name) == true
    }

    /// The time from now to `instant`, in whole milliseconds for `poll` (0 when past).
    private static func milliseconds(until instant: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: instant)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// When polling: the wanted files of one folder, each as its inode, size and modification time
    /// (through a symbolic link: the file it names); none when the folder is gone.
    private func look(at folder: String) throws -> [String: [Int]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard names.count <= Self.maxPolledFiles else {
            throw Failure(
                description: "\(folder): more than \(Self.maxPolledFiles) files, too many to compare every \(quiet) ms with --poll")
        }
        var files: [String: [Int]] = [:]
        for name in names where counts(folder, name) {
            var info = stat()
            guard stat(WatchPlan.join(folder, name), &info) == 0 else { continue }
            #if os(Linux)
                let modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
            #else
                let modified = [Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec)]
            #endif
            files[name] = [Int(info.st_ino), Int(info.st_size)] + modified
        }
        return files
    }

    /// When polling: the wanted files created, changed or removed since the last look, in the
    /// order of their paths.
    private func lookAgain() -> [String] {
        var paths: [String] = []
        for folder in watched {
            // A folder grown too large since: its files as they were (it is not compared again).
            let before = snapshot[folder] ?? [:]
            let now = (try? look(at: folder)) ?? before
            snapshot[folder] = now
            paths += Set(now.keys).union(before.keys).filter { now[$0] != before[$0] }.map { WatchPlan.join(folder, $0) }
        }
        return paths.sorted()
    }

    #if os(Linux)
        /// The wanted files named by the events waiting to be read (none when the queue overflowed:
        /// then every folder's files may have changed, which `"*"` says); the watched folders
        /// whose watch ended (the folder removed): it is forgotten, and the check that follows
        /// watches what is there now; and whether any event concerned a watched entry (not only
        /// the other files of a folder that holds one, which need no check).
        private func readChanges() -> (paths: [String], lost: Set<String>, concerned: Bool) {
            var paths: [String] = []
            var lost: Set<String> = []
            var concerned = false
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
                        concerned = true
                        continue
                    }
                    guard let folder = folderOf[event.wd] else { continue }
                    if event.mask & UInt32(IN_IGNORED) != 0 {
                        watches[folder] = nil
                        folderOf[event.wd] = nil
                        for case .files(let of) in plan.folders[folder] ?? [] { lost.insert(of) }
                        concerned = true
                        continue
                    }
                    // The folder itself removed or renamed.
                    guard !name.isEmpty else {
                        concerned = true
                        continue
                    }
                    for role in plan.folders[folder] ?? [] {
                        switch role {
                        case .files(let of):
                            guard counts(of, name) else { break }
                            paths.append(WatchPlan.join(of, name))
                            concerned = true
                        case .link(let entry, let reports):
                            guard name == entry else { break }
                            paths.append(reports)
                            concerned = true
                        // The check after the events says whether the folder is another one.
                        case .path(let entry): concerned = concerned || name == entry
                        }
                    }
                }
            }
            return (paths, lost, concerned)
        }
    #else
        private func readChanges() -> (paths: [String], lost: Set<String>, concerned: Bool) { ([], [], false) }
    #endif
}
