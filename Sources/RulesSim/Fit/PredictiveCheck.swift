import Foundation
import RulesEngine
import RulesModel

/// A check of a fit on users it did not see (`fit --check users:P`): a share of the log's users is
/// held out of the fit; as many users are then simulated from the fitted personas under the same
/// rules over the log's days, their events replayed and counted as the log's are
/// (``LogUserTally``), and each metric of the registry is compared between the held-out users
/// (observed) and the simulated ones (predicted): the difference with its 95 % interval (Welch's,
/// or the delta method for a ratio, as `analyze` compares two arms). A difference whose interval
/// leaves 0 out is something the fitted personas do not reproduce.
package struct PredictiveCheck: Sendable {
    /// The users held out of the fit: `percent` of them, by a hash of their name (the same users
    /// every run, whatever the order of the log).
    package struct HeldOut: Sendable, Equatable {
        package var percent: Int

        package init(percent: Int) { self.percent = percent }

        package func holds(_ user: String) -> Bool {
            var digest = FNV64()
            digest.add(user)
            return Int(((digest.digest &* 0x9E37_79B9_7F4A_7C15) >> 32) % 100) < percent
        }
    }

    /// One metric: the held-out users' value against the simulated users' (control: observed,
    /// treatment: simulated), or why it cannot be compared.
    package struct Row: Sendable {
        package var metric: Metric
        package var comparison: ArmComparison?
        package var reason: String?
    }

    package var heldOut: HeldOut
    package var observedUsers: Int
    package var simulatedUsers: Int
    /// The simulation's first day and days.
    package var start: DayID
    package var days: Int
    package var rows: [Row]
    /// Day by day (each user's own days from its first), the held-out users' totals and the
    /// simulated users'.
    package var observedDays: [DayTotals]
    package var simulatedDays: [DayTotals]
    /// The users by Pressure streak at the log's end (those still there), held out and simulated.
    package var observedStreaks: [Int]
    package var simulatedStreaks: [Int]
    /// The unlocks by local hour, held out and simulated.
    package var observedUnlockHours: [Int]
    package var simulatedUnlockHours: [Int]

    /// Compares `observed` (per metric of `metrics`, the held-out users' moments) with as many
    /// users simulated from `fit`'s personas (``FittedCohort``) from `start` over `days` days under
    /// `replay`'s rules (its rollout's arms when it has one; `seed` the simulation's).
    package init(
        heldOut: HeldOut, observed: [MetricMoments], observedDays: [DayTotals], observedStreaks: [Int], observedUnlockHours: [Int],
        observedUsers: Int,
        metrics: [Metric], fit: PersonaFit,
        cohort: FittedCohort, replay: ArmReplay, start: DayID, days: Int, seed: UInt64
    ) throws {
        let counted = try cohort.counted(
            fit, users: observedUsers, replay: replay, start: start, days: days, seed: seed, metrics: metrics)
        let simulated = counted.moments
        self.observedDays = observedDays
        simulatedDays = counted.days
        self.observedStreaks = observedStreaks
        simulatedStreaks = counted.finalStreaks
        self.observedUnlockHours = observedUnlockHours
        simulatedUnlockHours = counted.unlockHours
        self.heldOut = heldOut
        self.observedUsers = observedUsers
        simulatedUsers = simulated.first?.n ?? 0
        self.start = start
        self.days = days
        rows = zip(metrics, zip(observed, simulated)).compactMap { metric, pair in
            let (a, b) = pair
            guard a.value != nil || b.value != nil else { return nil }
            do {
                return Row(metric: metric, comparison: try ArmComparison.compare(control: a, treatment: b))
            } catch {
                return Row(metric: metric, reason: (error as? AnalysisError)?.message ?? "\(error)")
            }
        }
    }
}

extension PredictiveCheck {
    /// The section of the text report.
    package var text: String {
        var out = "\ncheck on users the fit did not see: \(heldOut.percent)% of the users held out (\(observedUsers)),"
        out += " \(simulatedUsers) simulated from the fitted personas from \(start.rawValue) over \(days) days\n"
        var lines = [["metric", "observed", "simulated", "difference", "95% interval", ""]]
        for row in rows {
            guard let c = row.comparison else {
                lines.append([row.metric.label, "–", "–", "–", "–", row.reason ?? ""])
                continue
            }
            let m = row.metric
            let d = c.difference
            lines.append([
                m.label, m.format(c.control.value), m.format(c.treatment.value), Self.signed(m, d.point),
                "[\(Self.signed(m, d.low)), \(Self.signed(m, d.high))]", d.isSignificant ? "differs" : "agrees",
            ])
        }
        out += PersonaFit.table(lines, left: [0, 5])
        let differ = rows.filter { $0.comparison?.difference.isSignificant == true }.count
        out += "\(differ) of \(rows.filter { $0.comparison != nil }.count) metrics differ (their interval leaves 0 out)\n"
        for buckets in [finalStreaks, unlockHours].compactMap(\.self) { out += buckets.text }
        return out
    }

    static func signed(_ metric: Metric, _ x: Double) -> String { (x >= 0 ? "+" : "") + metric.format(x) }

    /// The section of the JSON report.
    package var json: JSONValue {
        let metrics: [JSONValue] = rows.map { row in
            var members: [(String, JSONValue)] = [("id", .string(row.metric.id)), ("label", .string(row.metric.label))]
            if let c = row.comparison {
                members += [
                    ("observed", .double(c.control.value)), ("simulated", .double(c.treatment.value)),
                    ("difference", .double(c.difference.point)), ("low", .double(c.difference.low)), ("high", .double(c.difference.high)),
                    ("agrees", .bool(!c.difference.isSignificant)),
                ]
            } else {
                members.append(("reason", .string(row.reason ?? "")))
            }
            return .object(members)
        }
        return .object([
            ("held_out_percent", .int(heldOut.percent)), ("observed_users", .int(observedUsers)), ("simulated_users", .int(simulatedUsers)),
            ("start", .string(start.rawValue)), ("days", .int(days)), ("metrics", .array(metrics)), ("per_day", curvesJSON),
            ("final_streaks", finalStreaks?.json ?? .null), ("unlock_hours", unlockHours?.json ?? .null),
        ])
    }
}
