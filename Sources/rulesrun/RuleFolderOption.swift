import ArgumentParser
import BuiltInDefaults
import Foundation
import LuaHost
import RulesSim

/// `--rules`, the rule folder of `simulate`, `replay` and `sweep`: a folder, `@default`, or a
/// bundle (`FILE.bundle`, `FILE.bundle#ARM` for an arm of its experiment), whose rules are read
/// from where ``BundleRules`` unpacks them.
struct RuleFolderOption: ParsableArguments {
    @Option(help: RuleFolderOption.help) var rules = RuleFolderOption.defaultFolder

    /// A bundle named by `--rules` is replaced by the folder its rules are unpacked in (a
    /// rollout's, a bundle with an experiment and no arm named: its control's, for `simulate`;
    /// other commands refuse it, ``BundleRules/refuseRollout(_:)``).
    mutating func validate() throws { rules = try BundleRules.folder(rules, rollout: true) }

    /// The whole rollout `--rules` names (a bundle with an experiment, no arm), nil for one rule set.
    var rollout: Rollout? { BundleRules.rollout(of: rules) }

    /// The rule folder of a command given none: `./rules` when there is one, else the built-in
    /// default rules (`@default`), so that every command works from any folder.
    static var defaultFolder: String {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: WorkingFolder.resolve("rules"), isDirectory: &isFolder) && isFolder.boolValue ? "rules" : BuiltInDefaults.name
    }

    /// The help of a rule folder argument or option.
    static let help: ArgumentHelp =
        "The rule folder: a path, @default (the built-in default rules), or a bundle file (FILE#ARM: an arm of its experiment; simulate runs FILE, with no arm, as the whole rollout); ./rules when there is one, else @default."
}
