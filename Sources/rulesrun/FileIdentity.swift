import ArgumentParser
import Foundation
import LuaHost

/// What a path names, to tell whether two paths are one file: the device and inode of a file that
/// exists (so that `./x`, `a/../x`, symbolic and hard links compare equal), else the absolute path
/// with its folders' symbolic links resolved (and a dangling link's target). An output `-` is
/// standard output.
enum FileIdentity: Hashable {
    case standardOutput
    case inode(device: UInt64, inode: UInt64)
    case path(String)

    init(_ path: String, output: Bool = true) {
        if output, path == "-" {
            self = .standardOutput
            return
        }
        // A path through a folder that does not exist yet (`new/../x`) names, once the folders
        // are made, the file its resolved path names.
        var info = stat()
        let given = WorkingFolder.resolve(path)
        let path = stat(given, &info) == 0 ? given : Self.resolved(given, links: 0)
        if stat(path, &info) == 0 {
            self = .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        } else {
            self = .path(path)
        }
    }

    /// The device and inode of what `path` names now (symbolic links followed); nil when nothing
    /// is there. `watch` compares them to tell that a path names another folder or file now.
    init?(existing path: String) {
        var info = stat()
        guard stat(WorkingFolder.resolve(path), &info) == 0 else { return nil }
        self = .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The absolute path of a file that does not exist, as the system will create it.
    private static func resolved(_ path: String, links: Int) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let parent = url.deletingLastPathComponent().path, name = url.lastPathComponent
        var folder = parent
        if let real = realpath(parent, nil) {
            folder = String(cString: real)
            free(real)
        } else if parent != "/" {
            folder = resolved(parent, links: links)
        }
        let full = (folder as NSString).appendingPathComponent(name)
        // A dangling symbolic link: writing it creates the file it points to.
        if links < 8, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) {
            return resolved(target.hasPrefix("/") ? target : (folder as NSString).appendingPathComponent(target), links: links + 1)
        }
        return full
    }

    /// Refuses (a `ValidationError`: exit 2) two outputs that are one file — the last write would
    /// win — and an output that is one of the inputs, which it would overwrite. Each output and
    /// input is named as messages show it (e.g. "--out x.json", "the report a.json").
    static func refuseCollisions(outputs: [(name: String, path: String)], inputs: [(name: String, path: String)]) throws {
        var inputIdentities: [FileIdentity: String] = [:]
        for input in inputs where inputIdentities[FileIdentity(input.path, output: false)] == nil {
            inputIdentities[FileIdentity(input.path, output: false)] = input.name
        }
        var outputIdentities: [FileIdentity: String] = [:]
        for output in outputs {
            let identity = FileIdentity(output.path)
            if let input = inputIdentities[identity] {
                throw ValidationError("\(output.name): is \(input), an input; refusing to write over it (give another path)")
            }
            if let other = outputIdentities[identity] {
                throw ValidationError("\(output.name): is the same file as \(other); give each output its own file")
            }
            outputIdentities[identity] = output.name
        }
    }
}
