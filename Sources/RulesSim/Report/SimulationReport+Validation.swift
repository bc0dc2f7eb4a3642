import RulesModel

extension SimulationReport {
    /// Checks that the report can be what a run printed (`merge` checks each part with it): the
    /// users' range is a slice of the cohort, there is one day for each day of the duration, and
    /// each day's counts can be those of the report's users (`DayTotals.problem`); Earned's users
    /// are the same every day, and no quest ends before it started. Throws the first problem, as
    /// the field (`days[3].yes`) and what was expected.
    package func validate() throws(SimulationError) {
        let r = run
        guard r.users >= 1, r.users <= Simulation.maxUsers, 0 <= r.usersFrom, r.usersFrom <= r.usersTo, r.usersTo <= r.users else {
            throw SimulationError(
                "run: users_from \(r.usersFrom), users_to \(r.usersTo) and users \(r.users) do not make a slice of the cohort "
                    + "(expected 0 ≤ users_from ≤ users_to ≤ users, and 1 ≤ users ≤ \(Simulation.maxUsers))")
        }
        guard r.usersFrom + r.idOffset >= 0, r.idOffset <= Self.maxCount else {
            throw SimulationError(
                "run.id_offset: \(r.idOffset), expected the users' ids (users_from + id_offset + 1 on) to be from 1 to \(Self.maxCount)")
        }
        guard r.engine == "lua" || r.engine == "native" else {
            throw SimulationError("run.engine: expected \"lua\" or \"native\", found \"\(r.engine.prefix(40))\"")
        }
        let duration: SimulationDuration, start: DayID
        do { duration = try SimulationDuration(r.duration) } catch { throw SimulationError("run.duration: \(error.message)") }
        do { start = try DayID(r.start) } catch {
            throw SimulationError("run.start: expected a day YYYY-MM-DD, found \"\(r.start.prefix(40))\"")
        }
        let expected = duration.days(from: start)
        guard r.days == expected else {
            throw SimulationError("run.days: \(r.days), but \(r.duration) from \(r.start) is \(expected) day\(expected == 1 ? "" : "s")")
        }
        guard days.count == r.days else {
            throw SimulationError(
                "days: \(days.count) day\(days.count == 1 ? "" : "s"), expected one for each of the run's \(r.days) (run.days)")
        }
        var started = 0, ended = 0
        for (d, day) in days.enumerated() {
            if let problem = day.problem(users: userCount, at: "days[\(d)]") { throw SimulationError(problem) }
            if d > 0, day.earned.users > days[d - 1].earned.users {
                throw SimulationError(
                    "days[\(d)].earned.balance_histogram: counts \(day.earned.users) Earned users, but days[\(d - 1)] counts "
                        + "\(days[d - 1].earned.users) (expected at most as many: each is counted every day until it leaves)")
            }
            if d > 0, day.active > days[d - 1].active {
                throw SimulationError(
                    "days[\(d)].active: \(day.active), but days[\(d - 1)] has \(days[d - 1].active) (a user who left does not come back)")
            }
            started += day.earned.questsStarted
            ended += day.earned.quests.total
            if ended > started {
                throw SimulationError(
                    "days[\(d)].earned.quests: \(ended) quests ended by this day, "
                        + "expected at most the \(started) started (quests_started)")
            }
        }
        // Failed events are refused events; the first failure is one of the report's users.
        let refused = days.reduce(0) { $0 + $1.refused }
        if failures.counts.total > refused {
            throw SimulationError(
                "failures: \(failures.countsText) = \(failures.counts.total) failed events, expected at most the \(refused) refused (days[].refused_events)"
            )
        }
        if (failures.first == nil) != failures.isEmpty {
            throw SimulationError(
                "failures.first: \(failures.first == nil ? "missing" : "present"), but the failures count \(failures.counts.total) events")
        }
        if let first = failures.first, !(r.usersFrom..<r.usersTo).contains(first.userIndex) || first.day >= r.days {
            throw SimulationError(
                "failures.first: user_index \(first.userIndex), day \(first.day + 1): expected one of the report's users "
                    + "(\(UserRange(r.usersFrom..<r.usersTo))) and days (1–\(r.days))")
        }
    }
}
