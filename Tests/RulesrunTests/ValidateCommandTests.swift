import Foundation
import Testing

@Suite struct ValidateCommandTests {
    @Test func theDefaultRuleSetIsValid() throws {
        let result = try CLI.run(["validate", "rules"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("escalation.lua"))
        #expect(result.stdout.contains("valid"))
    }

    @Test func everyProblemIsPrintedWithFileAndLine() throws {
        let dir = try CLI.folder([
            "a_syntax.lua": "return {\n  x = 1\n  y = 2\n}",
            "b_runtime.lua": "local t = nil\nreturn t.x",
            "c_escape.lua": "return os.execute('true')",
            "d_not_table.lua": "return 42",
            "nested/e_loop.lua": "while true do end",
            "ok.lua": "return { fine = true }",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["validate", dir.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines[0].hasPrefix("a_syntax.lua:3: "))
        #expect(lines[1].hasPrefix("b_runtime.lua:2: attempt to index a nil value"))
        #expect(lines[2].hasPrefix("c_escape.lua:1: "))
        #expect(lines[3] == "d_not_table.lua: a rule file must return a table, found integer 42")
        #expect(lines[4].hasPrefix("nested/e_loop.lua:1: instruction budget exceeded"))
        #expect(result.stderr.contains("5 problems"))
    }

    @Test func aMissingFolderIsAnError() throws {
        let result = try CLI.run(["validate", "/nonexistent/rules"])
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("no such rule folder"))
    }
}
