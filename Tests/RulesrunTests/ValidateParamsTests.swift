import Foundation
import Testing

/// `validate` on a rule folder whose files declare params of their own.
@Suite struct ValidateParamsTests {
    @Test func validatePrintsEachFilesParamsAndBlamesABadOneAtItsLine() throws {
        let rules = CLI.packageRoot.appendingPathComponent("rules").path
        let streaks = """
            local M = base
            M.params = {
              freeze_max = { type = "integer", min = 0, max = 10, default = 2 },
              week_start = { type = "enum", values = { "monday", "sunday" }, default = "monday" },
            }
            return M

            """
        let dir = try CLI.folder([
            "ok/extends": rules,
            "ok/streaks.lua": streaks,
            "ok/quests.lua": "local M = base\nM.params = { strict = { type = \"boolean\", default = false } }\nreturn M\n",
            "bad/extends": "../ok",
            "bad/streaks.lua": "local M = base\n\nM.params.freeze_max.default = 11\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }

        let ok = try CLI.run(["validate", dir.appendingPathComponent("ok").path])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        let lines = ok.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count >= 3, "\(lines)")
        #expect(
            Array(lines.dropFirst().prefix(2)) == [
                #"  streaks.lua params: freeze_max integer 0…10 = 2; week_start enum {"monday", "sunday"} = "monday""#,
                "  quests.lua params: strict boolean = false",
            ])

        let bad = try CLI.run(["validate", dir.appendingPathComponent("bad").path])
        #expect(bad.status == 1)
        #expect(
            bad.stdout == "streaks.lua:3: params.freeze_max.default: must be within the range 0…10, found 11\n",
            "\(bad.stdout)\(bad.stderr)")
    }

}
