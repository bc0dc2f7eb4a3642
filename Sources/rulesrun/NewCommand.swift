import ArgumentParser
import BuiltInDefaults
import Foundation
import LuaHost

/// `rulesrun new DIR`: a team's first rule folder, which extends the built-in defaults and
/// changes one knob, with a test of each kind, a persona and a README (``NewFolderTemplate``).
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a new rule folder that extends the built-in default rules.",
        discussion: """
            Writes DIR (which must not exist, or be empty): `extends` (@default: the built-in rules), \
            pricing.lua (one knob changed: the gate also offers a 60-minute unlock, for 80 credits), \
            tests/pricing_test.lua (a unit test of that knob), tests/hour-unlock.jsonl (a scenario), \
            tests/pricing_properties_test.lua (a property), personas/regular.lua (a persona) and README.md (what \
            each file is, and the next commands). As written it validates, its tests pass, and \
            `rulesrun simulate 30d --rules DIR --persona regular` runs.

            Examples:
              rulesrun new myapp
              rulesrun validate myapp && rulesrun test myapp --coverage
            """
    )

    @Argument(help: "The folder to write (new, or empty).") var directory: String

    func run() throws {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: WorkingFolder.resolve(directory), isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                Terminal.error("\(directory): a file, not a folder; rulesrun new writes a new rule folder (give a new folder's name)")
                throw ExitCode(2)
            }
            let entries = (try? files.contentsOfDirectory(atPath: WorkingFolder.resolve(directory))) ?? []
            guard entries.isEmpty else {
                Terminal.error(
                    "\(directory): the folder is not empty (\(entries.count) entr\(entries.count == 1 ? "y" : "ies"), e.g. \(entries.sorted()[0])); "
                        + "rulesrun new writes only into a new or empty folder, and overwrites nothing")
                throw ExitCode(2)
            }
        }
        let template = NewFolderTemplate(folder: directory)
        do {
            for (name, text) in template.files {
                let url = URL(fileURLWithPath: WorkingFolder.resolve(directory)).appendingPathComponent(name)
                try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .withoutOverwriting)
            }
        } catch {
            Terminal.error("\(directory): cannot write the rule folder: \(error.localizedDescription)")
            throw ExitCode(1)
        }
        Terminal.line("wrote \(directory)/: " + template.files.map(\.name).joined(separator: ", "))
        Terminal.line("next: rulesrun validate \(template.shown) && rulesrun test \(template.shown) --coverage")
    }
}
