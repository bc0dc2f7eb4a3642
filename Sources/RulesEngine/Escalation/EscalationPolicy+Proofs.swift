import LuaHost
import RulesModel

/// The hard constraints of the escalation document, proved by evaluating the rule functions over
/// every allowed input of their finite domains. A rule set that breaks one for any input is
/// rejected with that input as the counterexample.
extension EscalationPolicy {
    /// The check-in windows users can set: every commitment deadline 06:00–12:00 and every window
    /// close 18:00–23:30, in 30-minute steps, and 23:59 (pressure-data-model.md).
    package static var allWindows: [(open: LocalTime, close: LocalTime)] {
        let opens = stride(from: 6 * 60, through: 12 * 60, by: 30).map { LocalTime(minutes: $0)! }
        let closes = stride(from: 18 * 60, through: 23 * 60 + 30, by: 30).map { LocalTime(minutes: $0)! } + [LocalTime(minutes: 1439)!]
        return opens.flatMap { open in closes.map { (open, $0) } }
    }

    /// Misses and successes are explored up to this count (beyond every threshold of the seed).
    package static let counterBound = 8

    func prove(in file: RuleFile, host: LuaHost) -> [Counterexamples] {
        var transitionFailures = Counterexamples(function: transition, name: "transition", file: file)
        var reminderFailures = Counterexamples(function: reminderTimes, name: "reminder_times", file: file)
        proveTransition(into: &transitionFailures, host: host)
        proveReminders(into: &reminderFailures, host: host)
        return [transitionFailures, reminderFailures]
    }

    /// Every state with both counters up to `counterBound` (what a database written by other rules
    /// may hold), then every state the rule itself reaches from a new user's (tier 0, no misses, no
    /// successes) day after day, up to the longest run (`RuleSet.longestRun` days) or until
    /// `RuleSet.maxReachableStates` states have been tried; where that stops is said in the summary.
    private func proveTransition(into failures: inout Counterexamples, host: LuaHost) {
        let bound = EscalationPolicy.counterBound
        for tier in 0...PressureLimits.maxTier {
            for misses in 0...bound {
                for successes in 0...bound {
                    let state = EscalationCounters(tier: tier, misses: misses, successes: successes)
                    for result in [CommitmentStatus.yes, .no, .missed] {
                        if failures.isFinished(host) { return }
                        _ = checkTransition(state, result, into: &failures, host: host, purity: true)
                    }
                }
            }
        }
        var frontier = [EscalationCounters(tier: 0, misses: 0, successes: 0)]
        var reached = Set(frontier)
        var day = 0
        while !frontier.isEmpty, day < RuleSet.longestRun {
            day += 1
            var next: [EscalationCounters] = []
            for state in frontier {
                for result in [CommitmentStatus.yes, .no, .missed] {
                    if failures.isFinished(host) { return }
                    guard let out = checkTransition(state, result, into: &failures, host: host, purity: false),
                        reached.insert(out).inserted
                    else { continue }
                    next.append(out)
                }
            }
            frontier = next
            if reached.count > RuleSet.maxReachableStates.transition, !frontier.isEmpty {
                failures.unproved = "states reached after day \(day) (only the \(reached.count) states of the first \(day) days were tried)"
                return
            }
        }
        if !frontier.isEmpty {
            failures.unproved = "states reached after day \(day) (\(RuleSet.longestRun) days, the longest run)"
        }
    }

    /// Calls `transition` on one input and checks its result; returns it when it is valid.
    private func checkTransition(
        _ state: EscalationCounters, _ result: CommitmentStatus, into failures: inout Counterexamples,
        host: LuaHost, purity: Bool
    ) -> EscalationCounters? {
        var input: String { "tier \(state.tier), misses \(state.misses), successes \(state.successes), result \(result.rawValue)" }
        failures.inputs += 1
        do {
            let out = try host.call(transition, Pooled(state), Pooled(CheckInArgument(result: result)), returning: EscalationCounters.self)
            var wrong: [String] = []
            if !(0...min(maxTier, PressureLimits.maxTier)).contains(out.tier) {
                wrong.append("current_tier \(out.tier) (must be 0–\(min(maxTier, PressureLimits.maxTier)))")
            }
            if out.misses < 0 { wrong.append("consecutive_misses \(out.misses) (must be ≥ 0)") }
            if out.successes < 0 { wrong.append("consecutive_successes \(out.successes) (must be ≥ 0)") }
            if wrong.isEmpty, purity {
                let again = try host.call(transition, Pooled(state), Pooled(CheckInArgument(result: result)), returning: EscalationCounters.self)
                if again != out {
                    wrong.append("a different state when called again with the same input (rules must be pure)")
                }
            }
            if !wrong.isEmpty {
                failures.record(
                    kind: wrong.map { $0.prefix(12) }.joined(), "transition(\(input)) returned " + wrong.joined(separator: ", "))
                return nil
            }
            return out
        } catch {
            failures.record(error, calling: "transition(\(input))")
            return nil
        }
    }

