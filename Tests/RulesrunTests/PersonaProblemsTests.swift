import Foundation
import Testing

/// A persona with many mistakes is cleaned up in one run: every problem, in the file's order (issue 18).
@Suite struct PersonaProblemsTests {
    @Test func everyMistakeOfAPersonaIsReportedInOneRunInTheFilesOrder() throws {
        let dir = try CLI.folder([
            "bad.lua": """
            return {
              description = "six mistakes and more",
              settings = { timezone = "Mars/Olympus", commitment_deadline = "9am" },
              paid_share = 1.5,
              comit = 0.9,
              commit = "often",
              answer = { yes = 0.9, no = 0.3 },
              reminder_response = { 0.6, 0.7, 2 },
              miga = { opens_per_day = -1, exit = "x" },
            }

            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.lua").path
        let result = try CLI.run(["simulate", "3d", "--users", "1", "--persona", file])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        let shown = result.stderr.split(separator: "\n").map { $0.replacingOccurrences(of: file, with: "bad.lua") }
        #expect(
            shown == [
                "bad.lua:3: settings.timezone: unknown time zone \"Mars/Olympus\"",
                "bad.lua:3: settings.commitment_deadline: expected \"HH:MM\", found \"9am\"",
                "bad.lua:4: paid_share: expected a probability between 0 and 1, found 1.5",
                "bad.lua:5: unknown field 'comit'; did you mean 'commit'?",
                "bad.lua:6: commit: expected a number, found string \"often\"",
                "bad.lua:7: answer: yes + no must be at most 1 (the rest is no answer), found 1.2",
                "bad.lua:8: reminder_response: expected one probability per tier 0…3 (4 values), found 3",
                "bad.lua:8: reminder_response[3]: expected a probability between 0 and 1, found 2.0",
                "bad.lua:9: miga.exit: expected a number, found string \"x\"",
                "bad.lua:9: miga.opens_per_day: expected 0…50, found -1.0",
            ], "\(result.stderr)")
    }
}
