import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// The population half of `compare`: both rule sets simulated on the same seeded cohort (the same
/// personas, the same seed, so the same users make the same choices wherever the rules let them),
/// and the simulation's summary metrics side by side with their deltas.
public struct PopulationComparison: Sendable {
    public struct Metric: Sendable {
        public var name: String
        public var a: Double
        public var b: Double
        /// Whether the value is a share (printed as a percentage).
        public var isShare: Bool
        public var delta: Double { b - a }
    }

    public var users: Int
    public var days: Int
    public var seed: UInt64
    public var personas: String
    public var metrics: [Metric]
    /// The lines of each set's rule files the cohort ran (`run(…, recordsLines: true)`).
    public var lineCounts: (a: LineCounts, b: LineCounts)?

    /// Loads and checks what `run` would simulate (the personas of `mix`, the duration, the rule
    /// set) without simulating, so that a bad persona is reported before anything runs.
    public static func check(
        folder: String, users: Int, days: Int, seed: UInt64, mix: PersonaMix,
        personaFolders: [String] = [PersonaLoader.defaultFolder]
    ) throws {
        let config = SimulationConfig(
            duration: try SimulationDuration("\(days)d"), users: users, seed: seed, mix: mix,
            personaFolders: personaFolders, rules: folder, database: nil)
        _ = try Simulation(config: config)
    }

    /// Simulates `users` users for `days` days under each rule set (in memory) and compares them.
    /// `progress` is called with the set ("A" or "B"), the users simulated under it and `users`.
    public static func run(
        folderA: String, folderB: String, users: Int, days: Int, seed: UInt64, mix: PersonaMix,
        personaFolders: [String] = [PersonaLoader.defaultFolder], recordsLines: Bool = false,
        progress: ((String, Int, Int) -> Void)? = nil
    ) throws -> PopulationComparison {
        func simulate(_ rules: String, _ set: String) throws -> SimulationReport {
            let config = SimulationConfig(
                duration: try SimulationDuration("\(days)d"), users: users, seed: seed, mix: mix,
                personaFolders: personaFolders, rules: rules, database: nil, recordsLines: recordsLines)
            return try Simulation(config: config).run { progress?(set, $0, $1) }
        }
        let reportA = try simulate(folderA, "A"), reportB = try simulate(folderB, "B")
        let a = ReportSummary(reportA), b = ReportSummary(reportB)
        func share(_ n: Int, _ of: Int) -> Double { of == 0 ? 0 : Double(n) / Double(of) }
        var metrics: [Metric] = [
            // Events the engine refused, rule errors among them (a rule that fails refuses the event).
            Metric(name: "refused events", a: Double(a.refused), b: Double(b.refused), isShare: false)
        ]
        // Among them, the events a set's rules failed on (only when either set has some).
        for code in RuleFailures.Code.allCases where reportA.failures.counts[code] + reportB.failures.counts[code] > 0 {
            metrics.append(
                Metric(
                    name: "refused: \(code.rawValue) (rule failed)", a: Double(reportA.failures.counts[code]),
                    b: Double(reportB.failures.counts[code]), isShare: false))
        }
        metrics += [
            Metric(name: "YES rate", a: a.yesRate, b: b.yesRate, isShare: true),
            Metric(name: "MISSED per user-day", a: share(a.missed, a.userDays), b: share(b.missed, b.userDays), isShare: true),
        ]
        for tier in 0...3 {
            metrics.append(
                Metric(
                    name: "user-days at tier \(tier)", a: share(a.userDaysAtTier[tier], a.userDays),
                    b: share(b.userDaysAtTier[tier], b.userDays), isShare: true))
        }
        metrics += [
            Metric(name: "reminders per user-day", a: a.remindersPerUserDay, b: b.remindersPerUserDay, isShare: false),
            Metric(
                name: "most reminders in a user-day", a: Double(a.maxRemindersPerUserDay), b: Double(b.maxRemindersPerUserDay),
                isShare: false),
            Metric(name: "restart shields used", a: Double(a.shields), b: Double(b.shields), isShare: false),
            Metric(
                name: "final streak p50", a: Double(a.finalStreaks.streakPercentile(50)), b: Double(b.finalStreaks.streakPercentile(50)),
                isShare: false),
            Metric(
                name: "final streak p90", a: Double(a.finalStreaks.streakPercentile(90)), b: Double(b.finalStreaks.streakPercentile(90)),
                isShare: false),
            Metric(name: "habit completion rate", a: a.habitRate, b: b.habitRate, isShare: true),
            Metric(name: "exits to focus", a: Double(a.exits), b: Double(b.exits), isShare: false),
        ]
        if a.earnedUserDays + b.earnedUserDays > 0 { metrics += earnedMetrics(a, b) }
        var comparison = PopulationComparison(users: users, days: days, seed: seed, personas: mix.description, metrics: metrics)
        if let a = reportA.lineCounts, let b = reportB.lineCounts { comparison.lineCounts = (a, b) }
        return comparison
    }

