import Foundation
import PropertyBased
import RulesEngine
import RulesModel
import RulesSim
import RulesStore
import Testing

/// The whole engine (time passing, store, output) under the Lua default rules and under the
/// native reference of the seeds gives the same output, line for line, on the replay files of
/// random histories (`ReplayScript`, the files `rulesrun compare` writes).
@Suite struct EngineDifferentialTests {
    static let historiesPerRun = 30

    @Test func luaAndNativeEnginesAgreeOnRandomHistories() async throws {
        // Not proved again: validation is not what this compares (the default rules' is checked apart).
        let luaRules = try RuleSet.load(Repository.rules.path, proving: false)
        let generator = HistoryGenerator(seed: 0xE1_61E0, days: 20...60, freshStart: true)
        await propertyCheck(count: Self.historiesPerRun, input: SeededCases.histories(generator)) { history in
            do {
                let script = ReplayScript(history)
                let lua = try EngineCheck.outputs(of: script, rules: luaRules)
                let native = try EngineCheck.outputs(of: script, rules: NativeReference())
                if let i = lua.indices.first(where: { lua[$0] != native[$0] }) {
                    Issue.record(
                        "event \(i + 1) differs:\n  event:  \(script.lines[i])\n  Lua:    \(lua[i])\n  native: \(native[i])\n\(history)\n\(ReplayScript.failureReport(history))"
                    )
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// The replay file of a history is accepted event by event: no event is refused but the shields
    /// the user has none left for.
    @Test func replayFilesOfHistoriesAreAccepted() throws {
        let generator = HistoryGenerator(seed: 0xACCE_7, days: 30...60, freshStart: true)
        for k in 0..<20 {
            let script = ReplayScript(generator.history(case: k))
            let outputs = try EngineCheck.outputs(of: script, rules: NativeReference())
            for (line, output) in zip(script.lines, outputs) where output["ok"] != .bool(true) {
                #expect(line.contains("\"shield\"") && output["error"]?["code"] == .string("NO_SHIELDS_LEFT"), "\(line)\n\(output)")
            }
        }
    }

    /// `HistoryWalker` decides what the engine decides: the engine's state after a check-in (on a
    /// day without a shield), after a shield, at the next day's commitment and at the final tick is
    /// the walker's state after that day.
    @Test(arguments: [Repository.rules.path, Repository.graduatedRecovery.path, Repository.missNeverLowersTier.path])
    func theWalkerDecidesWhatTheEngineDecides(folder: String) throws {
        let rules = try RuleSet.load(folder, proving: false)  // the walk, not the proofs, is compared
        let generator = HistoryGenerator(seed: 0x3A1C_E4, days: 30...45, freshStart: true)
        var compared = 0
        for k in 0..<15 {
            let history = generator.history(case: k)
            let script = ReplayScript(history)
            let outputs = try EngineCheck.outputs(of: script, rules: rules)
            var walker = HistoryWalker(rules, from: history)
            let outcomes = try history.days.map { try walker.step($0) }
            for (i, output) in outputs.enumerated() {
                guard let state = Replay.appliedState(of: output) else { continue }  // a refused line shows the state unchanged
                let line = script.lines[i], d = script.dayOfLine[i]
                // The day whose end state the line shows, and the calendar day of the line.
                let shown: Int, lineDate: DayID
                if line.contains("\"check_in\"") && !history.days[d - 1].shieldUsed || line.contains("\"shield\"") {
                    (shown, lineDate) = (d, history.date(ofDay: d))
                } else if line.contains("\"commitment\"") && d >= 2 {
                    (shown, lineDate) = (d - 1, history.date(ofDay: d))
                } else if line.contains("\"tick\"") {
                    (shown, lineDate) = (history.days.count, history.date(ofDay: history.days.count + 1))
                } else {
                    continue
                }
                let o = outcomes[shown - 1]
                let context = "case \(k), event \(i + 1) (day \(shown)): \(line)\n\(output)\n\(history)"
                #expect(state["current_tier"] == .int(o.counters.tier), "\(context)")
                #expect(state["consecutive_misses"] == .int(o.counters.misses), "\(context)")
                #expect(state["consecutive_successes"] == .int(o.counters.successes), "\(context)")
                #expect(state["current_streak"] == .int(o.streak.current), "\(context)")
                #expect(state["longest_streak"] == .int(o.streak.longest), "\(context)")
                // A month's first day replenishes the shields at midnight, before the line.
                if lineDate.day != 1 || line.contains("\"shield\"") {
                    #expect(state["restart_shields_remaining"] == .int(o.shieldsRemaining), "\(context)")
                }
                compared += 1
            }
        }
        #expect(compared > 300)
    }
}
