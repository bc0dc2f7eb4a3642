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

    /// Every list of up to 6 days with 0 or 1 exits, the empty list first (`gen.miga_days()`).
    package static var migaDayLists: [[LuaValue]] {
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

    /// The days of the proofs: day 1 is a Monday (2026-01-05), so that day `n` of a run falls on the
    /// weekday it would.
    static let firstProvedDay = try! DayID("2026-01-05")

    /// The dates a day's record is proved on (`pressure.next`'s day, `earned.day_ends`'): each day
    /// of the week from `firstProvedDay`, then a last day of a month, a leap day and a first day of
    /// a month (`ValueClasses.days`).
    package static let proofDates: [DayID] =
        (0..<7).map { firstProvedDay.adding(days: $0)! } + ["2026-01-31", "2028-02-29", "2028-03-01"].map { try! DayID($0) }

    /// Every day of the week, committed or not, with every result and shield, for every streak up
    /// to 6 (longest up to 8); then every streak the rule reaches from a new user's (0, 0) day after
    /// day (day `n` on its weekday from a Monday, with the days the engine passes: a YES is
    /// committed and unshielded, a NO is uncommitted only when no commitment counts as NO, and
    /// never shielded then), up to the longest run or `RuleSet.maxReachableStates` streaks.
    private func provePressure(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: pressure.next, name: "pressure.next", file: file)
        let week = Self.pressureProofWeek
        for streak in Self.pressureProofStreaks {
            for day in week {
                if failures.isFinished(host) { return failures }
                _ = checkPressure(streak, day, into: &failures, host: host, purity: true)
            }
        }
        var frontier = [PressureStreak(current: 0, longest: 0)]
        var reached = Set(frontier)
        var day = 0
        while !frontier.isEmpty, day < RuleSet.longestRun {
            day += 1
            let days = Self.pressureProofDays(on: Self.firstProvedDay.adding(days: day - 1)!).filter(Self.engineCanPass)
            var next: [PressureStreak] = []
            for streak in frontier {
                for pressureDay in days {
                    if failures.isFinished(host) { return failures }
                    guard let new = checkPressure(streak, pressureDay, into: &failures, host: host, purity: false),
                        reached.insert(new).inserted
                    else { continue }
                    next.append(new)
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

    /// Every day of a proof's week (from `firstProvedDay`, a Monday): each result, shielded or
    /// not, committed or not.
    private static func pressureProofDays(on date: DayID) -> [PressureDay] {
        [CommitmentStatus.yes, .no, .missed].flatMap { result in
            [false, true].flatMap { shield in
                [true, false].map { PressureDay(result: result, shieldUsed: shield, date: date, committed: $0) }
            }
        }
    }

    /// The days `pressure.next` is proved on with every streak of `pressureProofStreaks`
    /// (`gen.pressure_day()`), on each of `proofDates`, the first a committed unshielded YES on Monday.
    package static let pressureProofWeek = proofDates.flatMap { pressureProofDays(on: $0) }

    /// Every streak up to 6 (longest up to 8), the plainest (0, 0) first: the streaks `pressure.next`
    /// is proved over with every day of the week (`gen.pressure_streak()`).
    package static let pressureProofStreaks = (0...6).flatMap { current in
        (current...8).map { PressureStreak(current: current, longest: $0) }
    }

    /// Whether the engine can pass this day to `pressure.next`: a YES is a check-in (committed,
    /// never shielded); a day without a commitment counts as MISSED or NO, and its shield is asked
    /// with MISSED.
    private static func engineCanPass(_ day: PressureDay) -> Bool {
        switch day.result {
        case .yes: day.committed && !day.shieldUsed
        case .no: day.committed || !day.shieldUsed
        default: true
        }
    }

    /// One call of `pressure.next`, as the engine makes it (the same tables in, the same reading
    /// of the result), and its result checked; nil when it fails a check.
    private func checkPressure(
        _ streak: PressureStreak, _ day: PressureDay, into failures: inout Counterexamples, host: LuaHost, purity: Bool
    ) -> PressureStreak? {
        let (current, longest) = (streak.current, streak.longest)
        // Described only when something is recorded: the proof makes thousands of calls.
        var call: String { "pressure.next(current \(current), longest \(longest), \(day.text))" }
        failures.inputs += 1
        do {
            let new = try host.call(pressure.next, Pooled(streak), Pooled(day), returning: PressureStreak.self)
            if purity, try host.call(pressure.next, Pooled(streak), Pooled(day), returning: PressureStreak.self) != new { failures.recordImpure(call) }
            var valid = true
            if new.current < 0 || new.current > current + 1 {
                failures.record(
                    kind: "current",
                    "\(call) returned current_streak \(new.current) (a day adds at most 1, and it is never negative)")
                valid = false
            }
            if new.longest < max(longest, new.current) {
                failures.record(
                    kind: "longest",
                    "\(call) returned longest_streak \(new.longest) (never less than before nor than the current streak)")
                valid = false
            }
            return valid ? new : nil
        } catch {
            failures.record(error, calling: call)
            return nil
        }
    }

    private func proveCurrentStreak(
        _ file: RuleFile, _ host: LuaHost, function: LuaFunction, name: String,
        inputs: [[LuaValue]]
    ) -> Counterexamples {
        var failures = Counterexamples(function: function, name: name, file: file)
        failures.unproved =
            "lists longer than \(inputs.map(\.count).max() ?? 0) (every list up to that length was tried), and days of more than 1 exit"
        for list in inputs {
            var call: String { "\(name)(\(LuaValue.table(LuaTable(sequence: list))))" }
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
        qualifies.unproved =
            "days with more than \(Self.earnedProofFocusMinutes.upperBound) focus minutes or \(Self.earnedProofHabitCompletions.upperBound) habit completions"
        for minutes in Self.earnedProofFocusMinutes {
            for habits in Self.earnedProofHabitCompletions {
                var call: String { "earned.qualifies(focus_minutes \(minutes), habit_completions \(habits))" }
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
        for streak in Self.earnedProofStreaks {
            var call: String { "earned.bonus(\(streak))" }
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
        return [qualifies, bonus, proveDayEnds(file, host)]
    }

    /// The focus minutes and habit completions of the days `earned.qualifies` is proved over
    /// (every pair; `gen.earned_day()`).
    package static let earnedProofFocusMinutes = 0...180
    package static let earnedProofHabitCompletions = 0...4
    /// The streaks `earned.bonus` is proved over (`gen.earned_streak()`): every streak a run can reach.
    package static let earnedProofStreaks = 0...RuleSet.longestRun

    /// Every end of day `earned.day_ends` is proved over (`gen.earned_day_end()`), plainest first:
    /// each of `proofDates`, qualified or not, with streaks 0…14, 21, 28, 30, 365 and the
    /// longest run (a qualified day's streak above 0), holding 0…5 or 100 freezes.
    package static let earnedProofDayEnds: [EarnedDayEnd] = {
        let streaks = Array(0...14) + [21, 28, 30, 365, RuleSet.longestRun]
        let freezes = Array(0...5) + [StreakPolicy.maxEarnedFreezes]
        var days: [EarnedDayEnd] = []
        for qualified in [nil, StreakQualificationMethod.focus, .habits] {
            for streak in streaks where qualified == nil || streak > 0 {
                for held in freezes {
                    for date in Self.proofDates {
                        days.append(EarnedDayEnd(date: date, qualified: qualified, streakCount: streak, freezes: held))
                    }
                }
            }
        }
        return days
    }()

    /// Every day of `earnedProofDayEnds`, against the engine's checks (`EarnedDayEnd.problem`).
    private func proveDayEnds(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: earned.dayEnds, name: "earned.day_ends", file: file)
        failures.unproved = "streaks other than 0…14, 21, 28, 30, 365 and \(RuleSet.longestRun), and more than 5 freezes other than 100"
        for day in Self.earnedProofDayEnds {
            var call: String { "earned.day_ends(\(day.text))" }
            if failures.isFinished(host) { return failures }
            failures.inputs += 1
            do {
                let out = try host.call(earned.dayEnds, Pooled(day), returning: EarnedStreak.self)
                if try host.call(earned.dayEnds, Pooled(day), returning: EarnedStreak.self) != out { failures.recordImpure(call) }
                if let problem = day.problem(with: out) { failures.record(kind: "range", "\(call) returned \(problem)") }
            } catch {
                failures.record(error, calling: call)
            }
        }
        return failures
    }
}
