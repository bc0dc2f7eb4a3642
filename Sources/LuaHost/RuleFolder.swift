import BuiltInDefaults
import Foundation

/// A rule set on disk: a folder of `.lua` files, named by their path relative to the folder.
/// `@default` names the built-in default rules (``BuiltInDefaults``).
public struct RuleFolder: Sendable {
    public let root: URL

    /// The path a rule folder's name stands for: the built-in rules' folder for `@default`, else
    /// the name itself.
    public static func path(of name: String) throws -> String {
        guard name == BuiltInDefaults.name else { return name }
        do {
            return try BuiltInDefaults.rules()
        } catch {
            throw LuaError(kind: .syntax, file: name, message: error.description)
        }
    }

    /// Fails with a clear message when `path` is not a folder.
    public init(_ path: String) throws {
        let path = try Self.path(of: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: WorkingFolder.resolve(path), isDirectory: &isDirectory) else {
            throw LuaError(kind: .syntax, file: path, message: "no such rule folder")
        }
        guard isDirectory.boolValue else {
            throw LuaError(kind: .syntax, file: path, message: "not a folder (a rule set is a folder of .lua files)")
        }
        root = URL(fileURLWithPath: WorkingFolder.resolve(path), isDirectory: true).standardizedFileURL
    }

    /// The `.lua` files under the folder (hidden ones excepted), sorted by relative name.
    public func luaFiles() -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "lua" {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { name(of: $0) < name(of: $1) }
    }

    /// The file's name in messages: its path relative to the folder.
    public func name(of url: URL) -> String { LuaHost.chunkName(for: url, ruleRoot: root) }
}
