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

    /// A folder extending the default rules whose streaks.lua declares `g` (line 3) and, when
    /// `checked`, wraps `habit.streak` to raise on a `g` that is not a finite number.
    func folder(declaring g: String, checked: Bool = false) throws -> URL {
        let check = """
            local streak = M.habit.streak
            M.habit.streak = function(periods, task, user)
              local g = task.params.g
              if g ~= g or g == math.huge or g == -math.huge then error("g is " .. tostring(g)) end
              return streak(periods, task, user)
            end

            """
        return try CLI.folder([
            "p/extends": CLI.packageRoot.appendingPathComponent("rules").path,
            "p/streaks.lua": "local M = base\nM.params = {\n  g = { \(g) },\n}\n\(checked ? check : "")return M\n",
        ])
    }

    /// The extreme integers a Lua file can write (math.mininteger, whose absolute value an Int64
    /// does not hold, and math.maxinteger) as a param's min, max or default, min above max, NaN
    /// and a float where an integer is expected: each is a problem at its line naming the field
    /// and what was expected, exit 1 — validate used to die with an illegal instruction on the first.
    @Test func extremeIntegersInADeclarationAreProblemsNotACrash() throws {
        let bound = "an integer param's range is within ±2^53 (9007199254740992)"
        let cases: [(declaration: String, problems: [String])] = [
            (
                #"type = "integer", min = math.mininteger, max = 10, default = 2"#,
                ["streaks.lua:3: params.g.min: \(bound), found -9223372036854775808"]
            ),
            (
                #"type = "integer", min = math.mininteger, max = math.maxinteger, default = 0"#,
                [
                    "streaks.lua:3: params.g.min: \(bound), found -9223372036854775808",
                    "streaks.lua:3: params.g.max: \(bound), found 9223372036854775807",
                ]
            ),
            (
                #"type = "integer", min = 0, max = 10, default = math.mininteger"#,
                ["streaks.lua:3: params.g.default: must be within the range 0…10, found -9223372036854775808"]
            ),
            (
                #"type = "integer", min = math.maxinteger, max = math.mininteger, default = 0"#,
                [
                    "streaks.lua:3: params.g.min: \(bound), found 9223372036854775807",
                    "streaks.lua:3: params.g.max: \(bound), found -9223372036854775808",
                ]
            ),
            (#"type = "integer", min = 10, max = -10, default = 0"#, ["streaks.lua:3: params.g.max: must be at least min (10), found -10"]),
            (#"type = "integer", min = 0, max = 0/0, default = 0"#, ["streaks.lua:3: params.g.max: expected an integer, found number nan"]),
            (#"type = "integer", min = 0, max = 10, default = 2.5"#, ["streaks.lua:3: params.g.default: expected an integer, found number 2.5"]),
            (
                #"type = "number", min = math.mininteger, max = 0, default = -0.0"#,
                []  // a number param may be as wide as a double holds: math.mininteger is -9.2e18
            ),
        ]
        for (declaration, problems) in cases {
            let dir = try folder(declaring: declaration)
            defer { try? FileManager.default.removeItem(at: dir) }
            let result = try CLI.run(["validate", dir.appendingPathComponent("p").path])
            #expect(result.status == (problems.isEmpty ? 0 : 1), "\(declaration): \(result.status) \(result.stdout)\(result.stderr)")
            if !problems.isEmpty {
                #expect(result.stdout.split(separator: "\n").map(String.init) == problems, "\(declaration): \(result.stdout)")
            }
        }
    }

    /// A number param's range reaches the proofs only as finite values: one whose width (max − min)
    /// overflows a double is a problem naming the param, and one just under it is proved at finite
    /// points between (each point used to be computed as (max − min) × k / 4, inf past a third of
    /// the largest double: `habit.streak(…, params g = inf)`).
    @Test func aNumberRangeIsFiniteBeforeAnyProof() throws {
        let wide = try folder(declaring: #"type = "number", min = -1e308, max = 1e308, default = 0"#, checked: true)
        defer { try? FileManager.default.removeItem(at: wide) }
        let refused = try CLI.run(["validate", wide.appendingPathComponent("p").path])
        #expect(refused.status == 1)
        #expect(
            refused.stdout
                == "streaks.lua:3: params.g.max: the range -1e+308…1e+308 is too wide: max − min must be a finite number "
                + "(at most 1.7976931348623157e+308), as validate proves the functions at points between them\n",
            "\(refused.stdout)\(refused.stderr)")

        let justUnder = try folder(declaring: #"type = "number", min = -6e307, max = 6e307, default = 0"#, checked: true)
        defer { try? FileManager.default.removeItem(at: justUnder) }
        let proved = try CLI.run(["validate", justUnder.appendingPathComponent("p").path])
        #expect(proved.status == 0, "\(proved.stdout)\(proved.stderr)")
        #expect(proved.stdout.contains("  streaks.lua params: g number -6e+307…6e+307 = 0.0"), "\(proved.stdout)")
    }
}