    private func proveReminders(into failures: inout Counterexamples, host: LuaHost) {
        let cap = min(maxRemindersPerDay, PressureLimits.maxRemindersPerDay)
        let spacing = max(minReminderSpacingMinutes, PressureLimits.minReminderSpacingMinutes)
        for tier in 0...min(maxTier, PressureLimits.maxTier) {
            for (open, close) in EscalationPolicy.allWindows {
                var input: String { "tier \(tier), window \(open)–\(close)" }
                if failures.isFinished(host) { return }
                failures.inputs += 1
                let window: LuaValue = [
                    "open_minutes": .integer(Int64(open.minutes)), "close_minutes": .integer(Int64(close.minutes)),
                    "open": .string(open.text), "close": .string(close.text),
                ]
                do {
                    let result = try host.call(reminderTimes, .integer(Int64(tier)), window).first ?? .nil
                    if try host.call(reminderTimes, .integer(Int64(tier)), window).first ?? .nil != result {
                        failures.recordImpure("reminder_times(\(input))")
                    }
                    guard let list = result.tableValue, list.isSequence else {
                        throw LuaError(kind: .decoding, message: "expected a list of \"HH:MM\" times, found \(result.errorDescription)")
                    }
                    var times: [LocalTime] = []
                    for (i, item) in list.sequence.enumerated() {
                        guard let text = item.stringValue, let time = try? LocalTime(text) else {
                            throw LuaError(
                                kind: .decoding, message: "[\(i + 1)]: expected a time \"HH:MM\", found \(item.errorDescription)")
                        }
                        times.append(time)
                    }
                    times.sort()
                    let shown = times.map(\.text).joined(separator: ", ")
                    var call: String { "reminder_times(\(input)) returned" }
                    if times.count > cap {
                        failures.record(kind: "count", "\(call) \(times.count) reminders (\(shown)), more than the \(cap) allowed a day")
                    }
                    if let outside = times.first(where: { $0 < open || $0 >= close }) {
                        failures.record(kind: "outside", "\(call) reminder \(outside), outside the check-in window \(open)–\(close)")
                    }
                    if let i = times.indices.dropFirst().first(where: { times[$0].minutes - times[$0 - 1].minutes < spacing }) {
                        failures.record(
                            kind: "spacing",
                            "\(call) reminders \(times[i - 1]) and \(times[i]), \(times[i].minutes - times[i - 1].minutes) minutes apart (at least \(spacing) required)"
                        )
                    }
                } catch {
                    failures.record(error, calling: "reminder_times(\(input))")
                }
            }
        }
    }
}

/// Counterexamples of one rule function, grouped by kind of violation: the first input of each
/// kind is reported, with the number of other inputs that fail the same way.
struct Counterexamples {
    let function: LuaFunction
    let file: RuleFile
    /// How many inputs were evaluated.
    var inputs = 0
    /// The function's field path in its file (`transition`, `pressure.next`).
    let name: String
    /// The inputs the proof did not reach, when its domain is not finite or too large
    /// (`streaks above 3660`); nil when every input the engine can pass was tried.
    var unproved: String?
    private var firsts: [(kind: String, problem: RuleProblem)] = []
    private var counts: [String: Int] = [:]

    init(function: LuaFunction, name: String, file: RuleFile) {
        self.function = function
        self.name = name
        self.file = file
    }

    mutating func record(kind: String, _ message: String, line: Int? = nil) {
        counts[kind, default: 0] += 1
        if counts[kind] == 1 {
            let problem = line.map { RuleProblem(file: file.name, line: $0, message: message) } ?? file.problem(in: function, message)
            firsts.append((kind, problem))
        }
    }

    /// A function that answered differently when called twice with the same input.
    mutating func recordImpure(_ call: String) {
        record(kind: "impure", "\(call) returned a different result when called again with the same input (rules must be pure)")
    }

    /// Whether to stop: validation has used up its instruction budget (then this function's
    /// remaining inputs are skipped), or the function overflowed the stack or went over its budget
    /// or the memory ceiling in one call (every further input could cost as much; one
    /// counterexample is enough to refuse it).
    mutating func isFinished(_ host: LuaHost) -> Bool {
        if exhausted { return true }
        guard host.instructionsRun > RuleSet.validationInstructionBudget else { return false }
        if budgetProblem == nil {
            budgetProblem = file.problem(
                in: function,
                "\(name): validation stopped after \(inputs) inputs: the rule functions used more than \(RuleSet.validationInstructionBudget) Lua instructions in all; make them cheaper (a rule call should take thousands of instructions, not millions)"
            )
        }
        return true
    }

    /// Set when validation stopped for its budget before every input of this function was tried
    /// (``RuleSet`` reports the first such function, naming the others).
    private(set) var budgetProblem: RuleProblem?
    private var exhausted = false

    /// A Lua failure: at the failing line when Lua knows it, else at the function.
    mutating func record(_ error: any Error, calling call: String) {
        guard let error = error as? LuaError else {
            record(kind: "error", "\(call): \(error)")
            return
        }
        if error.message.contains("stack overflow") || error.kind == .instructionBudget || error.kind == .memory { exhausted = true }
        let detail = error.path.map { "\($0): \(error.message)" } ?? error.message
        // Raised in a file this one extends (its code called this file's function, which raised the
        // error there, or blamed its caller): at this file's innermost line on the stack, if any.
        let line = error.file == file.name ? error.line : Self.innermostLine(of: file.name, in: error.traceback)
        record(kind: "\(error.kind)|\(line ?? 0)|\(error.path ?? "")", "\(call): \(detail)", line: line)
    }

    /// The line of the innermost frame of `file` in a Lua traceback (`\tmodes.lua:3: in …`).
    static func innermostLine(of file: String, in traceback: String?) -> Int? {
        guard let traceback else { return nil }
        for frame in traceback.split(separator: "\n") {
            let text = frame.drop { $0 == "\t" || $0 == " " }
            guard text.hasPrefix(file + ":") else { continue }
            let digits = text.dropFirst(file.count + 1).prefix { $0.isNumber }
            if let line = Int(digits) { return line }
        }
        return nil
    }

    var problems: [RuleProblem] {
        firsts.map { entry in
            var problem = entry.problem
            let others = (counts[entry.kind] ?? 1) - 1
            if others > 0 { problem.message += " (and \(others) other input\(others == 1 ? "" : "s"))" }
            return problem
        }
    }
}
