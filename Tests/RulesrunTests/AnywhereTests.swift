import Foundation
import Testing

/// Every command works from a folder outside the checkout: the default rules and personas are
/// built into the binary (`@default`), a folder may extend them by that name, its own personas/
/// are found by name, and `rulesrun new` writes a folder that validates, tests and simulates.
/// Each test runs in a fresh temporary folder (no ./rules, no examples/) with a cache folder of
/// its own (`XDG_CACHE_HOME`), where the built-in files are written out on first use.
@Suite struct AnywhereTests {
    /// A fresh folder outside the checkout holding `files`, and the environment of a run in it.
    static func outside(_ files: [String: String] = [:]) throws -> (folder: URL, environment: [String: String]) {
        let folder = try CLI.folder(files)
        return (folder, ["XDG_CACHE_HOME": folder.appendingPathComponent(".cache").path])
    }

    static func run(_ arguments: [String], _ place: (folder: URL, environment: [String: String])) throws -> CLI.Result {
        try CLI.run(arguments, in: place.folder, environment: place.environment)
    }

    @Test func simulateValidateAndTestUseTheBuiltInDefaults() throws {
        let place = try Self.outside()
        defer { try? FileManager.default.removeItem(at: place.folder) }
        let simulate = try Self.run(["simulate", "7d", "--users", "5", "--no-db"], place)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        #expect(simulate.stdout.contains("@default"), "\(simulate.stdout)")
        // Written out once, under the cache folder, named after the digest of the files.
        let cache = place.folder.appendingPathComponent(".cache/rulesrun")
        let written = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasPrefix("defaults-") }
        #expect(written.count == 1, "\(written)")
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("\(written[0])/rules/pricing.lua").path))
        #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("\(written[0])/personas/steady.lua").path))

        let validate = try Self.run(["validate"], place)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(validate.stdout.contains("@default"), "\(validate.stdout)")
        let test = try Self.run(["test", "@default", "--run", "^test_"], place)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("PASS  tests/economy_test.lua"), "\(test.stdout)")
    }

    /// A binary copied alone to another folder still has the defaults (nothing read from the checkout).
    @Test func aBinaryCopiedAloneStillHasTheDefaults() throws {
        let place = try Self.outside()
        defer { try? FileManager.default.removeItem(at: place.folder) }
        let copy = place.folder.appendingPathComponent("bin/rulesrun")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.executable.resolvingSymlinksInPath(), to: copy)
        let result = try CLI.run(
            ["simulate", "7d", "--users", "5", "--no-db", "--rules", "@default", "--persona", "steady"], in: place.folder,
            executableURL: copy, environment: place.environment)
        #expect(result.status == 0, "\(result.stderr)")

        // Installed (scripts/install.sh): the copies in <bindir>/../share/rulesrun are used instead.
        let share = place.folder.appendingPathComponent("share/rulesrun")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("rules"), to: share.appendingPathComponent("rules"))
        try "return {}\n".write(to: share.appendingPathComponent("rules/pricng.lua"), atomically: true, encoding: .utf8)
        let installed = try CLI.run(["validate", "@default"], in: place.folder, executableURL: copy, environment: place.environment)
        #expect(installed.status == 1)
        #expect(installed.stdout.contains("pricng.lua: not a file of a rule set"), "\(installed.stdout)")
    }

    @Test func aFolderExtendsTheDefaultsByName() throws {
        let place = try Self.outside([
            "mine/extends": "@default\n",
            "mine/pricing.lua": "local M = base\nM.rollover_cap = 20\nreturn M\n",
            "broken/extends": "@default\n",
            "broken/pricing.lua": "local M = base\nM.rollover_cap = -1\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: place.folder) }
        let validate = try Self.run(["validate", "mine"], place)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        // The inherited files are named @default/…, not by the cache folder they were written to.
        #expect(validate.stdout.contains("@default/escalation.lua"), "\(validate.stdout)")
        #expect(!validate.stdout.contains(".cache"), "\(validate.stdout)")
        let broken = try Self.run(["validate", "broken"], place)
        #expect(broken.status != 0)
        #expect((broken.stdout + broken.stderr).contains("pricing.lua:2"), "\(broken.stdout)\(broken.stderr)")
        // --rules @default and a relative path to the folder work alike.
        let simulate = try Self.run(["simulate", "7d", "--users", "5", "--no-db", "--rules", "mine"], place)
        #expect(simulate.status == 0, "\(simulate.stderr)")
    }

    @Test func personasAreFoundInTheRuleFoldersOwnFolderThenBuiltIn() throws {
        let steady = try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua"), encoding: .utf8)
        let place = try Self.outside([
            "mine/extends": "@default\n",
            "mine/personas/ours.lua": steady.replacingOccurrences(of: "commit = 0.95", with: "commit = 0.5"),
        ])
        defer { try? FileManager.default.removeItem(at: place.folder) }
        // The persona file is not a rule file of the folder.
        let validate = try Self.run(["validate", "mine"], place)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let own = try Self.run(["simulate", "7d", "--users", "5", "--no-db", "--rules", "mine", "--persona", "ours"], place)
        #expect(own.status == 0, "\(own.stderr)")
        let builtIn = try Self.run(["simulate", "7d", "--users", "5", "--no-db", "--rules", "mine", "--persona", "struggling"], place)
        #expect(builtIn.status == 0, "\(builtIn.stderr)")
        let unknown = try Self.run(["simulate", "7d", "--users", "5", "--no-db", "--rules", "mine", "--persona", "nosuch"], place)
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains("nosuch: no persona named 'nosuch' in mine/personas, examples/personas, @default/personas"),
            "\(unknown.stderr)")
        #expect(unknown.stderr.contains("(known: focus-user, ghost, lapsing-then-recovering, ours, steady,"), "\(unknown.stderr)")
    }

    @Test func newRefusesAFolderThatIsNotEmpty() throws {
        let place = try Self.outside(["taken/notes.txt": "ours\n"])
        defer { try? FileManager.default.removeItem(at: place.folder) }
        let result = try Self.run(["new", "taken"], place)
        #expect(result.status == 2)
        #expect(result.stderr.contains("taken: the folder is not empty"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: place.folder.appendingPathComponent("taken").path) == ["notes.txt"])
    }

    @Test func newWritesAFolderThatValidatesTestsAndSimulates() throws {
        let place = try Self.outside()
        defer { try? FileManager.default.removeItem(at: place.folder) }
        let new = try Self.run(["new", "myapp"], place)
        #expect(new.status == 0, "\(new.stderr)")
        let names = FileManager.default.enumerator(atPath: place.folder.appendingPathComponent("myapp").path)?.compactMap { $0 as? String }
        #expect(
            Set(names ?? []).isSuperset(of: [
                "extends", "pricing.lua", "tests/pricing_test.lua", "tests/hour-unlock.jsonl",
                "tests/pricing_properties_test.lua", "personas/regular.lua", "README.md",
            ]), "\(names ?? [])")
        let validate = try Self.run(["validate", "myapp"], place)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        // (A debug build on a loaded machine: more than the 60 s a test may take by default.)
        let test = try Self.run(["test", "myapp", "--coverage", "--test-timeout", "600", "--timeout", "1800"], place)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        for line in [
            "PASS  tests/pricing_test.lua", "PASS  tests/hour-unlock.jsonl", "PASS  tests/pricing_properties_test.lua",
            "PASS  @default/tests/economy_test.lua",
        ] {
            #expect(test.stdout.contains(line), "\(line): \(test.stdout)")
        }
        let simulate = try Self.run(["simulate", "30d", "--users", "20", "--no-db", "--rules", "myapp", "--persona", "regular"], place)
        #expect(simulate.status == 0, "\(simulate.stderr)")
    }
}
