import Foundation
import PropertyBased
import RulesEngine
import RulesModel
import RulesSim
import Testing

/// The seeds' invariants hold along random histories for every rule set of the repository: every
/// folder under `rules/` and `examples/` (and `rules/` itself) that `RuleSet.load` loads (without
/// the proofs: the invariants, not validation, are checked here; a folder that loads but fails its
/// proofs is checked too).
@Suite(.shrinking) struct RuleSetInvariantTests {
    static let repository = Repository.root
    static let historiesPerRuleSet = 1_000

    /// The accepted rule sets, as paths relative to the repository (`rules`, `examples/…`).
    static let ruleSetFolders: [String] = {
        var folders: [URL] = []
        for top in ["rules", "examples"] {
            let url = repository.appendingPathComponent(top)
            folders.append(url)
            let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey])
            while let item = walk?.nextObject() as? URL {
                if (try? item.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true { folders.append(item) }
            }
        }
        let base = repository.standardizedFileURL.path + "/"
        return folders.map { $0.standardizedFileURL.path }
            .filter { (try? RuleSet.load($0, proving: false)) != nil }
            .map { String($0.dropFirst(base.count)) }
            .sorted()
    }()

    /// One of `ruleSetFolders`, loaded without proving it (a proof is most of a load, about 0.7 s
    /// of CPU in a debug build).
    static func load(_ folder: String) throws -> RuleSet {
        try RuleSet.load(repository.appendingPathComponent(folder).path, proving: false)
    }

    @Test func theDefaultRuleSetAndItsAlternativesAreFound() {
        #expect(Self.ruleSetFolders.contains("rules"), "\(Self.ruleSetFolders)")
        #expect(Self.ruleSetFolders.contains { $0.hasPrefix("examples/") }, "\(Self.ruleSetFolders)")
    }

    @Test(arguments: ruleSetFolders)
    func invariantsHoldAlongRandomHistories(folder: String) async throws {
        let rules = try Self.load(folder)
        // One seed per rule set, from its name, so that each gets its own histories.
        let seed = folder.utf8.reduce(UInt64(0x1A7A_2025)) { ($0 &* 31) &+ UInt64($1) }
        await propertyCheck(count: Self.historiesPerRuleSet, input: SeededCases.histories(HistoryGenerator(seed: seed))) { history in
            if let violation = Self.firstViolation(in: history, rules: rules, name: folder) {
                Issue.record("\(violation)\n\(ReplayScript.failureReport(history))\(SeededCases.replayNote(seed: seed))")
            }
        }
    }

    /// Nil when every invariant holds on every day; else the history day by day up to the first day
    /// that breaks one, and what it breaks.
    static func firstViolation(in history: PressureHistory, rules: any PolicyRules, name: String) -> String? {
        var walker = HistoryWalker(rules, from: history)
        var lines = [
            "start: \(PressureHistory.describe(history.counters)); \(PressureHistory.describe(history.streak)); set-up day \(history.setupDay)"
        ]
        var longest = history.streak.longest
        for (i, day) in history.days.enumerated() {
            let label = "day \(i + 1):".padding(toLength: 9, withPad: " ", startingAt: 0) + day.text
            let outcome: HistoryWalker.Outcome
            do {
                outcome = try walker.step(day)
            } catch {
                lines.append(label + "  threw \(error)")
                return "\(name): a rule failed on day \(i + 1):\n" + lines.joined(separator: "\n")
            }
            lines.append(label + "  " + outcome.text)
            let broken = violations(of: outcome, on: day, longestBefore: longest, maxTier: rules.escalationKnobs.maxTier)
            if !broken.isEmpty {
                return "\(name) breaks \(broken.joined(separator: "; ")) on day \(i + 1):\n" + lines.joined(separator: "\n")
            }
            longest = outcome.streak.longest
        }
        return nil
    }

    /// The seeds' hard constraints and the streak's own invariants, for one day.
    static func violations(of outcome: HistoryWalker.Outcome, on day: PressureHistory.Day, longestBefore: Int, maxTier: Int) -> [String] {
        var broken: [String] = []
        let tiers = 0...min(maxTier, PressureLimits.maxTier)
        for (what, tier) in [("tier of the day", outcome.tier), ("tier after transition", outcome.transition.tier)]
        where !tiers.contains(tier) {
            broken.append("\(what) \(tier) outside \(tiers.lowerBound)–\(tiers.upperBound)")
        }
        if outcome.transition.misses < 0 { broken.append("consecutive_misses \(outcome.transition.misses) < 0") }
        if outcome.transition.successes < 0 { broken.append("consecutive_successes \(outcome.transition.successes) < 0") }
        let times = outcome.reminders.sorted()
        if times.count > PressureLimits.maxRemindersPerDay {
            broken.append("\(times.count) reminders, more than \(PressureLimits.maxRemindersPerDay) a day")
        }
        for (earlier, later) in zip(times, times.dropFirst())
        where later.minutes - earlier.minutes < PressureLimits.minReminderSpacingMinutes {
            broken.append("reminders \(earlier) and \(later) less than \(PressureLimits.minReminderSpacingMinutes) minutes apart")
        }
        for time in times where time < day.open || time >= day.close {
            broken.append("reminder \(time) outside the window \(day.open)–\(day.close)")
        }
        if outcome.streak.current < 0 { broken.append("current streak \(outcome.streak.current) < 0") }
        if outcome.streak.longest < outcome.streak.current {
            broken.append("longest streak \(outcome.streak.longest) below the current \(outcome.streak.current)")
        }
        if outcome.streak.longest < longestBefore {
            broken.append("longest streak went down from \(longestBefore) to \(outcome.streak.longest)")
        }
        return broken
    }
}
