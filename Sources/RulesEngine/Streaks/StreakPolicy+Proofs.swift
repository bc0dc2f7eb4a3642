import LuaHost
import RulesModel

/// The invariants of the streak policies, proved over small exhaustive domains.
extension StreakPolicy {
    func prove(in file: RuleFile, host: LuaHost) -> [Counterexamples] {
        [
            provePressure(file, host),
            proveHabitStreak(file, host),
            proveCurrentStreak(file, host, function: miga.currentStreak, name: "miga.current_streak", inputs: StreakPolicy.migaDayLists),
        ]
            + proveEarned(file, host)
    }

    /// Every list of up to 6 days with 0 or 1 exits.
    static var migaDayLists: [[LuaValue]] {
        lists(of: [["exits": 0], ["exits": 1]], upTo: 6)
    }

    static func lists<T>(of items: [T], upTo length: Int) -> [[T]] {
        var all: [[T]] = [[]]
        var layer: [[T]] = [[]]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in items.map { prefix + [$0] } }
            all += layer
        }
        return all
    }

    /// Every streak up to 6 (longest up to 8), then every streak the rule reaches from a new user's
    /// (0, 0) day after day, up to the longest run or `RuleSet.maxReachableStates` streaks.
    private func provePressure(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: pressure.next, name: "pressure.next", file: file)
        for current in 0...6 {
            for longest in current...8 {
                let streak = PressureStreak(current_streak: current, longest_streak: longest)
                for result in [CommitmentStatus.yes, .no, .missed] {
                    for shield in [false, true] {
                        if failures.isFinished(host) { return failures }
                        _ = checkPressure(streak, result, shield, into: &failures, host: host, purity: true)
                    }
                }
            }
        }
        var frontier = [PressureStreak(current_streak: 0, longest_streak: 0)]
        var reached = Set(frontier)
        var day = 0
        while !frontier.isEmpty, day < RuleSet.longestRun {
            day += 1
            var next: [PressureStreak] = []
            for streak in frontier {
                for result in [CommitmentStatus.yes, .no, .missed] {
                    for shield in [false, true] {
                        if failures.isFinished(host) { return failures }
                        guard let new = checkPressure(streak, result, shield, into: &failures, host: host, purity: false),
                            reached.insert(new).inserted
                        else { continue }
                        next.append(new)
                    }
                }
            }
            frontier = next
            if reached.count > RuleSet.maxReachableStates.pressureStreaks, !frontier.isEmpty {
                failures.unproved =
                    "streaks reached after day \(day) (only the \(reached.count) streaks of the first \(day) days were tried)"
                return failures
            }
        }
        if !frontier.isEmpty { failures.unproved = "streaks reached after day \(day) (\(RuleSet.longestRun) days, the longest run)" }
        return failures
    }

    private func checkPressure(
        _ streak: PressureStreak, _ result: CommitmentStatus, _ shield: Bool, into failures: inout Counterexamples,
        host: LuaHost, purity: Bool
    ) -> PressureStreak? {
        let (current, longest) = (streak.current_streak, streak.longest_streak)
        let call = "pressure.next(current \(current), longest \(longest), result \(result.rawValue), shield_used \(shield))"
        failures.inputs += 1
        do {
            let arguments: [LuaValue] = [
                ["current_streak": .integer(Int64(current)), "longest_streak": .integer(Int64(longest))],
                ["result": .string(result.rawValue), "shield_used": .boolean(shield)],
            ]
            let out = try host.call(pressure.next, arguments).first ?? .nil
            if purity, try host.call(pressure.next, arguments).first ?? .nil != out { failures.recordImpure(call) }
            let new = try LuaDecoder().decode(PressureStreak.self, from: out)
            var valid = true
            if new.current_streak < 0 || new.current_streak > current + 1 {
                failures.record(
                    kind: "current",
                    "\(call) returned current_streak \(new.current_streak) (a day adds at most 1, and it is never negative)")
                valid = false
            }
            if new.longest_streak < max(longest, new.current_streak) {
                failures.record(
                    kind: "longest",
                    "\(call) returned longest_streak \(new.longest_streak) (never less than before nor than the current streak)")
                valid = false
            }
            return valid ? new : nil
        } catch {
            failures.record(error, calling: call)
            return nil
        }
    }

    private struct PressureStreak: Decodable, Hashable {
        var current_streak: Int
        var longest_streak: Int
    }

    private func proveCurrentStreak(
        _ file: RuleFile, _ host: LuaHost, function: LuaFunction, name: String,
        inputs: [[LuaValue]]
    ) -> Counterexamples {
        var failures = Counterexamples(function: function, name: name, file: file)
        failures.unproved = "lists longer than \(inputs.map(\.count).max() ?? 0) (every list up to that length was tried)"
        for list in inputs {
            let call = "\(name)(\(LuaValue.table(LuaTable(sequence: list))))"
            if failures.isFinished(host) { return failures }
            failures.inputs += 1
            do {
                let out = try host.call(function, .table(LuaTable(sequence: list))).first ?? .nil
                if try host.call(function, .table(LuaTable(sequence: list))).first ?? .nil != out { failures.recordImpure(call) }
                guard let n = out.integerValue, out.doubleValue == Double(n) else {
                    failures.record(kind: "type", "\(call) returned \(out.errorDescription), expected an integer")
                    continue
                }
                if n < 0 || n > list.count {
                    failures.record(kind: "range", "\(call) returned \(n), outside 0…\(list.count) (the number of periods)")
                }
            } catch {
                failures.record(error, calling: call)
            }
        }
        return failures
    }

    private func proveEarned(_ file: RuleFile, _ host: LuaHost) -> [Counterexamples] {
        var qualifies = Counterexamples(function: earned.qualifies, name: "earned.qualifies", file: file)
        qualifies.unproved = "days with more than 180 focus minutes or 4 habit completions"
        for minutes in 0...180 {
            for habits in 0...4 {
                let call = "earned.qualifies(focus_minutes \(minutes), habit_completions \(habits))"
                if qualifies.isFinished(host) { break }
                qualifies.inputs += 1
                do {
                    let day: LuaValue = ["focus_minutes": .integer(Int64(minutes)), "habit_completions": .integer(Int64(habits))]
                    let out = try host.call(earned.qualifies, day).first ?? .nil
                    if try host.call(earned.qualifies, day).first ?? .nil != out { qualifies.recordImpure(call) }
                    switch out {
                    case .nil, .string("FOCUS"), .string("HABITS"): break
                    default:
                        qualifies.record(kind: "type", "\(call) returned \(out.errorDescription), expected \"FOCUS\", \"HABITS\" or nil")
                    }
                } catch {
                    qualifies.record(error, calling: call)
                }
            }
        }
        // Every streak a run can reach, checked against the range the engine enforces.
        var bonus = Counterexamples(function: earned.bonus, name: "earned.bonus", file: file)
        bonus.unproved = "streaks above \(RuleSet.longestRun) (\(RuleSet.longestRun) days, the longest run)"
        for streak in 0...RuleSet.longestRun {
            let call = "earned.bonus(\(streak))"
            if bonus.isFinished(host) { break }
            bonus.inputs += 1
            do {
                let out = try host.call(earned.bonus, .integer(Int64(streak))).first ?? .nil
                if try host.call(earned.bonus, .integer(Int64(streak))).first ?? .nil != out { bonus.recordImpure(call) }
                guard let credits = out.integerValue, out.doubleValue == Double(credits),
                    (0...Int64(StreakPolicy.maxBonusCredits)).contains(credits)
                else {
                    bonus.record(
                        kind: "type",
                        "\(call) returned \(out.errorDescription), expected a whole number of credits from 0 to \(StreakPolicy.maxBonusCredits)"
                    )
                    continue
                }
            } catch {
                bonus.record(error, calling: call)
            }
        }
        return [qualifies, bonus]
    }
}
