import LuaHost
import RulesModel

/// modes.lua, typed: which Earned mode is in force at an instant.
public struct ModePolicy: Decodable {
    /// The params the file declares for its own functions (``RuleParams``); none when it has no `params`.
    public var params: RuleParams { declaredParams ?? RuleParams() }
    var declaredParams: RuleParams?
    public var equalBoundsMeanAllDay: Bool
    public var strictnessRank: [String: Int]
    /// `window_active(window, now) -> boolean`.
    public var windowActive: LuaFunction
    /// `mode_active(mode, now) -> boolean`.
    public var modeActive: LuaFunction
    /// `effective_mode(modes, now) -> index | nil`.
    public var effectiveMode: LuaFunction

    enum CodingKeys: String, CodingKey {
        case declaredParams = "params"
        case equalBoundsMeanAllDay = "equal_bounds_mean_all_day"
        case strictnessRank = "strictness_rank"
        case windowActive = "window_active"
        case modeActive = "mode_active"
        case effectiveMode = "effective_mode"
    }

    func parameterProblems(in file: RuleFile) -> [RuleProblem] {
        let names = Strictness.allCases.map(\.rawValue)
        var problems: [RuleProblem] = []
        if Set(strictnessRank.keys) != Set(names) {
            problems.append(
                file.problem(
                    at: "strictness_rank", "strictness_rank: needs exactly GENTLE, STRICT and HARD, found \(strictnessRank.keys.sorted())"))
        } else if !(strictnessRank["GENTLE"]! < strictnessRank["STRICT"]! && strictnessRank["STRICT"]! < strictnessRank["HARD"]!) {
            problems.append(
                file.problem(
                    at: "strictness_rank",
                    "strictness_rank: must rank GENTLE < STRICT < HARD, found \(names.map { "\($0) \(strictnessRank[$0]!)" })"))
        }
        return problems
    }

    func prove(in file: RuleFile, host: LuaHost) -> [Counterexamples] {
        [proveWindows(file, host), proveEffectiveMode(file, host)]
    }

    private func proveWindows(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: windowActive, name: "window_active", file: file)
        failures.unproved = "day masks other than 0, 1, 64, 31, 85, 127, windows not on 4-hour bounds and other times of day (sampled)"
        let bounds = stride(from: 0, to: 24 * 60, by: 240).map { $0 }
        outer: for mask in [0, 1, 64, 31, 85, 127] {
            for start in bounds {
                for end in bounds {
                    for weekday in 1...7 {
                        for minutes in [0, 59, 239, 240, 719, 1200, 1439] {
                            if failures.isFinished(host) { break outer }
                            failures.inputs += 1
                            let call =
                                "window_active(mask \(mask), \(LocalTime(minutes: start)!)–\(LocalTime(minutes: end)!), weekday \(weekday) at \(LocalTime(minutes: minutes)!))"
                            do {
                                let out =
                                    try host.call(
                                        windowActive,
                                        [
                                            "days_mask": .integer(Int64(mask)), "start_minutes": .integer(Int64(start)),
                                            "end_minutes": .integer(Int64(end)),
                                        ],
                                        ["weekday": .integer(Int64(weekday)), "minutes": .integer(Int64(minutes))]
                                    ).first ?? .nil
                                guard case .boolean(let active) = out else {
                                    failures.record(kind: "type", "\(call) returned \(out.errorDescription), expected a boolean")
                                    continue
                                }
                                let onDay = mask >> (weekday - 1) & 1 == 1
                                if active && mask == 0 {
                                    failures.record(kind: "mask", "\(call) is open with no day in its mask")
                                } else if active && start < end && (minutes < start || minutes >= end) {
                                    failures.record(kind: "bounds", "\(call) is open outside its hours")
                                } else if active && start > end && minutes >= end && minutes < start {
                                    failures.record(kind: "bounds", "\(call) is open outside its hours (a window across midnight)")
                                } else if !active && onDay && start != end && minutes == start {
                                    failures.record(kind: "start", "\(call) is closed at its start on a day of its mask")
                                }
                            } catch {
                                failures.record(error, calling: call)
                            }
                        }
                    }
                }
            }
        }
        return failures
    }

    private func proveEffectiveMode(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: effectiveMode, name: "effective_mode", file: file)
        failures.unproved = "modes with windows other than none or always open, and priorities above 1 (sampled)"
        struct Template {
            var priority: Int, strictness: Strictness, manual: ManualOverrideState, inForce: Bool, alwaysOpen: Bool
            var active: Bool { (inForce && manual == .forcedOn) || (!(inForce && manual == .forcedOff) && alwaysOpen) }
            var lua: LuaValue {
                [
                    "priority": .integer(Int64(priority)), "strictness": .string(strictness.rawValue),
                    "manual_state": .string(manual.rawValue),
                    "override_in_force": .boolean(inForce),
                    "windows": .table(LuaTable(sequence: alwaysOpen ? [["days_mask": 127, "start_minutes": 0, "end_minutes": 0]] : [])),
                ]
            }
            var text: String {
                "priority \(priority) \(strictness.rawValue) \(manual.rawValue)\(inForce ? " (in force)" : "")\(alwaysOpen ? " always open" : " no window")"
            }
        }
        var templates: [Template] = []
        for priority in 0...1 {
            for strictness in Strictness.allCases {
                for manual in ManualOverrideState.allCases {
                    for inForce in [false, true] {
                        for alwaysOpen in [false, true] {
                            templates.append(
                                Template(
                                    priority: priority, strictness: strictness, manual: manual, inForce: inForce, alwaysOpen: alwaysOpen))
                        }
                    }
                }
            }
        }
        let lists: [[Template]] = [[]] + templates.map { [$0] } + templates.flatMap { a in templates.map { [a, $0] } }
        let now: LuaValue = ["weekday": 1, "minutes": 600]
        for list in lists {
            if failures.isFinished(host) { break }
            failures.inputs += 1
            let call = "effective_mode([\(list.map(\.text).joined(separator: "; "))], Monday 10:00)"
            do {
                let out = try host.call(effectiveMode, .table(LuaTable(sequence: list.map(\.lua))), now).first ?? .nil
                let active = list.enumerated().filter { $0.element.active }
                if out.isNil {
                    if !active.isEmpty { failures.record(kind: "none", "\(call) returned nil although a mode is in force") }
                    continue
                }
                guard let index = out.integerValue, (1...list.count).contains(Int(index)) else {
                    failures.record(kind: "type", "\(call) returned \(out.errorDescription), expected nil or a position 1…\(list.count)")
                    continue
                }
                let chosen = list[Int(index) - 1]
                if !chosen.active {
                    failures.record(kind: "inactive", "\(call) chose mode \(index), which is not in force")
                } else if chosen.priority < active.map(\.element.priority).max()! {
                    failures.record(kind: "priority", "\(call) chose mode \(index) over a mode of higher priority")
                }
            } catch {
                failures.record(error, calling: call)
            }
        }
        return failures
    }
}
