import Foundation
import LuaHost

#if canImport(Glibc)
    import Glibc
#endif

/// What the folders of a watch rest on, as they are now. A folder is watched by the path the user
/// gave (`current`, `rules/tests`, the folder an `extends` names), but what that path names can
/// change without any change inside the folder: the folder deleted and made again, renamed away
/// and another renamed in, replaced by a file, a symbolic link on its path pointed elsewhere (a
/// release layout's `current` → `v2`); and a file of the folder that is a symbolic link changes
/// when the file it names does, in another folder. So for each folder the plan holds the entries
/// that decide what it names (each link on its path and its own entry, each in the real folder
/// that holds it), the real folder itself, and for each of its files that is a link, the entries
/// on the way to the file it names and that file. ``FolderWatcher`` watches the folders that hold
/// them, and compares two plans' identities (device and inode) to tell that a watched folder, or a
/// linked file, is another one now.
struct WatchPlan {
    /// Why a real folder is watched (one folder can be watched for several).
    enum Role: Hashable {
        /// It is the folder the user names `folder`: a change to a wanted name in it is a change to
        /// `folder/name`.
        case files(of: String)
        /// It holds `entry`, on the way to a watched folder: a change to it may make that folder another.
        case path(entry: String)
        /// It holds `entry`, on the way to the file that the link `reports` names, or that file: a
        /// change to it is a change to `reports`.
        case link(entry: String, reports: String)
    }

    /// The most symbolic links followed in one path: the system's own limit (`SYMLOOP_MAX`, 40 on
    /// Linux); a path with more names nothing.
    static let maxLinks = 40

    /// The real folders to watch (no symbolic link on their path), with why.
    private(set) var folders: [String: Set<Role>] = [:]
    /// What each watched folder, and each of their files that is a symbolic link, is now, by the
    /// path the user knows it by (`rules`, `rules/escalation.lua`): its device and inode, or that
    /// path when nothing is there.
    private(set) var identities: [String: FileIdentity] = [:]
    /// The real path of each watched folder that is a folder now.
    private var realFolders: [String: String] = [:]

    init() {}

    /// The plan of `watched` (folders as the user names them) as they are now; `wanted` says which
    /// of their files count (a folder as the user names it, and a file's name in it).
    init(folders watched: [String], wanted: (_ folder: String, _ name: String) -> Bool) {
        for folder in watched {
            let (entries, real) = Self.entries(of: folder)
            identities[folder] = FileIdentity(existing: folder) ?? .path(folder)
            for entry in entries { folders[entry.folder, default: []].insert(.path(entry: entry.name)) }
            guard let real, Self.isFolder(real) else { continue }
            realFolders[folder] = real
            folders[real, default: []].insert(.files(of: folder))
            for name in (try? FileManager.default.contentsOfDirectory(atPath: real)) ?? [] where wanted(folder, name) {
                var info = stat()
                guard lstat(real + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { continue }
                let file = Self.join(folder, name)
                identities[file] = FileIdentity(existing: file) ?? .path(file)
                // The link's own entry is in `real`, whose files are watched already.
                for entry in Self.entries(of: real + "/" + name).entries.dropFirst() {
                    folders[entry.folder, default: []].insert(.link(entry: entry.name, reports: file))
                }
            }
        }
    }

    /// Takes `before`'s identities (and real folders) for what both plans watch: what changed in
    /// between is then still a change at the next comparison with a plan made later.
    mutating func keepIdentities(of before: WatchPlan) {
        for (path, identity) in before.identities where identities[path] != nil { identities[path] = identity }
        for folder in identities.keys where before.identities[folder] != nil { realFolders[folder] = before.realFolders[folder] }
    }

    /// Whether the watched `folder` is another one than in `before`: another device and inode,
    /// another real path, or a folder where there was none or the reverse (an inode number can be
    /// given again at once to what replaces a removed file).
    func isAnother(_ folder: String, than before: WatchPlan) -> Bool {
        identities[folder] != before.identities[folder] || realFolders[folder] != before.realFolders[folder]
    }

    /// What the watched `folder` is now, said against `before` (the plan of the previous check), in a
    /// few words: `current is now the folder /srv/rules/v2`, `rules is a new folder`, `rules is gone`.
    func change(of folder: String, since before: WatchPlan) -> String {
        guard let real = realFolders[folder] else { return Self.absence(of: folder) ?? "\(folder) is a new folder" }
        return before.realFolders[folder] == real || before.realFolders[folder] == nil
            ? "\(folder) is a new folder" : "\(folder) is now the folder \(real)"
    }

    /// What is at `path` when it is not a folder (`rules is gone`, `rules is a regular file now, not
    /// a folder`); nil when it is one.
    static func absence(of path: String) -> String? {
        switch SourceFile.kind(of: path) {
        case nil: "\(path) is gone"
        case "a directory": nil
        case let kind?: "\(path) is \(kind) now, not a folder"
        }
    }

    /// The entries that decide what `path` names, each as the real folder that holds it and its
    /// name: every symbolic link followed, then the last entry, or the first that is missing (whose
    /// creation would change what the path names); and the real path it names, when it exists.
    static func entries(of path: String) -> (entries: [(folder: String, name: String)], real: String?) {
        let absolute = path.hasPrefix("/") ? path : join(WorkingFolder.current, path)
        // The components still to walk, the next one last.
        var rest = absolute.split(separator: "/").reversed().map(String.init)
        var folder = "/"
        var entries: [(folder: String, name: String)] = []
        var links = 0
        while let name = rest.popLast() {
            if name == "." { continue }
            if name == ".." {
                folder = (folder as NSString).deletingLastPathComponent
                continue
            }
            let full = join(folder, name)
            var info = stat()
            guard lstat(full, &info) == 0 else {
                entries.append((folder, name))
                return (entries, nil)
            }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                entries.append((folder, name))
                links += 1
                guard links <= maxLinks, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) else {
                    return (entries, nil)
                }
                if target.hasPrefix("/") { folder = "/" }
                rest += target.split(separator: "/").reversed().map(String.init)
                continue
            }
            if rest.isEmpty || (info.st_mode & S_IFMT) != S_IFDIR {
                // The last entry, or a file the path goes through as if it were a folder.
                entries.append((folder, name))
                return (entries, rest.isEmpty ? full : nil)
            }
            folder = full
        }
        return (entries, folder)
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `path` without its empty and `.` components (`rules/./tests/` is `rules/tests`), its links and
    /// `..` as they are: what a path names is what the system finds by following them.
    static func tidy(_ path: String) -> String {
        let components = path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + components : components.isEmpty ? "." : components
    }

    /// `folder/name`, with one slash (`rules/` and `rules` name one folder).
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
