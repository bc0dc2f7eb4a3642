import Foundation
import Testing

@Suite struct ValidateCommandTests {
    @Test func theDefaultRuleSetIsValid() throws {
        let result = try CLI.run(["validate", "rules"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                "rules: valid (escalation.lua, streaks.lua, pricing.lua, quests.lua, modes.lua; 16 rule functions proved on "))
    }

    @Test func everyProblemIsPrintedWithFileAndLine() throws {
        let source = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/escalation.lua"), encoding: .utf8)
        let broken = CLI.edit(
            source,
            [
                ("M.max_tier = 3", "M.max_tier = \"three\""),
                ("M.max_reminders_per_day = 3 ", "M.max_reminders_per_dya = 3 "),
            ])
        var files = ["escalation.lua": broken, "escalaton.lua": "return {}"]
        for name in ["streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            files[name] = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/\(name)"), encoding: .utf8)
        }
        let dir = try CLI.folder(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["validate", dir.path])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(
            lines.contains(
                "escalaton.lua: not a file of a rule set (expected escalation.lua, streaks.lua, pricing.lua, quests.lua, modes.lua); did you mean 'escalation.lua'?"
            ))
        // Both bad fields of the file, each at its line; not the checks of other fields that the
        // bad max_tier would have made fail (tier_for_misses needs one entry per tier).
        let maxTier = broken.components(separatedBy: "\n").firstIndex { $0.hasPrefix("M.max_tier =") }! + 1
        let typo = broken.components(separatedBy: "\n").firstIndex { $0.hasPrefix("M.max_reminders_per_dya") }! + 1
        #expect(lines.contains("escalation.lua:\(maxTier): max_tier: expected an integer, found string \"three\""), "\(lines)")
        #expect(
            lines.contains("escalation.lua:\(typo): max_reminders_per_dya: unknown field (did you mean 'max_reminders_per_day'?)"),
            "\(lines)")
        #expect(result.stderr.contains("3 problems"))
    }

    @Test func knobsTheHostCannotReadAreNamedWithTheirLineAndField() throws {
        var files: [String: String] = [:]
        for name in ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            files[name] = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/\(name)"), encoding: .utf8)
        }
        let line = files["pricing.lua"]!.components(separatedBy: "\n").firstIndex(of: "M.rollover_cap = 10")! + 1
        for (added, expected) in [
            (
                "M.focus_cycle = {}\nM.focus_cycle.self = M.focus_cycle",
                "pricing.lua:\(line + 2): focus_cycle.self: a cycle: the table focus_cycle contains itself here"
            ),
            (
                #"M.credit_costs[1].label = "\xff\xfe""#,
                #"pricing.lua:\#(line + 1): credit_costs[1].label: expected UTF-8 text, found string "\xFF\xFE""#
            ),
        ] {
            var broken = files
            broken["pricing.lua"] = CLI.edit(files["pricing.lua"]!, [("M.rollover_cap = 10\n", "M.rollover_cap = 10\n\(added)\n")])
            let dir = try CLI.folder(broken)
            defer { try? FileManager.default.removeItem(at: dir) }
            let result = try CLI.run(["validate", dir.path])
            #expect(result.status == 1)
            #expect(result.stdout == expected + "\n", "\(result.stdout)\(result.stderr)")
        }
    }

    @Test func aMissingFolderIsAnError() throws {
        let result = try CLI.run(["validate", "/nonexistent/rules"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("no such rule folder"))
    }

    /// A bonus out of range for one streak length is refused at its line, exit 1; a valid set says
    /// what was not proved.
    @Test func validateProvesWhatRunsReachAndSaysWhereItStops() throws {
        let streaks = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/streaks.lua"), encoding: .utf8)
        let header = "function M.earned.bonus(streak_count)\n"
        let line = streaks.components(separatedBy: "\n").firstIndex(of: "function M.earned.bonus(streak_count)")! + 1
        let dir = try CLI.folder([
            "extends": CLI.packageRoot.appendingPathComponent("rules").path,
            "streaks.lua": CLI.edit(streaks, [(header, header + "  if streak_count == 37 then return math.maxinteger end\n")]),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let broken = try CLI.run(["validate", dir.path])
        #expect(broken.status == 1)
        #expect(
            broken.stdout
                == "streaks.lua:\(line): earned.bonus(37) returned integer 9223372036854775807, expected a whole number of credits from 0 to 10000\n",
            "\(broken.stdout)")
        let valid = try CLI.run(["validate", "rules"])
        #expect(valid.status == 0)
        #expect(
            valid.stdout.contains("\n  earned.bonus: not proved for streaks above 3660 (3660 days, the longest run)\n"), "\(valid.stdout)")
    }

    /// What is not proved in inherited files is the base's business: an extending folder's
    /// `validate` prints its own files' lines and counts the others (`--all` prints them);
    /// `--quiet` prints nothing for a valid set and the problems of an invalid one.
    @Test func notProvedLinesAreTheFoldersOwnUnlessAllAndQuietPrintsProblemsOnly() throws {
        let own = try CLI.run(["validate", "examples/gentle-pricing"])
        #expect(own.status == 0, "\(own.stdout)\(own.stderr)")
        #expect(own.stdout.contains("\n  price: not proved for "), "\(own.stdout)")
        #expect(!own.stdout.contains("\n  transition: not proved for "), "\(own.stdout)")
        #expect(own.stdout.contains("\n  and 11 not proved lines about inherited files (--all prints them)\n"), "\(own.stdout)")
        let all = try CLI.run(["validate", "examples/gentle-pricing", "--all"])
        #expect(all.stdout.contains("\n  transition: not proved for "), "\(all.stdout)")
        #expect(!all.stdout.contains("inherited files"), "\(all.stdout)")
        let base = try CLI.run(["validate", "rules"])
        #expect(base.stdout.contains("\n  transition: not proved for ") && !base.stdout.contains("inherited files"))

        let quiet = try CLI.run(["validate", "examples/gentle-pricing", "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        let dir = try CLI.folder(["extends": CLI.packageRoot.appendingPathComponent("rules").path, "pricing.lua": "return {"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let broken = try CLI.run(["validate", dir.path, "-q"])
        #expect(broken.status == 1)
        #expect(broken.stdout.hasPrefix("pricing.lua:"), "\(broken.stdout)")
    }
}
