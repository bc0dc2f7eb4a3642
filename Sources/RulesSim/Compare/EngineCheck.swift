import RulesEngine
import RulesModel
import RulesStore

/// Replays a `ReplayScript` through `Engine` and `Replay`, the users' rows in memory, with the
/// output of `rulesrun replay FILE --rules DIR`, and reads fields off the output lines: the check that
/// what `HistoryWalker` found is what the engine decides.
package struct EngineCheck {
    /// One output line per event.
    package static func outputs(of script: ReplayScript, rules: any PolicyRules) throws -> [JSONValue] {
        let replay = Replay.inMemory(rules: rules)
        return replay.inMemory { script.lines.enumerated().map { i, line in replay.output(forLine: line, number: i + 1) } }
    }

    /// The state fields a reader compares before and after an event.
    package static let stateFields = [
        "current_tier", "consecutive_misses", "consecutive_successes", "current_streak",
        "longest_streak", "restart_shields_remaining", "persistent_badge", "reminders",
    ]

    /// A state field of an output line (`reminders` is today's reminder times); nil when the line
    /// has no state (a refused event).
    package static func stateField(_ name: String, of line: JSONValue) -> String? { stateValue(name, of: line)?.description }

    /// The same as a JSON value.
    package static func stateValue(_ name: String, of line: JSONValue) -> JSONValue? {
        guard let state = Replay.appliedState(of: line) else { return nil }
        if name == "reminders" { return state["today"]?["reminders"] }
        return state[name]
    }

    /// What an output line shows of a field, for comparing the two sets line by line.
    package static func projection(_ field: HistoryField, of line: JSONValue) -> String {
        let ok = line["ok"]?.description ?? "false"
        switch field {
        case .error:
            let code = line["error"]?["code"]?.description ?? ""
            return code.contains("RULE_") ? code : (line["type"]?.description == "\"shield\"" ? "-" : ok)
        case .shield:
            return line["type"]?.description == "\"shield\"" ? ok : "-"
        case .reminders:
            return (stateField("reminders", of: line) ?? "-") + " " + (line["decisions"]?["reminders_sent"]?.description ?? "")
        default:
            return stateField(field.rawValue, of: line) ?? "-"
        }
    }

    /// The index of the first line on which the field shows differently under the two sets.
    package static func firstDifference(_ field: HistoryField, _ a: [JSONValue], _ b: [JSONValue]) -> Int? {
        (0..<min(a.count, b.count)).first { projection(field, of: a[$0]) != projection(field, of: b[$0]) }
    }

    /// Whether an output line is a refusal because a rule failed (`RULE_ERROR`, `RULE_VIOLATION`).
    package static func isRuleError(_ line: JSONValue) -> Bool {
        line["error"]?["code"]?.description.contains("RULE_") == true
    }

    /// The index of the first line on which an expectation fails on the two sets' states, or on
    /// which a rule fails under B and not under A (B decided nothing; for `error`, the failures are
    /// what it compares). A field that is not a number is compared as `shown` reads it.
    package static func firstBreak(of expectation: Expectation, _ a: [JSONValue], _ b: [JSONValue]) -> Int? {
        (0..<min(a.count, b.count)).first { i in
            let x = a[i], y = b[i]
            if expectation.left.field != .error && isRuleError(y) && !isRuleError(x) { return true }
            guard expectation.left.field.isNumeric else {
                func value(_ operand: (side: Expectation.Side, field: HistoryField)) -> String? {
                    shown(operand.field, of: operand.side == .a ? x : y)
                }
                return !expectation.holds(shown: value(expectation.left), value(expectation.right))
            }
            func value(_ operand: (side: Expectation.Side, field: HistoryField)) -> Int? {
                stateField(operand.field.rawValue, of: operand.side == .a ? x : y).flatMap { Int($0) }
            }
            guard let l = value(expectation.left), let r = value(expectation.right) else { return false }
            return !expectation.holds(l, r)
        }
    }

    /// What an output line shows of a field that is not a number, as an expectation compares it
    /// (nil when the line does not show it): `error` whether a rule failed, `shield` a shield
    /// event's `ok`, `reminders` and `persistent_badge` the state's.
    package static func shown(_ field: HistoryField, of line: JSONValue) -> String? {
        switch field {
        case .error: return isRuleError(line) ? "error" : "ok"
        case .shield: return line["type"] == .string("shield") ? (line["ok"]?.description ?? "false") : nil
        default: return stateField(field.rawValue, of: line)
        }
    }
}