    /// Earned's economy, per Earned user-day (the users whose persona uses Earned): credits,
    /// unlocks by method, denials, giving up, end-of-day balances.
    static func earnedMetrics(_ a: ReportSummary, _ b: ReportSummary) -> [Metric] {
        func perDay(_ name: String, _ value: (EconomyTotals) -> Int) -> Metric {
            Metric(name: name, a: a.perEarnedUserDay(value(a.earned)), b: b.perEarnedUserDay(value(b.earned)), isShare: false)
        }
        return [
            perDay("credits earned per user-day", \.creditsEarned),
            perDay("credits spent per user-day", \.creditsSpent),
            perDay("credits forfeited per user-day", \.creditsForfeited),
            Metric(name: "credits per credit unlock", a: a.creditsPerCreditUnlock, b: b.creditsPerCreditUnlock, isShare: false),
            perDay("unlocks per user-day", \.unlocks.total),
            perDay("credit unlocks per user-day", { $0.unlocks[.credits] }),
            perDay("quest unlocks per user-day", { $0.unlocks[.quest] }),
            perDay("emergency unlocks per user-day", { $0.unlocks[.emergency] }),
            Metric(name: "denied choices at the gate", a: a.earned.denialShare, b: b.earned.denialShare, isShare: true),
            perDay("gave up at the gate per user-day", \.gaveUp),
            Metric(
                name: "end-of-day balance p50", a: Double(a.earned.balancePercentile(50)), b: Double(b.earned.balancePercentile(50)),
                isShare: false),
            Metric(
                name: "end-of-day balance p90", a: Double(a.earned.balancePercentile(90)), b: Double(b.earned.balancePercentile(90)),
                isShare: false),
        ]
    }

    static func format(_ value: Double, share: Bool, signed: Bool = false) -> String {
        let sign = signed && value > 0 ? "+" : ""
        if share { return sign + String(format: "%.1f%%", value * 100) }
        if value == value.rounded() { return sign + String(Int(value)) }
        return sign + String(format: "%.2f", value)
    }

    public var text: String {
        var lines = [
            "population: \(users) users × \(days) days, seed \(seed), personas \(personas) (the same cohort under A and B)",
            "  " + "metric".padding(toLength: 34, withPad: " ", startingAt: 0) + "A".padding(toLength: 10, withPad: " ", startingAt: 0)
                + "B".padding(toLength: 10, withPad: " ", startingAt: 0) + "B − A",
        ]
        for m in metrics {
            // A difference too small for the printed precision is "≈0" (not "-0.00").
            let printed = Self.format(m.delta, share: m.isShare, signed: true)
            let delta = m.delta == 0 ? "0" : printed.allSatisfy({ "+-0.%".contains($0) }) ? "≈0" : printed
            lines.append(
                "  " + m.name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + Self.format(m.a, share: m.isShare).padding(toLength: 10, withPad: " ", startingAt: 0)
                    + Self.format(m.b, share: m.isShare).padding(toLength: 10, withPad: " ", startingAt: 0) + delta)
        }
        return lines.joined(separator: "\n")
    }

    public var json: JSONValue {
        .object([
            ("users", .int(users)), ("days", .int(days)), ("seed", .int(Int(truncatingIfNeeded: seed))), ("personas", .string(personas)),
            (
                "metrics",
                .array(
                    metrics.map { m in
                        .object([("name", .string(m.name)), ("a", .double(m.a)), ("b", .double(m.b)), ("delta", .double(m.delta))])
                    })
            ),
        ])
    }
}
