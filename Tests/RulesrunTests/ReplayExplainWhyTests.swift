import Foundation
import Testing

/// `replay --explain` answers why: the params a call read beside its knobs, the notes a rule
/// attached (`note`), the line a call returned from, what a credit unlock was charged and from
/// which gate's price; and the state leaves out the apps a user does not use.
@Suite struct ReplayExplainWhyTests {
    /// A pricing.lua over the default rules with a param and a note: from 09:00 the price has a
    /// surcharge of `params.night_percent`.
    static let surcharge = """
        local M = base
        M.params = {
          night_percent = { type = "integer", min = 0, max = 200, default = 50, doc = "surcharge from 09:00" },
        }
        function M.price(ctx)
          local credits = 0
          for _, cost in ipairs(M.credit_costs) do
            if cost.minutes == ctx.minutes then credits = cost.credits end
          end
          if ctx.hour >= 9 then
            note("night surcharge " .. ctx.params.night_percent .. " %")
            return credits * (100 + ctx.params.night_percent) // 100
          end
          return credits
        end
        return M
        """

    /// The first 12 lines of the Earned example: a gate at line 11, a 5-minute credit unlock at 12.
    static func earnedEvents(_ range: ClosedRange<Int> = 1...12) throws -> String {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/replay/earned-economy.jsonl"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init)[(range.lowerBound - 1)...(range.upperBound - 1)].joined(separator: "\n") + "\n"
    }

