import RulesEngine
import RulesModel

/// An expectation (`--expect`) over fields of the economy or the habit tracker, such as
/// `B.cost_credits <= A.cost_credits` ("B never charges more for the same unlock") or
/// `B.habit_streak >= A.habit_streak` ("B's streaks are never shorter"). Pressure's fields are
/// walked as `Expectation`s; these are checked as properties (`HistoryCheck`) on compare's Earned
/// or habit histories, replayed through the engine: after every event both sets accepted, where
/// both show the field, the relation must hold (a habit field task by task).
///
/// The decisions that are records (`gate_options`, `unlock`, `quest`, `rollover`,
/// `habit_decision`, `habit_best_streaks`: what `compare`'s kinds of the same names show, ids left
/// out) and the refusals (`earned_error`, `habit_error`: the kinds named `error`, the code of a
/// refused event or `ok`, compared on every event) are compared by equality only, each with itself
/// (`B.gate_options == A.gate_options`); a record has no order.
package struct LineExpectation: Sendable, CustomStringConvertible {
    /// The fields, by name: the app whose histories show them and where the output has them.
    package enum Field: String, CaseIterable, Sendable {
        /// `state.earned.credit_balance`.
        case creditBalance = "credit_balance"
        /// `state.earned.streak_count`.
        case streakCount = "streak_count"
        /// `decisions.unlock.cost_credits`: what a credit unlock was charged.
        case costCredits = "cost_credits"
        /// `decisions.focus_ended.credits` and `decisions.earned_habit_completion.credits`: credits earned.
        case creditsEarned = "credits_earned"
        /// `state.habit_streaks`, task by task.
        case habitStreak = "habit_streak"
        /// `state.habit_scores`, task by task.
        case habitScore = "habit_score"
        /// `state.habit_best_streaks`, task by task: the longest `length` of the task's best streaks.
        case habitBestStreak = "habit_best_streak"
        /// Records, by equality: `EconomyField`'s and `HabitField`'s values of the same names.
        case gateOptions = "gate_options"
        case unlock
        case quest
        case rollover
        case habitDecision = "habit_decision"
        /// `state.habit_best_streaks`, every task's best streaks as a record (`HabitField`'s `habit_best_streaks`).
        case habitBestStreaks = "habit_best_streaks"
        /// The refusal's code of an event (`ok` when accepted), as `EconomyField`'s and `HabitField`'s
        /// `error` read it (Pressure's `error` is `HistoryField`'s), compared on every event.
        case earnedError = "earned_error"
        case habitError = "habit_error"

        package var app: HistoryApp {
            switch self {
            case .creditBalance, .streakCount, .costCredits, .creditsEarned, .gateOptions, .unlock, .quest, .rollover, .earnedError: .earned
            case .habitStreak, .habitScore, .habitBestStreak, .habitDecision, .habitBestStreaks, .habitError: .habits
            }
        }

        /// The rule functions whose answers make the field (by `RuleSet.namedRuleFunctions`' names);
        /// empty for a refusal, which any rule can cause.
        package var producers: [String] {
            switch self {
            case .creditBalance:
                ["pricing.price", "pricing.focus_credits", "pricing.habit_award", "pricing.carried_credits", "streaks.earned.bonus"]
            case .streakCount: ["streaks.earned.qualifies", "streaks.earned.day_ends"]
            case .costCredits: ["pricing.price"]
            case .creditsEarned: ["pricing.focus_credits", "pricing.habit_award", "streaks.earned.bonus"]
            case .gateOptions, .unlock:
                ["pricing.price", "quests.quest_blocked", "quests.emergency_blocked", "modes.effective_mode", "modes.mode_active", "modes.window_active"]
            case .quest: ["quests.quest_blocked"]
            case .rollover: ["pricing.carried_credits", "streaks.earned.qualifies", "streaks.earned.bonus", "streaks.earned.day_ends"]
            case .habitStreak, .habitScore, .habitBestStreak, .habitDecision, .habitBestStreaks: ["streaks.habit.streak"]
            case .earnedError, .habitError: []
            }
        }

        /// The refusal itself (`earned_error`, `habit_error`), the only field compared on an event one set refuses.
        package var isRefusal: Bool { self == .earnedError || self == .habitError }

        /// A record, compared by equality only (`==`, `!=`) and with itself only.
        package var isRecord: Bool {
            switch self {
            case .gateOptions, .unlock, .quest, .rollover, .habitDecision, .habitBestStreaks, .earnedError, .habitError: true
            default: false
            }
        }

        /// A record field's value on one output line, as `compare`'s kind of that name reads it
        /// (null when the line does not show it); nil for a numeric field.
        package func record(in line: JSONValue) -> JSONValue? {
            switch self {
            case .gateOptions: EconomyField.gateOptions.value(of: line)
            case .unlock: EconomyField.unlock.value(of: line)
            case .quest: EconomyField.quest.value(of: line)
            case .rollover: EconomyField.rollover.value(of: line)
            case .habitDecision: HabitField.habitDecision.value(of: line)
            case .habitBestStreaks: HabitField.habitBestStreaks.value(of: line)
            case .earnedError: EconomyField.error.value(of: line)
            case .habitError: HabitField.error.value(of: line)
            default: nil
            }
        }

        /// The field's values on one output line, by task for a habit field ("" otherwise); empty
        /// when the line does not show it.
        package func values(in line: JSONValue) -> [(String, Double)] {
            func number(_ value: JSONValue?) -> Double? {
                switch value {
                case .int(let n)?: Double(n)
                case .double(let d)?: d
                default: nil
                }
            }
            func tasks(_ value: JSONValue?) -> [(String, Double)] {
                guard case .object(let members)? = value else { return [] }
                return members.compactMap { name, value in number(value).map { (name, $0) } }
            }
            let decisions = line["decisions"], state = line["state"]
            let one: Double? =
                switch self {
                case .creditBalance: number(state?["earned"]?["credit_balance"])
                case .streakCount: number(state?["earned"]?["streak_count"])
                case .costCredits: number(decisions?["unlock"]?["cost_credits"])
                case .creditsEarned:
                    number(decisions?["focus_ended"]?["credits"]) ?? number(decisions?["earned_habit_completion"]?["credits"])
                default: nil
                }
            switch self {
            case .habitStreak: return tasks(state?["habit_streaks"])
            case .habitScore: return tasks(state?["habit_scores"])
            case .habitBestStreak:
                guard case .object(let members)? = state?["habit_best_streaks"] else { return [] }
                return members.compactMap { name, value in
                    guard case .array(let streaks) = value else { return nil }
                    return (name, streaks.compactMap { number($0["length"]) }.max() ?? 0)
                }
            default: return one.map { [("", $0)] } ?? []
            }
        }
    }

    package var left: (side: Expectation.Side, field: Field)
    package var relation: Expectation.Relation
    package var right: (side: Expectation.Side, field: Field)
    package var text: String

    package var app: HistoryApp { left.field.app }
    package var description: String {
        "\(left.side.rawValue).\(left.field.rawValue) \(relation.rawValue) \(right.side.rawValue).\(right.field.rawValue)"
    }

    /// Reads `SIDE.FIELD OP SIDE.FIELD` with fields of this type (both of one app); nil when a
    /// field is not one of them (it may be Pressure's), an error when the text is wrong otherwise.
    package init?(_ text: String) throws(ExpectationError) {
        let syntax = try ExpectationSyntax(text)
        let relation = syntax.relation
        let left = Field(rawValue: syntax.left.field).map { (side: syntax.left.side, field: $0) }
        let right = Field(rawValue: syntax.right.field).map { (side: syntax.right.side, field: $0) }
        guard left != nil || right != nil else { return nil }
        guard let left, let right else {
            throw ExpectationError(text: text, message: "both sides must be fields of one app (\(Self.fieldList))")
        }
        if left.field.isRecord || right.field.isRecord {
            guard left.field == right.field else {
                throw ExpectationError(
                    text: text,
                    message:
                        "\(left.field.isRecord ? left.field.rawValue : right.field.rawValue) is a record: compare it with itself (B.\(left.field.isRecord ? left.field.rawValue : right.field.rawValue) == A.\(left.field.isRecord ? left.field.rawValue : right.field.rawValue))"
                )
            }
            guard relation == .eq || relation == .ne else {
                throw ExpectationError(
                    text: text, message: "\(left.field.rawValue) is a record, compared by == or != only (it has no order)")
            }
        }
        guard left.field.app == right.field.app else {
            throw ExpectationError(
                text: text,
                message:
                    "\(left.field.rawValue) is a field of \(left.field.app.rawValue), \(right.field.rawValue) of \(right.field.app.rawValue): compare fields of one app"
            )
        }
        self.left = left
        self.relation = relation
        self.right = right
        self.text = text
    }

    /// `credit_balance, streak_count, … (earned), habit_streak, … (habits)`.
    package static var fieldList: String {
        HistoryApp.allCases.compactMap { app in
            let fields = Field.allCases.filter { $0.app == app }.map(\.rawValue)
            return fields.isEmpty ? nil : "\(fields.joined(separator: ", ")) (\(app.rawValue))"
        }.joined(separator: "; ")
    }

    /// Why it breaks on the two sets' outputs of one history, or nil: the first event (for a
    /// refusal, any event; else one both accepted) where both show the fields (a task both show) and the relation does not hold.
    package func failure(lines: [String], a: [JSONValue], b: [JSONValue]) -> String? {
        breach(a: a, b: b)?.why
    }

    /// The rule functions that make its fields (`RuleSet.namedRuleFunctions`' names): the calls a
    /// broken one shows (`FailureExplanation.Focus`).
    package var focus: FailureExplanation.Focus {
        let fields = [left.field, right.field].reduce(into: [Field]()) { if !$0.contains($1) { $0.append($1) } }
        return FailureExplanation.Focus(
            field: fields.map(\.rawValue).joined(separator: ", "),
            functions: fields.flatMap(\.producers).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        ) { outputs in outputs.count == 2 ? breach(a: outputs[0], b: outputs[1])?.event : nil }
    }

    /// The first event where it breaks (its index) and why, as `failure` says it.
    package func breach(a: [JSONValue], b: [JSONValue]) -> (event: Int, why: String)? {
        for (i, (x, y)) in zip(a, b).enumerated() where left.field.isRefusal || (x["ok"] == .bool(true) && y["ok"] == .bool(true)) {
            if let l = left.field.record(in: left.side == .a ? x : y), let r = right.field.record(in: right.side == .a ? x : y) {
                // A record is compared where either set shows it (null where one does not).
                guard l != .null || r != .null, (l == r) != (relation == .eq) else { continue }
                let type = if case .string(let name)? = x["type"] { name } else { "?" }
                let l0 = "\(left.side.rawValue).\(left.field.rawValue)", r0 = "\(right.side.rawValue).\(right.field.rawValue)"
                guard relation == .eq else { return (i, "event \(i + 1) (\(type)): \(l0) is the same as \(r0): \(description) broke") }
                // Where they differ, as compare shows a kind's changes (the first, and how many more).
                let changes = EconomyField.differences(l, r)
                let more = changes.count > 1 ? " (and \(changes.count - 1) more)" : ""
                return (i, "event \(i + 1) (\(type)): \(l0) → \(r0)  \(changes.first ?? "\(l) → \(r)")\(more): \(description) broke")
            }
            let l = left.field.values(in: left.side == .a ? x : y), r = right.field.values(in: right.side == .a ? x : y)
            for (task, lv) in l {
                guard let rv = r.first(where: { $0.0 == task })?.1, !holds(lv, rv) else { continue }
                let at = task.isEmpty ? "" : "[\(task)]"
                let type = if case .string(let name)? = x["type"] { name } else { "?" }
                return (
                    i,
                    "event \(i + 1) (\(type)): \(left.side.rawValue).\(left.field.rawValue)\(at) = \(Self.show(lv)), "
                        + "\(right.side.rawValue).\(right.field.rawValue)\(at) = \(Self.show(rv)): \(description) broke"
                )
            }
        }
        return nil
    }

    private func holds(_ x: Double, _ y: Double) -> Bool {
        switch relation {
        case .le: x <= y
        case .lt: x < y
        case .ge: x >= y
        case .gt: x > y
        case .eq: x == y
        case .ne: x != y
        }
    }

    private static func show(_ value: Double) -> String {
        abs(value) < 1e15 ? WholeNumber.text(value) : String(value)
    }
}
