import RulesModel

/// The habit days on which a user opened the app — had an event other than `tick` — as runs of
/// consecutive days, oldest first: what `habit.streak` reads as a period's `opened` when the rule
/// set sets `habit.track_app_opens` (Habitica's cron judges only the day before the first open after
/// an absence). Kept in the user's `engine_state` (``EngineState/appOpens``), only for such rule
/// sets, and only the last ``Engine/maxHabitPeriods`` days.
struct AppOpenDays: Codable, Equatable {
    /// One run of consecutive days.
    struct Run: Codable, Equatable {
        var first: DayID
        var last: DayID
    }

    var runs: [Run] = []

    /// Adds `day`; false when it was there already. Days come in order but for a clock change (a
    /// time zone or day start moved back), which lands anywhere.
    mutating func add(_ day: DayID) -> Bool {
        guard let last = runs.last else {
            runs.append(Run(first: day, last: day))
            return true
        }
        if day > last.last {
            if day.ordinal == last.last.ordinal + 1 { runs[runs.count - 1].last = day } else { runs.append(Run(first: day, last: day)) }
            return true
        }
        if runs.contains(where: { $0.first <= day && day <= $0.last }) { return false }
        var days = runs.flatMap { run in (run.first.ordinal...run.last.ordinal).map { $0 } } + [day.ordinal]
        days.sort()
        runs = []
        for ordinal in days {
            if let end = runs.last, end.last.ordinal + 1 == ordinal {
                runs[runs.count - 1].last = DayID(ordinal: ordinal)!
            } else {
                runs.append(Run(first: DayID(ordinal: ordinal)!, last: DayID(ordinal: ordinal)!))
            }
        }
        return true
    }

    /// Forgets the days before `day`.
    mutating func forget(before day: DayID) {
        runs.removeAll { $0.last < day }
        if let first = runs.first, first.first < day { runs[0].first = day }
    }

    /// Whether one of the days `start…end` is an open day, asked for periods from the newest to the
    /// oldest: `cursor` (start it at `runs.count - 1`) walks the runs back with them.
    func opened(_ start: DayID, _ end: DayID, cursor: inout Int) -> Bool {
        while cursor >= 0, runs[cursor].first > end { cursor -= 1 }
        return cursor >= 0 && runs[cursor].last >= start
    }
}

extension Engine {
    /// Records the habit day of `now` as an open day of the user (a `habit.track_app_opens` rule
    /// set); a new one drops the streaks the context kept, which did not know it.
    func recordAppOpen(_ context: inout UserContext, at now: EpochMillis) throws {
        let day = try habitClock(context).day(of: now)
        var opens = context.book.appOpens ?? AppOpenDays()
        guard opens.add(day) else { return }
        opens.forget(before: day.adding(days: -(Self.maxHabitPeriods - 1))!)
        context.book.appOpens = opens
        context.cache.streaks.removeAll()
    }
}
