import Foundation
import Testing

/// Every example rule set has its own tests, they pass, and they run every line of its own rule
/// files: `rulesrun test examples/X --no-inherit --coverage --threshold 100` for each folder of
/// examples/ that holds rules (an `extends` file or a rule file), found by looking, so that a new
/// example without tests, or with lines its tests never run, fails here.
@Suite struct ExampleRuleSetTests {
    /// The rule files a folder may hold (docs/rules.md).
    static let ruleFiles = ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"]

    /// The folders of examples/ with rules, as `examples/NAME`.
    static func folders() -> [String] {
        let examples = CLI.packageRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        return names.sorted().filter { name in
            (["extends"] + ruleFiles).contains {
                FileManager.default.fileExists(atPath: examples.appendingPathComponent(name).appendingPathComponent($0).path)
            }
        }.map { "examples/\($0)" }
    }

    @Test func theFoldersAreFound() {
        let found = Self.folders()
        #expect(found.contains("examples/surge-pricing") && found.contains("examples/graduated-recovery"), "\(found)")
        #expect(!found.contains("examples/personas") && !found.contains("examples/replay"), "\(found)")
    }

    @Test(arguments: folders()) func eachPassesItsOwnTestsWhichRunEveryLineOfItsRules(folder: String) throws {
        let result = try CLI.run(["test", folder, "--no-inherit", "--coverage", "--threshold", "100"])
        #expect(result.status == 0, "\(folder): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" passed, 0 failed\n"), "\(folder): \(result.stdout)")
        #expect(result.stdout.contains("coverage of the folder's own rule files by its tests:\n"), "\(folder): \(result.stdout)")
    }
}