    @Test func aChargeSaysWhichPriceItPaidAndFromWhichGate() throws {
        let text = try CLI.run(["replay", "examples/replay/earned-economy.jsonl", "--explain", "text"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            ReplayExplainTests.explanation(text.stdout, line: 12).first
                == "  charged 10 credits for 5 minutes (price from pricing.lua:49, the gate of line 11)")
        // A denied choice (line 10) and a quest unlock (line 14) are charged nothing.
        for line in [10, 14] { #expect(!ReplayExplainTests.explanation(text.stdout, line: line).contains { $0.contains("charged") }) }
        let json = try CLI.run(["replay", "examples/replay/earned-economy.jsonl", "--explain", "json"])
        let out = try ReplayExplainTests.objects(json.stdout)
        let line12 = try #require(out.first { $0["line"] as? Int == 12 })
        #expect(
            line12["explain_charge"] as? NSDictionary == ["credits": 10, "minutes": 5, "gate_line": 11, "price_from": "pricing.lua:49"])
        // Each call gives the line it returned from.
        let gate = try #require(out.first { $0["line"] as? Int == 11 }?["explain"] as? [[String: Any]])
        #expect(gate.filter { $0["function"] as? String == "pricing.price" }.map { $0["return_line"] as? Int } == [49, 49, 49])
        // A gate of an earlier replay of the same database is not in this one.
        let dir = try CLI.folder(["gate.jsonl": try Self.earnedEvents(1...11), "choice.jsonl": try Self.earnedEvents(12...12)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("run.sqlite").path
        #expect(try CLI.run(["replay", dir.appendingPathComponent("gate.jsonl").path, "--db", db]).status == 0)
        let later = try CLI.run(["replay", dir.appendingPathComponent("choice.jsonl").path, "--db", db, "--explain", "text"])
        #expect(
            ReplayExplainTests.explanation(later.stdout, line: 1).first
                == "  charged 10 credits for 5 minutes (the price its gate showed; the gate is not in this replay)", "\(later.stdout)")
    }

    @Test func theParamsANoteAndTheChargeOfAPriceThatUsesThem() throws {
        let dir = try CLI.folder([
            "rules/extends": CLI.packageRoot.appendingPathComponent("rules").path + "\n",
            "rules/pricing.lua": Self.surcharge,
            "events.jsonl": try Self.earnedEvents(),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let arguments = ["replay", "events.jsonl", "--rules", "rules", "--explain"]
        let text = try CLI.run(arguments + ["text"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let gate = ReplayExplainTests.explanation(text.stdout, line: 11)
        let price = try #require(gate.firstIndex { $0 == "  pricing.price (pricing.lua:5)" })
        #expect(gate[price + 2] == "    returned: 15")
        #expect(gate[price + 3] == "    note: night surcharge 50 %")
        #expect(gate[price + 4].hasPrefix("    knobs: pricing.credit_costs[1].minutes = 5, pricing.credit_costs[1].credits = 10"))
        #expect(gate[price + 5] == "    params read: night_percent = 50, night_percent = 50")
        // At 08:30 (line 8) the price reads no param: no such line.
        #expect(
            !ReplayExplainTests.explanation(text.stdout, line: 8).contains { $0.hasPrefix("    params read:") || $0.hasPrefix("    note:") }
        )
        // The charge gives the line that returned the price, and the note the price made.
        #expect(
            ReplayExplainTests.explanation(text.stdout, line: 12).prefix(2) == [
                "  charged 15 credits for 5 minutes (price from pricing.lua:12, the gate of line 11)", "    note: night surcharge 50 %",
            ])
        let json = try CLI.run(arguments + ["json"], in: dir)
        let out = try ReplayExplainTests.objects(json.stdout)
        let call = try #require(
            (out.first { $0["line"] as? Int == 11 }?["explain"] as? [[String: Any]])?.first { $0["function"] as? String == "pricing.price" }
        )
        #expect(call["notes"] as? [String] == ["night surcharge 50 %"])
        #expect(call["params_read"] as? NSArray == [["name": "night_percent", "value": 50], ["name": "night_percent", "value": 50]])
        #expect(call["return_line"] as? Int == 12)
        // Only when there are any: the 08:30 price has neither.
        let morning = try #require(
            (out.first { $0["line"] as? Int == 8 }?["explain"] as? [[String: Any]])?.first { $0["function"] as? String == "pricing.price" })
        #expect(morning["notes"] == nil && morning["params_read"] == nil && morning["return_line"] as? Int == 14)
        #expect(
            (out.first { $0["line"] as? Int == 12 }?["explain_charge"] as? [String: Any])?["notes"] as? [String] == ["night surcharge 50 %"]
        )
        // Explaining changes nothing of the output lines.
        let plain = try CLI.run(["replay", "events.jsonl", "--rules", "rules"], in: dir)
        #expect(text.stdout.split(separator: "\n").filter { $0.hasPrefix("{") } == plain.stdout.split(separator: "\n"))
    }

    @Test func theStateLeavesOutTheAppsTheUserDoesNotUse() throws {
        let dir = try CLI.folder([
            "events.jsonl": """
            {"at": "2026-03-02T07:00:00Z", "user": "e", "type": "settings", "timezone": "UTC"}
            {"at": "2026-03-02T07:01:00Z", "user": "e", "type": "earned_habit", "habit": "stretch"}
            {"at": "2026-03-02T07:02:00Z", "user": "h", "type": "habit_task", "task": "run"}
            {"at": "2026-03-02T07:03:00Z", "user": "e", "type": "commitment", "text": "ship"}
            {"at": "2026-03-02T07:04:00Z", "user": "p", "type": "commitment", "text": "ship"}
            """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLI.run(["replay", dir.appendingPathComponent("events.jsonl").path])
        #expect(result.status == 0, "\(result.stderr)")
        let states = try ReplayExplainTests.objects(result.stdout).map { try #require($0["state"] as? [String: Any]) }
        // A user of no app yet: Pressure's fields, as before.
        #expect(states[0]["current_tier"] as? Int == 0)
        // An Earned user, a habit tracker user: only their app.
        #expect(Set(states[1].keys) == ["earned"])
        #expect(Set(states[2].keys) == ["habit_streaks"])
        // From the first Pressure event on, Pressure's fields come back; a Pressure user has them all along.
        #expect(states[3]["current_tier"] as? Int == 0 && states[3]["today"] != nil && states[3]["earned"] != nil)
        #expect(states[4]["current_tier"] as? Int == 0 && states[4]["earned"] == nil && states[4]["habit_streaks"] == nil)
    }
}
