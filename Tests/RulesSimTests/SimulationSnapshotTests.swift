import Foundation
import RulesEngine
import RulesSim
import Testing

/// A simulation given the rule set validated already (`SimulationConfig.validated`, as `rulesrun
/// watch` gives it) runs those bytes, in every worker, and its report's digest says so: a file saved
/// meanwhile changes nothing.
@Suite struct SimulationSnapshotTests {
    @Test func aSimulationGivenTheValidatedSetRunsItAndNotTheFilesSavedSince() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let defaults = URL(fileURLWithPath: SimTestSupport.rules)
        for name in RuleSet.fileNames {
            var text = try String(contentsOf: defaults.appendingPathComponent(name), encoding: .utf8)
            if name == "escalation.lua" {
                let knob = "M.tier_for_misses = { 1, 2, 3 }"
                #expect(text.contains(knob))
                text = text.replacingOccurrences(of: knob, with: "M.tier_for_misses = { 1, 3, 4 }")
            }
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        var config = try SimTestSupport.config(days: 7, users: 12, jobs: 2)
        config.rules = dir.path
        let edited = try Simulation(config: config).run()
        config.validated = try RuleSet.load(dir.path).snapshot

        // Saved after validation: the default escalation.lua, which escalates sooner.
        try String(contentsOf: defaults.appendingPathComponent("escalation.lua"), encoding: .utf8)
            .write(to: dir.appendingPathComponent("escalation.lua"), atomically: true, encoding: .utf8)
        #expect(try Simulation(config: config).run() == edited)
        config.validated = nil
        let now = try Simulation(config: config).run()
        #expect(now.run.inputsDigest != edited.run.inputsDigest)
        #expect(now.days != edited.days)
    }
}
