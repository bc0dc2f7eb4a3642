import Foundation
import RulesEngine
import RulesModel

/// The habit tracker's issue-17 part of the report: skips, streak freezes and late completions
/// (when a persona logs any), the tasks' longest best streaks and scores at the end of each day
/// (when the rule set returns them). A run with none of them prints none of it in the table and
/// the JSON (the CSV always has its columns, zero or empty).
extension SimulationReport {
    /// What the run has to show: any day with a skip, a freeze or a late completion; best
    /// streaks; scores (computed once per rendering: each looks at every day).
    struct HabitShown {
        var marks: Bool
        var best: Bool
        var scores: Bool
        init(_ days: [DayTotals]) {
            marks = days.contains { $0.hasHabitMarks }
            best = days.contains { !$0.bestStreaks.isEmpty }
            scores = days.contains { !$0.scores.isEmpty }
        }
    }

    /// The table's columns: skips and freezes used; the median longest best streak and the mean score.
    static func habitHeader(_ shown: HabitShown) -> [String] {
        (shown.marks ? ["skips", "frozen"] : []) + (shown.best ? ["best p50"] : []) + (shown.scores ? ["score"] : [])
    }

    static func habitCells(_ d: DayTotals, _ shown: HabitShown) -> [String] {
        (shown.marks ? [String(d.habitSkips), String(d.freezesUsed)] : [])
            + (shown.best ? [String(Histogram.percentile(50, of: d.bestStreaks))] : [])
            + (shown.scores ? [percent(DayTotals.mean(of: d.scores) / 100)] : [])
    }

    /// The summary lines.
    static func habitLines(_ s: ReportSummary, _ shown: HabitShown) -> String {
        var out = ""
        let t = s.habitTotals
        if shown.marks {
            out +=
                "  habit skips and freezes     \(t.habitSkips) skipped, \(t.freezesEquipped) freezes equipped, \(t.freezesUsed) used; "
                + "\(t.habitLate) completed the next day\n"
        }
        let last = s.finalStreaks
        if shown.best {
            let b = last.bestStreaks
            out +=
                "  habit best streaks          last day, \(b.reduce(0, +)) tasks: mean \(String(format: "%.1f", DayTotals.mean(of: b))), "
                + "p50 \(Histogram.percentile(50, of: b)), p90 \(Histogram.percentile(90, of: b)), max \(Histogram.maximum(of: b))\n"
        }
        if shown.scores {
            out +=
                "  habit score                 last day, \(last.scores.reduce(0, +)) tasks: mean \(percent(DayTotals.mean(of: last.scores) / 100))\n"
        }
        return out
    }

    /// The summary's fields (after `habit_completion_rate`).
    static func habitSummaryJSON(_ s: ReportSummary, _ shown: HabitShown) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        let t = s.habitTotals
        if shown.marks {
            fields.append(
                (
                    "habit_marks",
                    .object([
                        ("skips", .int(t.habitSkips)), ("freezes_equipped", .int(t.freezesEquipped)), ("freezes_used", .int(t.freezesUsed)),
                        ("late", .int(t.habitLate)),
                    ])
                ))
        }
        let last = s.finalStreaks
        if shown.best {
            let b = last.bestStreaks
            fields.append(
                (
                    "habit_best_streaks",
                    .object([
                        ("tasks", .int(b.reduce(0, +))), ("mean", rounded(DayTotals.mean(of: b))),
                        ("p50", .int(Histogram.percentile(50, of: b))), ("p90", .int(Histogram.percentile(90, of: b))),
                        ("max", .int(Histogram.maximum(of: b))),
                    ])
                ))
        }
        if shown.scores {
            fields.append(
                (
                    "habit_score",
                    .object([("tasks", .int(last.scores.reduce(0, +))), ("mean", rounded(DayTotals.mean(of: last.scores) / 100))])
                ))
        }
        return fields
    }

    /// A day's fields (raw counts, which `merge` reads back, and derived ones).
    static func habitDayJSON(_ d: DayTotals, _ shown: HabitShown) -> [(String, JSONValue)] {
        typealias K = DayTotals.CodingKeys
        var fields: [(String, JSONValue)] = []
        if shown.marks {
            fields += [
                (K.habitSkips.rawValue, .int(d.habitSkips)), (K.freezesEquipped.rawValue, .int(d.freezesEquipped)),
                (K.freezesUsed.rawValue, .int(d.freezesUsed)), (K.habitLate.rawValue, .int(d.habitLate)),
            ]
        }
        if shown.best {
            fields += [
                ("best_streak_mean", rounded(DayTotals.mean(of: d.bestStreaks))),
                ("best_streak_p50", .int(Histogram.percentile(50, of: d.bestStreaks))),
                (K.bestStreaks.rawValue, .array(d.bestStreaks.map { .int($0) })),
            ]
        }
        if shown.scores {
            fields += [
                ("score_mean", rounded(DayTotals.mean(of: d.scores) / 100)), (K.scores.rawValue, .array(d.scores.map { .int($0) })),
            ]
        }
        return fields
    }

    /// The CSV's columns (always, at the end).
    static let habitCSVHeader = [
        "habit_skips", "freezes_equipped", "freezes_used", "habit_late", "best_streak_tasks", "best_streak_mean", "best_streak_p50",
        "best_streak_max", "score_tasks", "score_mean",
    ]

    static func habitCSVFields(_ d: DayTotals) -> [String] {
        [d.habitSkips, d.freezesEquipped, d.freezesUsed, d.habitLate, d.bestStreaks.reduce(0, +)].map(String.init)
            + [fixed(DayTotals.mean(of: d.bestStreaks))]
            + [Histogram.percentile(50, of: d.bestStreaks), Histogram.maximum(of: d.bestStreaks), d.scores.reduce(0, +)].map(String.init)
            + [fixed(DayTotals.mean(of: d.scores) / 100)]
    }
}
