import RulesEngine
import RulesModel

/// Walks one Pressure history through two implementations of the rules in lockstep and reports the
/// first day on which they answer differently, with every day before it, so that the history can be
/// read (or turned into a replay file) as it stands.
struct HistoryComparison {
    let left: (name: String, rules: any PolicyRules)
    let right: (name: String, rules: any PolicyRules)

    /// Nil when both implementations give the same answers on every day; else the history day by
    /// day up to the first difference, with both answers on that day.
    func firstDifference(in history: PressureHistory) -> String? {
        var a = HistoryWalker(left.rules, from: history)
        var b = HistoryWalker(right.rules, from: history)
        var lines = ["start: \(PressureHistory.describe(history.counters)); \(PressureHistory.describe(history.streak))"]
        let width = max(left.name.count, right.name.count) + 2
        for (i, day) in history.days.enumerated() {
            let label = "day \(i + 1):".padding(toLength: 9, withPad: " ", startingAt: 0) + day.text
            let outcomes = (Result { try a.step(day) }, Result { try b.step(day) })
            switch outcomes {
            case (.success(let x), .success(let y)) where x == y:
                lines.append(label + "  " + x.text)
            default:
                lines.append(label)
                let differs = Self.differingFields(outcomes.0, outcomes.1)
                for (name, outcome) in [(left.name, outcomes.0), (right.name, outcomes.1)] {
                    let answer = switch outcome {
                    case .success(let x): x.text
                    case .failure(let error): "threw \(error)"
                    }
                    lines.append("    " + (name + ":").padding(toLength: width, withPad: " ", startingAt: 0) + answer)
                }
                return "\(left.name) and \(right.name) differ on day \(i + 1) of \(history.days.count) (\(differs)):\n"
                    + lines.joined(separator: "\n")
            }
        }
        return nil
    }

    /// `transition, reminders`: which answers differ.
    static func differingFields(_ a: Result<HistoryWalker.Outcome, any Error>, _ b: Result<HistoryWalker.Outcome, any Error>) -> String {
        guard case .success(let x) = a, case .success(let y) = b else { return "an error" }
        var fields: [String] = []
        if x.tier != y.tier { fields.append("tier of the day") }
        if x.reminders != y.reminders { fields.append("reminderTimes") }
        if x.transition != y.transition { fields.append("transition") }
        if x.streak != y.streak { fields.append("pressureStreak") }
        return fields.joined(separator: ", ")
    }
}
