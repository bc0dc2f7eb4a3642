import ArgumentParser
import Foundation
import LuaHost

/// `--persona-dir`, as `simulate`, `sweep` and `compare` take it: folders of persona files searched
/// before examples/personas, each checked to be a folder before anything runs.
enum PersonaDirs {
    static let help: ArgumentHelp = "A folder of persona files, searched before examples/personas (repeatable)."

    static func check(_ folders: [String]) throws {
        for folder in folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: WorkingFolder.resolve(folder), isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--persona-dir \(folder): no such folder")
            }
        }
    }
}
