import Foundation
import Testing

/// `rulesrun watch --run REGEX --no-inherit`: each cycle runs the tests `rulesrun test` would run
/// with the same options (one option group parses both).
@Suite struct WatchTestSelectionTests {
    static let tests = """
        function test_picked()
          expect_eq(1 + 1, 2)
        end

        function test_other()
          expect_eq(1 + 1, 3)
        end

        """

    @Test func runChoosesTheTestsOfEachCycleAsTestDoes() throws {
        let dir = try WatchCommandTests.fixture(tests: ["pick_test.lua": Self.tests])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules").path
        let all = try CLI.run(["watch", rules, "--once", "--no-explain"])
        #expect(all.status == 1, "\(all.stdout)\(all.stderr)")
        #expect(all.stdout.contains("FAIL  tests/pick_test.lua:5 test_other"))
        #expect(all.stdout.contains("tests: 1 passed, 1 failed\n"))

        let picked = try CLI.run(["watch", rules, "--once", "--run", "pick"])
        #expect(picked.status == 0, "\(picked.stdout)\(picked.stderr)")
        #expect(picked.stdout.contains("tests: 1 passed, 0 failed\n"))
        #expect(!picked.stdout.contains("test_other"))
        #expect(picked.stdout.contains("cycle 1: good, "))
        // The same selection as `rulesrun test`'s.
        let test = try CLI.run(["test", rules, "--run", "pick"])
        #expect(test.status == 0)
        #expect(test.stdout.hasSuffix("1 passed, 0 failed\n"))

        let none = try CLI.run(["watch", rules, "--once", "--run", "^nothing$"])
        #expect(none.stdout.contains("tests: no test matches --run '^nothing$' in \(rules)/tests\n"), "\(none.stdout)")

        let bad = try CLI.run(["watch", rules, "--once", "--run", "("])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--run: '(' is not a regular expression"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
        let both = try CLI.run(["watch", rules, "--once", "--no-tests", "--run", "pick"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--run and --no-inherit choose the tests that --no-tests leaves out: choose one"), "\(both.stderr)")
    }

    @Test func noInheritLeavesOutTheTestsOfTheFolderExtended() throws {
        // The base's test fails; the variant's own passes.
        let dir = try WatchCommandTests.fixture(tests: ["pick_test.lua": Self.tests])
        defer { try? FileManager.default.removeItem(at: dir) }
        let variant = dir.appendingPathComponent("variant")
        try FileManager.default.createDirectory(at: variant.appendingPathComponent("tests"), withIntermediateDirectories: true)
        try "../rules\n".write(to: variant.appendingPathComponent("extends"), atomically: true, encoding: .utf8)
        try "function test_own()\n  expect_true(true)\nend\n".write(
            to: variant.appendingPathComponent("tests/own_test.lua"), atomically: true, encoding: .utf8)

        let inherited = try CLI.run(["watch", variant.path, "--once", "--no-explain"])
        #expect(inherited.status == 1, "\(inherited.stdout)\(inherited.stderr)")
        #expect(inherited.stdout.contains("test_other"))
        #expect(inherited.stdout.contains("tests: 2 passed, 1 failed\n"))

        let own = try CLI.run(["watch", variant.path, "--once", "--no-inherit"])
        #expect(own.status == 0, "\(own.stdout)\(own.stderr)")
        #expect(own.stdout.contains("tests: 1 passed, 0 failed\n"))
        #expect(!own.stdout.contains("test_other"))
        // --run and --no-inherit together: the folder's own tests that match.
        let ownPicked = try CLI.run(["watch", variant.path, "--once", "--no-inherit", "--run", "pick"])
        #expect(ownPicked.stdout.contains("tests: no test matches --run 'pick' in \(variant.path)/tests\n"), "\(ownPicked.stdout)")
    }
}
