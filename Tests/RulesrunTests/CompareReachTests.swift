import Foundation
import Testing

/// What `rulesrun compare` says is true: its headlines count every half, a relation that holds
/// says which branches of the rules its histories reached, the default Earned histories are long
/// enough to reach a streak of 7, and a broken expectation shows the calls that made its field.
@Suite struct CompareReachTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path

    /// B halves every price from a streak of 7 days on: cheaper than A only there.
    static let streakDiscount = """
        local M = base
        local price = M.price
        function M.price(ctx)
          local credits = price(ctx)
          if ctx.streak >= 7 then
            return credits // 2
          end
          return credits
        end
        return M
        """

    /// B's price fails on balances of 16 to 44 (validation proves only 0, 10, 45, 100 and 1000).
    static let failingPrice = """
        local M = base
        local price = M.price
        function M.price(ctx)
          if ctx.balance > 15 and ctx.balance < 45 then
            error("balance too high")
          end
          return price(ctx)
        end
        return M
        """

    static func variant(pricing: String) throws -> URL {
        try CLI.folder(["extends": rules + "\n", "pricing.lua": pricing])
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The economy half finds histories in which B's price fails: the headline counts them, beside
    /// the Pressure half's, and so does the economy's section and its JSON.
    @Test func theHeadlineCountsTheRuleErrorsOfEveryHalf() throws {
        let b = try Self.variant(pricing: Self.failingPrice)
        let out = try CLI.folder([:])
        defer { for dir in [b, out] { try? FileManager.default.removeItem(at: dir) } }
        let common = [
            "compare", "rules", b.path, "--runs", "2", "--economy-runs", "20", "--economy-days", "3", "--habit-runs", "2",
            "--habit-days", "3", "--population-users", "0", "--out", out.path,
        ]
        let text = try CLI.run(common)
        #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasSuffix(
                ": 2 Pressure histories of 30 days, 20 Earned histories of 3 days and 2 habit histories of 3 days from seed 1 (fresh users)")
                == true, "\(lines.first ?? "")")
        let headline = try #require(
            lines.count > 1
                ? lines[1].wholeMatch(
                    of:
                        #/histories with a rule error: Pressure 0 under A, 0 under B \(of 2; each is compared up to that day\); Earned 0 under A, (\d+) under B \(of 20; the event is refused, the history goes on\); habits 0 under A, 0 under B \(of 2\)/#
                ) : nil, "\(text.stdout)")
        let failed = try #require(Int(headline.output.1))
        #expect(failed > 0)
        #expect(text.stdout.contains("\n  histories with a rule error: 0 under A, \(failed) under B (each such event refused, the history going on)\n"))

        let json = try CLI.run(common + ["--json"])
        let economy = try #require(try object(json.stdout)["economy"] as? [String: Any])
        let errors = try #require(economy["histories_with_rule_error"] as? [String: Any])
        #expect(errors["a"] as? Int == 0 && errors["b"] as? Int == failed, "\(errors)")
        let habits = try #require(try object(json.stdout)["habits"] as? [String: Any])
        #expect((habits["histories_with_rule_error"] as? [String: Any])?["b"] as? Int == 0)
    }

    /// Over three days no streak reaches 7: the relation holds, and beside it compare says what the
    /// histories reached and warns that B's discount arm was never run.
    @Test func aRelationThatHoldsSaysWhatItsHistoriesReached() throws {
        let b = try Self.variant(pricing: Self.streakDiscount)
        let out = try CLI.folder([:])
        defer { for dir in [b, out] { try? FileManager.default.removeItem(at: dir) } }
        let common = [
            "compare", "rules", b.path, "--runs", "1", "--economy-runs", "10", "--economy-days", "3", "--habit-runs", "0",
            "--population-users", "0", "--out", out.path, "--expect", "B.cost_credits >= A.cost_credits",
        ]
        let text = try CLI.run(common)
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let holds = try #require(
            lines.firstIndex(
                of: "expect B.cost_credits >= A.cost_credits (--expect) on 10 Earned histories of 3 days: holds after every event of every history"
            ), "\(text.stdout)")
        try #require(lines.count > holds + 2)
        #expect(
            lines[holds + 1].contains(#/^  reached: under A \d+ of \d+ functions, \d+/\d+ lines, \d+/\d+ if-arms; under B \d+ of \d+ functions/#),
            "\(lines[holds + 1])")
        #expect(lines[holds + 2].hasPrefix("  warning: not reached, so not checked there: B pricing.price (pricing.lua:3): then at 6"))

        let json = try CLI.run(common + ["--json"])
        let property = try #require((try object(json.stdout)["properties"] as? [[String: Any]])?.first)
        let reachedB = try #require((property["reached"] as? [String: Any])?["b"] as? [String: Any], "\(property)")
        let price = try #require(
            (reachedB["not_reached"] as? [[String: Any]])?.first { $0["function"] as? String == "pricing.price" }, "\(reachedB)")
        #expect(price["file"] as? String == "pricing.lua" && price["never_called"] as? Bool == false)
        let arms = try #require(price["arms"] as? [[String: Any]])
        #expect(arms.contains { $0["line"] as? Int == 6 && $0["kind"] as? String == "then" }, "\(arms)")

        // The HTML page says it too, beside the relation's "holds" (it draws a population: 5 users of 3 days).
        let page = out.appendingPathComponent("compare.html")
        let html = try CLI.run(
            [
                "compare", "rules", b.path, "--runs", "1", "--days", "3", "--economy-runs", "10", "--economy-days", "3", "--habit-runs",
                "0", "--population-users", "5", "--out", out.path, "--expect", "B.cost_credits >= A.cost_credits", "--html", page.path,
            ])
        #expect(html.status == 0, "\(html.stderr)")
        let drawn = try String(contentsOf: page, encoding: .utf8)
        #expect(drawn.contains(#/holds on 10 histories; not reached: \d+ functions or arms of B.{1,5}s rules, \d+ functions or arms of A/#))
    }

    /// The default Earned histories last two weeks: streaks of 7 come up, the discount runs, and
    /// the relation breaks. The calls shown under it are those that made cost_credits: the prices
    /// of the gate that offered the unlock, B's at a streak of 7 or more.
    @Test func theDefaultEarnedHistoriesReachAStreakOfSevenAndTheCallsThatMadeTheFieldAreShown() throws {
        let b = try Self.variant(pricing: Self.streakDiscount)
        let out = try CLI.folder([:])
        defer { for dir in [b, out] { try? FileManager.default.removeItem(at: dir) } }
        let common = [
            // History 11 is the first of seed 1 whose streak reaches 7 before an unlock.
            "compare", "rules", b.path, "--runs", "1", "--economy-runs", "12", "--habit-runs", "0", "--population-users", "0",
            "--out", out.path, "--expect", "B.cost_credits >= A.cost_credits",
        ]
        let text = try CLI.run(common)
        #expect(text.status == 1, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("expect B.cost_credits >= A.cost_credits (--expect) on 12 Earned histories of 14 days: BROKEN in "))
        // Under each set's heading, only calls of pricing.price; B's at a streak of 7 or more.
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let heading = #/^  rule calls of the minimal history under (A|B) \(.*\) up to event \d+ that made cost_credits \(pricing.price\):$/#
        let headings = lines.indices.filter { lines[$0].wholeMatch(of: heading) != nil }
        try #require(headings.count == 2, "\(text.stdout)")
        let underB = lines[(headings[1] + 1)...].prefix { $0.hasPrefix("    ") }
        for block in [lines[(headings[0] + 1)..<headings[1]], underB] {
            let calls = block.filter { !$0.hasPrefix("     ") }
            #expect(!calls.isEmpty && calls.allSatisfy { $0.hasPrefix("    pricing.price (") }, "\(calls)")
        }
        let streaks = underB.compactMap { $0.firstMatch(of: #/"streak":(\d+)/#).flatMap { Int($0.output.1) } }
        #expect(streaks.contains { $0 >= 7 }, "\(streaks)")
    }
}
