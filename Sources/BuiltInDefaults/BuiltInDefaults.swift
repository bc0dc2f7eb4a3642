import Foundation

/// The default rule folder (`rules/` and its tests) and personas (`examples/personas/`) of the
/// checkout rulesrun was built from, built into the binary (the EmbedDefaults plugin writes their
/// bytes into ``embedded`` at build time), so that every command works from any folder: `@default`
/// names them wherever a rule folder is named (`--rules @default`, an `extends` file).
///
/// Rules are read from files (coverage, explain's source lines, luacheck and `extends` all work
/// on paths), so the files are written out once, on first use, into a per-user cache folder
/// named after their digest (`~/.cache/rulesrun/defaults-<digest>/{rules,personas}`, or under
/// `$XDG_CACHE_HOME`): into a temporary folder renamed into place, so that a folder of that name
/// is always complete, whoever wrote it. Installed (`scripts/install.sh`), the copies in
/// `<bindir>/../share/rulesrun/` are used instead.
public enum BuiltInDefaults {
    /// The name of the built-in rule folder.
    public static let name = "@default"
    /// The name of the built-in personas in the list of folders searched.
    public static let personasName = "@default/personas"

    /// The folder holding `rules/` and `personas/`, or why it could not be written.
    static let folder: Result<URL, Problem> = Result { () throws(Problem) -> URL in
        if let installed = installed() { return installed }
        return try materialize()
    }

    /// The path of the built-in rule folder.
    public static func rules() throws(Problem) -> String { try folder.get().appendingPathComponent("rules").path }

    /// The path of the built-in personas folder.
    public static func personas() throws(Problem) -> String { try folder.get().appendingPathComponent("personas").path }

    /// Why the built-in files could not be written out.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `<bindir>/../share/rulesrun`, when it holds a `rules` folder.
    static func installed() -> URL? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let share = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/rulesrun", isDirectory: true).standardizedFileURL
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: share.appendingPathComponent("rules").path, isDirectory: &isFolder)
        return exists && isFolder.boolValue ? share : nil
    }

    /// The cache folder of `environment` (the process's by default): `$XDG_CACHE_HOME/rulesrun`,
    /// else `~/.cache/rulesrun`.
    package static func cacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("rulesrun", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/rulesrun", isDirectory: true)
    }

    /// Writes the embedded files into `defaults-<digest>` of the cache folder, unless already there.
    static func materialize() throws(Problem) -> URL {
        let target = cacheFolder().appendingPathComponent("defaults-\(embeddedDigest)", isDirectory: true)
        do {
            return try folderOnce(target) { temporary in
                for (name, base64) in embedded {
                    guard let bytes = Data(base64Encoded: base64) else {
                        throw Problem(description: "the built-in file \(name) is not base64 (a broken build)")
                    }
                    let url = temporary.appendingPathComponent(name)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try bytes.write(to: url)
                }
                // The personas folder exists even if none was built in.
                try FileManager.default.createDirectory(at: temporary.appendingPathComponent("personas"), withIntermediateDirectories: true)
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(description: "cannot write the built-in rules into \(target.path): \(error.localizedDescription)")
        }
    }

    /// The folder `target`, made once: `write` fills a temporary folder beside it, which is then
    /// renamed into place, so that a folder of that name is always whole, whoever wrote it (the
    /// built-in rules; a bundle's rules unpacked for a command). When another process renamed its
    /// whole copy into place first, that one is kept.
    package static func folderOnce(_ target: URL, write: (URL) throws -> Void) throws -> URL {
        let files = FileManager.default
        if files.fileExists(atPath: target.path) { return target }
        let parent = target.deletingLastPathComponent()
        let temporary = parent.appendingPathComponent(
            ".\(target.lastPathComponent)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)", isDirectory: true)
        do {
            try files.createDirectory(at: parent, withIntermediateDirectories: true)
            try files.createDirectory(at: temporary, withIntermediateDirectories: true)
            try write(temporary)
            try files.moveItem(at: temporary, to: target)
        } catch {
            try? files.removeItem(at: temporary)
            guard files.fileExists(atPath: target.path) else { throw error }
        }
        return target
    }
}
