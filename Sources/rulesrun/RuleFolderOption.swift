import ArgumentParser
import BuiltInDefaults
import Foundation
import LuaHost

/// `--rules`, the rule folder of `simulate` and `replay`.
struct RuleFolderOption: ParsableArguments {
    @Option(help: RuleFolderOption.help) var rules = RuleFolderOption.defaultFolder

    /// The rule folder of a command given none: `./rules` when there is one, else the built-in
    /// default rules (`@default`), so that every command works from any folder.
    static var defaultFolder: String {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: WorkingFolder.resolve("rules"), isDirectory: &isFolder) && isFolder.boolValue ? "rules" : BuiltInDefaults.name
    }

    /// The help of a rule folder argument or option.
    static let help: ArgumentHelp =
        "The rule folder: a path, or @default (the built-in default rules); ./rules when there is one, else @default."
}
