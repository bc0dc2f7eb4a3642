import Foundation
import Testing

/// `rulesrun test` on a folder whose files declare params: its tests get the records the engine
/// passes (`records.params`, `records.price_context`), and so do the default rules' tests and
/// properties it inherits.
@Suite struct RecordHelpersTests {
    /// A folder extending the default rules whose price reads a param of its own (0 by default:
    /// the default rules' prices).
    static let surgePricing = """
        local M = base
        M.params = { surge = { type = "integer", min = 0, max = 3, default = 0 } }
        local table_price = M.price
        M.price = function(ctx) return table_price(ctx) + ctx.params.surge end
        return M
        """

    /// The default rules' unit tests of `price` and their property over `gen.price_context()` run on
    /// the folder with the params the engine passes (before: `ctx.params` was nil in the unit tests,
    /// `{}` in the property's cases).
    @Test func aFolderDeclaringParamsPassesTheDefaultRulesTests() throws {
        let dir = try TestCommandTests.variant(["pricing.lua": Self.surgePricing])
        let result = try CLI.run(["test", dir.path, "--cases", "20"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS  rules/tests/economy_test.lua:14 test_price_is_the_credit_costs_table  ("))
        #expect(result.stdout.contains("PASS  rules/tests/properties_test.lua:70 prop_prices_strictly_increase_with_the_length (20 cases)"))
        #expect(result.stdout.hasSuffix("39 passed, 0 failed\n"))
    }

    @Test func theHelpersGiveTheEnginesRecordsAndNameWhatIsWrong() throws {
        let dir = try TestCommandTests.variant([
            "pricing.lua": Self.surgePricing.replacingOccurrences(of: "default = 0", with: "default = 2"),
            "tests/records_test.lua": """
            function test_params()
              expect_eq(records.params("pricing"), { surge = 2 })
              expect_eq(records.params("escalation.lua"), {})
            end

            function test_context()
              local ctx = records.price_context { minutes = 15, app = "iosToken:Ab", weekday = 7 }
              expect_eq(ctx, {
                minutes = 15, app = "iosToken:Ab", unlocks_today = 0, unlocks_today_app = 0, hour = 12, minute = 0, weekday = 7,
                strictness = "GENTLE", streak = 0, balance = 0, params = { surge = 2 },
              })
              expect_eq(pricing.price(ctx), 27)
              expect_eq(records.price_context({ params = { surge = 3 } }).params, { surge = 3 })
              expect_eq(records.price_context().minutes, 5)
            end

            function test_misspelt_field() records.price_context { weekdya = 1 } end
            function test_bad_app() records.price_context { app = "com.example.video" } end
            function test_bad_param() records.price_context { params = { surge = 9 } } end
            function test_unknown_file() records.params("pricng") end
            """,
        ])
        let result = try CLI.run(["test", dir.path, "--no-inherit", "--no-explain"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("PASS  tests/records_test.lua:1 test_params  (") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("PASS  tests/records_test.lua:6 test_context  (") }, "\(result.stdout)")
        #expect(
            lines.contains(
                "    tests/records_test.lua:17: records.price_context: unknown field 'weekdya' (did you mean 'weekday'?); the fields are "
                    + "minutes, app, unlocks_today, unlocks_today_app, hour, minute, weekday, mode, strictness, streak, balance, params"),
            "\(result.stdout)")
        #expect(
            lines.contains(
                "    tests/records_test.lua:18: records.price_context: app: expected an AppId \"android:…\" or \"iosToken:…\", found string \"com.example.video\""
            ), "\(result.stdout)")
        #expect(
            lines.contains("    tests/records_test.lua:19: records.price_context: params.surge: expected an integer between 0 and 3, found 9"),
            "\(result.stdout)")
        #expect(
            lines.contains(
                "    tests/records_test.lua:20: records.params: expected a file of the rule set, one of \"escalation\", \"streaks\", \"pricing\", \"quests\", \"modes\", found string \"pricng\""
            ), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("2 passed, 4 failed\n"))
    }
}
