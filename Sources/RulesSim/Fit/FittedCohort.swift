import Foundation
import RulesEngine
import RulesModel

/// Users simulated from a fit's personas (the persona files `fit --out` would write: one, or one
/// per segment mixed by the segments' shares) under a rule set, their events replayed and counted
/// exactly as a log's users are (``LogUserTally``): each metric's moments, their totals day by day
/// and their streaks at the end. What the check on held-out users (``PredictiveCheck``) and the
/// prediction under other rules (``FitPrediction``) share.
package struct FittedCohort {
    /// The persona `fit` started from (its text and how it was named) and the log, from which each
    /// fitted persona file is made (``PersonaFit/persona(from:source:log:segment:)``).
    package var text: String
    package var source: String
    package var log: String

    package init(text: String, source: String, log: String) { (self.text, self.source, self.log) = (text, source, log) }

    /// The persona files of `fit`.
    package func personas(_ fit: PersonaFit) -> [String] {
        (0..<fit.personaCount).map { fit.persona(from: text, source: source, log: log, segment: $0) }
    }

    /// What the simulated users counted: each metric's moments, and their totals day by day (each
    /// user's days from its first).
    package struct Counted: Sendable {
        package var moments: [MetricMoments]
        package var days: [DayTotals]
        /// The users by Pressure streak at the log's end, those still there (`[v]`: users with v days).
        package var finalStreaks: [Int]
        /// Their unlocks by local hour (``LogUserTally/unlockHours``).
        package var unlockHours: [Int]
    }

    /// What `users` users simulated from `fit`'s personas (written to a folder of this run's own,
    /// removed after) from `start` over `days` days under `replay`'s rules (its rollout's arms when
    /// it has one) counted, `seed` the simulation's and the replay's.
    package func counted(
        _ fit: PersonaFit, users: Int, replay: ArmReplay, start: DayID, days: Int, seed: UInt64, metrics: [Metric]
    ) throws -> Counted {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-fit-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let texts = personas(fit)
        let files = texts.indices.map { dir.appendingPathComponent("fitted-\($0 + 1).lua").path }
        for (file, text) in zip(files, texts) { try text.write(toFile: file, atomically: true, encoding: .utf8) }
        let mix = try PersonaMix([files.count == 1 ? files[0] : fit.mix(files)])
        return try Self.counted(
            users: users, personas: mix, personaFolders: [dir.path], replay: replay, start: start, days: days, seed: seed,
            metrics: metrics)
    }

    /// What `users` users simulated from `personas` from `start` over `days` days under `replay`'s
    /// rules counted, `seed` the simulation's and the replay's.
    package static func counted(
        users: Int, personas: PersonaMix, personaFolders: [String], replay: ArmReplay, start: DayID, days: Int, seed: UInt64,
        metrics: [Metric]
    ) throws -> Counted {
        var config = SimulationConfig(
            duration: try SimulationDuration("\(max(1, days))d"), start: start, users: max(2, users), seed: seed, mix: personas,
            personaFolders: personaFolders, rules: replay.rules[0].folder, jobs: replay.jobs)
        config.validated = replay.rules[0].snapshot
        config.rollout = replay.rollout
        config.recordsEvents = true
        config.findsMetrics = false
        var log = EventLog()
        var number = 0
        _ = try Simulation(config: config).run(events: { chunk in
            for line in chunk.split(separator: "\n") {
                number += 1
                try log.add(line: Array(line.utf8), number: number)
            }
        })
        var simulated = metrics.map { _ in MetricMoments() }
        var simulatedDays: [DayTotals] = []
        var streaks: [Int] = [], hours = Array(repeating: 0, count: 24)
        var problems = EventLog.Problems()
        let end = log.end
        try replay.run(&log, problems: &problems) { worker, assigned -> (RolloutAnalysis.UserPart, [Int])? in
            let tally = try worker.tally(assigned, seed: seed, logEnd: end)
            return RolloutAnalysis.UserPart(tally, days: nil, metrics: metrics, quantiles: [.finalStreakP50]).map {
                ($0, tally.unlockHours)
            }
        } add: { _, counted in
            guard let (part, unlocks) = counted else { return }
            for h in 0..<24 { hours[h] += unlocks[h] }
            for m in simulated.indices { simulated[m] += part.moments[m] }
            DayTotals.add(part.days, into: &simulatedDays)
            Histogram.add(part.histograms[0], to: &streaks)
        }
        return Counted(moments: simulated, days: simulatedDays, finalStreaks: streaks, unlockHours: hours)
    }
}

extension PersonaFit {
    /// The `--persona` of `files` (one per segment) with the segments' shares as weights (percent).
    package func mix(_ files: [String]) -> String {
        zip(files, segments).map { "\($0):\(String(format: "%.1f", 100 * $1.share))" }.joined(separator: ",")
    }
}
