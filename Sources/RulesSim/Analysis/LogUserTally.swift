import RulesEngine
import RulesModel

/// One user of an event log replayed through an engine (its arm's), its events counted into days
/// as `simulate` counts a simulated user's (``DayTotals/count(applied:_:day:into:dayIndex:)``,
/// ``EarnedLedger``, and the state at the end of each day), so that a metric of the registry is the
/// same figure on a simulated log as in the simulation that wrote it.
///
/// Days are the user's local days (the time zone of its first `settings` that names one, else
/// UTC) from the day of its first event. A day ends at the next local midnight: a `tick` there (a
/// simulated log has one each day) belongs to the day it ends; where the log has none, one is
/// applied there (time passes as it would have at the next event; it is not counted as an event).
/// The user is active on a day when it sent an event on a later day; days after its last are
/// days it had left. Only the days that ended before the log's end (`logEnd`) are counted; events
/// after them count on the last day counted (as the tick that ends a simulation's last day does).
struct LogUserTally {
    /// The user's days from its first (`firstDay`, local), and the index of the day of its exposure (0 without one).
    var days: [DayTotals]
    var firstDay: DayID
    var exposureDay: Int
    /// The events a rule failed on (by code), and how many events were refused in all.
    var failures = RuleFailures()
    /// The events the rules refused, by code, with examples (their lines from `lines`).
    var refusals = Refusals()
    /// Per day, what the leaving response reads of it (``Responses/Leaving``), as a simulation
    /// counts it for its user; and the user's last active day (its last event's: a midnight tick
    /// counts on the day it ends), nil when it has none in the days counted.
    var leavingDays: [LeavingDay]
    var lastDay: Int?
    /// The Earned unlock gate's openings and what the user chose at each (`rulesrun fit`'s gate choice).
    var gate = GateOpenings()
    /// Earned's habits as the earning response reads them (``Responses/Earning``): each habit by
    /// the day it was defined, the habits completed each day, and the credit balance as each day
    /// began (0 before Earned started); empty for a user outside Earned.
    var earnedHabits: [String: Int] = [:]
    var earnedDone: [Set<String>] = []
    var earnedBalances: [Int] = []

    /// The unlocks granted (credits, quests, emergencies), by the local hour of the event that
    /// granted them (0…23), over the days counted.
    var unlockHours = Array(repeating: 0, count: 24)

    /// Per day, each habit task the user had at its end, as the streak response reads it
    /// (``Responses/Streak``): what `fit` estimates the tasks' rates and that response from.
    var habitDays: [[HabitDay]]

    /// A habit task on one day.
    struct HabitDay: Sendable {
        var task: String
        /// The completions the day planned (the task's times per day when it was due, else 0),
        /// and those the user made that day for that day (not a late one for the day before).
        var due: Int
        var done: Int
        /// The task's current streak at the day's start (the rule set's, read at the end of the
        /// day before; 0 on the first), and the freezes the user held for it then.
        var streak: Int
        var freezes: Int
    }

    /// Per day, Pressure's choices as `rulesrun fit` reads them (``PressureDay``); none for a
    /// user outside Pressure.
    var pressureDays: [PressureDay]

    /// A Pressure day: the schedule the user saw as it began (the first state of the user whose
    /// day in progress is this one), whether it committed, its answer, and a streak it lost.
    struct PressureDay: Sendable {
        /// The schedule was seen (false: the user had no Pressure day in progress on this date).
        var seen = false
        /// Whether the day counts (the user existed at its deadline), its tier as it began, and
        /// whether reminders reach the user (its settings then).
        var counts = false
        var tier = 0
        var notifications = true
        /// The day's deadline, window close and reminders (UTC milliseconds).
        var deadline: EpochMillis = 0
        var close: EpochMillis = 0
        var reminders: [EpochMillis] = []
        /// A commitment was accepted on the day; its first accepted check-in (time, YES or not).
        var committed = false
        var answer: (at: EpochMillis, yes: Bool)?
        /// The longest current streak an event of the day dropped to 0 (0: none).
        var lost = 0
    }

    /// A day's unlocks denied, reminders and engagement (by the day of the event that decided
    /// them), and the tier at its end (0 for a user outside Pressure).
    struct LeavingDay: Sendable {
        var denied = 0
        var reminders = 0
        var engaged = false
        var tier = 0
    }

    /// The most days counted for one user (10 years).
    static let maxDays = 3660

    /// Replays `events` (the user's, in time order) through `engine`, in a batch of its own.
    /// `exposure`: the index in `events` of the user's exposure to its arm. `arm`: the rules
    /// `engine` is given from event `arm.from` on (those of the user's arm after its pre-period,
    /// ``switchIndex(_:exposure:)``); its own are given back at the end. `metrics`: the team's,
    /// counted at the end of each day as `simulate` counts them.
    init(
        name: String, events: [EngineEvent], exposure: Int?, engine: Engine, logEnd: EpochMillis,
        arm: (from: Int, rules: any PolicyRules)? = nil, metrics: TeamMetrics? = nil, lines: [Int]? = nil
    ) throws {
        precondition(!events.isEmpty)
        var zone = "UTC"
        var uses = (pressure: false, habits: false, miga: false, earned: false)
        for event in events {
            switch event.kind {
            case .settings(let change):
                if zone == "UTC", let timezone = change.timezone { zone = timezone }
                if change.commitmentDeadline != nil { uses.pressure = true }
            case .habitTask: uses.habits = true
            case .miga: uses.miga = true
            case .earned: uses.earned = true
            default: break
            }
        }
        let clock = (try? LocalClock(timeZoneID: zone)) ?? (try! LocalClock(timeZoneID: "UTC"))
        let first = clock.day(of: events[0].at.millis)
        firstDay = first
        exposureDay = exposure.map { max(0, first.days(to: clock.day(of: events[$0].at.millis))) } ?? 0
        let count = max(0, min(Self.maxDays, first.days(to: clock.day(of: logEnd))))
        days = Array(repeating: DayTotals(team: metrics?.metrics.map(\.id) ?? []), count: count)
        leavingDays = Array(repeating: LeavingDay(), count: count)
        habitDays = Array(repeating: [], count: count)
        pressureDays = Array(repeating: PressureDay(), count: uses.pressure ? count : 0)
        (earnedDone, earnedBalances) = (
            Array(repeating: [], count: uses.earned ? count : 0), Array(repeating: 0, count: uses.earned ? count : 0)
        )
        guard count > 0 else { return }
        let apps = Metric.App.used.filter { [.pressure: uses.pressure, .habits: uses.habits, .miga: uses.miga, .earned: uses.earned][$0]! }
        var lastEnded = false
        var ended = -1
        var team = metrics.map { TeamMetricUser($0, user: name, apps: apps, clock: clock, date: first) }
        var view: UserSummary?
        var ledger = EarnedLedger()
        var earnedStarted = false
        var open = 0
        var notifications = true
        // The habit tasks' streaks and freezes at the start of the day, the freezes held now and
        // the completions made today.
        var startStreaks: [String: Int] = [:], startFreezes: [String: Int] = [:]
        var freezes: [String: Int] = [:], doneToday: [String: Int] = [:]
        let dayIndex = { (day: DayID) -> Int? in
            let i = first.days(to: day)
            return (0..<count).contains(i) ? i : nil
        }
        let startOf = { (k: Int) -> EpochMillis in clock.start(of: first.adding(days: k) ?? first) }
        var tally = self

        /// Counts what an applied event decided on day `d` (clamped to the days counted).
        func counted(_ event: EngineEvent, _ outcome: Engine.SummarizedOutcome, day d: Int) {
            let kind = event.kind
            let d = min(d, count - 1)
            let decided = DayTotals.count(applied: kind, outcome.decisions, day: d, into: &tally.days, dayIndex: dayIndex)
            tally.leavingDays[d].denied += decided.denied
            tally.leavingDays[d].reminders += decided.reminders
            if Responses.Leaving.engages(kind) { tally.leavingDays[d].engaged = true }
            switch kind {
            case .earned(let earned):
                earnedStarted = true
                switch earned {
                case .habit(let habit): tally.earnedHabits[habit.habit] = min(tally.earnedHabits[habit.habit] ?? d, d)
                case .habitCompletion(let habit): tally.earnedDone[d].insert(habit)
                default: break
                }
            case .habitCompletion(let task, _, let forDay) where forDay == nil || forDay == first.adding(days: d):
                doneToday[task, default: 0] += 1
            case .habitFreeze(let task, let action, _): freezes[task, default: 0] += action == .use ? -1 : 1
            default: break
            }
            let granted = tally.days[d].earned.unlocks.total
            ledger.record(outcome.decisions, day: d, into: &tally.days, dayIndex: dayIndex)
            if tally.days[d].earned.unlocks.total > granted {
                tally.unlockHours[clock.civil(event.at.millis).minutes / 60] += tally.days[d].earned.unlocks.total - granted
            }
            if earnedStarted { tally.gate.note(kind, outcome.decisions, held: ledger.balance, day: d) }
            if uses.pressure { pressure(kind, at: event.at.millis, outcome.user, day: d) }
            view = outcome.user
        }
        /// Pressure's day `d` after an applied event of `kind`, the user now in state `user`.
        func pressure(_ kind: EngineEvent.Kind, at time: EpochMillis, _ user: UserSummary, day d: Int) {
            switch kind {
            case .settings(let change): notifications = change.notificationsEnabled ?? notifications
            case .commitment: tally.pressureDays[d].committed = true
            case .checkIn(let result) where tally.pressureDays[d].answer == nil: tally.pressureDays[d].answer = (time, result == .yes)
            default: break
            }
            if let before = view?.currentStreak, before > 0, user.currentStreak == 0 {
                tally.pressureDays[d].lost = max(tally.pressureDays[d].lost, before)
            }
            // The first state whose day in progress is day k: the schedule the user sees as it begins.
            if let today = user.today, let k = dayIndex(today.day), !tally.pressureDays[k].seen {
                tally.pressureDays[k].seen = true
                (tally.pressureDays[k].counts, tally.pressureDays[k].tier) = (today.counts, user.tier)
                tally.pressureDays[k].notifications = notifications
                (tally.pressureDays[k].deadline, tally.pressureDays[k].close) = (today.deadline, today.close)
                tally.pressureDays[k].reminders = today.pendingReminders
            }
        }
        /// The end of day `k`: the user was active; its state then.
        func end(_ k: Int) throws {
            guard k < count else { return }
            tally.days[k].users += 1
            tally.days[k].active += 1
            if uses.habits { tally.days[k].habitUsers += 1 }
            if uses.miga { tally.days[k].migaUsers += 1 }
            ended = k
            if uses.pressure, let view {
                tally.days[k].countPressure(view)
                tally.leavingDays[k].tier = view.tier
            }
            // The completions the day planned: each task due that day, its times per day (as a
            // simulation counts its persona's tasks; a task counts from its start date, else day 0).
            if uses.habits, let date = first.adding(days: k) {
                for (task, model) in try engine.habitTasks(ofRecorded: name) ?? [] {
                    let due = model.isDue(on: date, from: model.startDate ?? first) ? model.timesPerDay : 0
                    tally.days[k].habitPlanned += due
                    tally.habitDays[k].append(
                        HabitDay(
                            task: task, due: due, done: doneToday[task] ?? 0, streak: startStreaks[task] ?? 0,
                            freezes: startFreezes[task] ?? 0))
                }
            }
            let streaks = uses.habits ? try engine.habitStreaks(ofRecorded: name, at: startOf(k + 1)) : nil
            if let streaks { tally.days[k].countHabitStreaks(streaks) }
            for (task, streak) in streaks ?? [] { startStreaks[task] = streak.current }
            (startFreezes, doneToday) = (freezes, [:])
            tally.days[k].maxReminders = tally.days[k].reminders
            if earnedStarted { Histogram.count(ledger.balance, into: &tally.days[k].earned.balances) }
            if uses.earned, k + 1 < count { tally.earnedBalances[k + 1] = earnedStarted ? ledger.balance : 0 }
            // The last day's team metrics once every event is in (those after it count on it).
            if k < count - 1 { try endTeamDay(k, streaks: streaks) } else { lastEnded = true }
        }
        /// The team's metrics of day `k`, on the state the user is in now (`streaks`: the tasks'
        /// at the day's end, when already asked for).
        func endTeamDay(_ k: Int, streaks known: [(String, HabitStreak)]? = nil) throws {
            guard team != nil else { return }
            var habits: [(task: String, streak: Int)] = []
            if uses.habits, let streaks = try known ?? engine.habitStreaks(ofRecorded: name, at: startOf(k + 1)) {
                habits = streaks.map { ($0.0, $0.1.current) }.sorted { $0.task < $1.task }
            }
            let state = TeamMetricDay.State(
                pressure: view, balance: uses.earned ? (earnedStarted ? ledger.balance : 0) : nil, habits: habits)
            try team!.endDay(state: state, into: &tally.days[k], next: first.adding(days: k + 1))
        }
        /// Time passes to the start of day `k` (a tick the log does not have), which ends day k − 1.
        func passMidnight(_ k: Int) throws {
            let tick = EngineEvent(at: Timestamp(millis: startOf(k)), user: name, kind: .tick)
            if let outcome = try? engine.applySummarized(tick) {
                team?.note(tick, decided: outcome.decisions)
                counted(tick, outcome, day: k - 1)
            }
            try end(k - 1)
        }

        let rules = engine.rules
        defer { if arm != nil { engine.use(rules) } }
        _ = try engine.recordingBatch(keepingRecords: false) {
            for (i, event) in events.enumerated() {
                let at = event.at.millis
                let raw = max(0, first.days(to: clock.day(of: at)))
                let midnightTick: Bool
                if case .tick = event.kind { midnightTick = at == startOf(raw) && raw > 0 } else { midnightTick = false }
                if raw > open {
                    // The days that ended before this event: a midnight tick of the log's own ends the last.
                    for k in (open + 1)..<(midnightTick ? raw : raw + 1) where k <= count { try passMidnight(k) }
                }
                // The arm's rules from here on, on the rows the rules before left (time passed under those).
                if let arm, i == arm.from { engine.use(arm.rules) }
                let d = midnightTick ? raw - 1 : raw
                let isExposure = i == exposure
                tally.lastDay = min(d, count - 1)
                if !isExposure { tally.days[min(d, count - 1)].events += 1 }
                do {
                    let outcome = try engine.applySummarized(event)
                    // The exposure is the experiment's, not an event of the user's day (as in a simulation).
                    if !isExposure { team?.note(event, decided: outcome.decisions) }
                    counted(event, outcome, day: d)
                } catch {
                    if !isExposure { team?.note(event, decided: nil) }
                    if !isExposure { tally.days[min(d, count - 1)].refused += 1 }
                    tally.refusals.note(error, user: name, line: lines?[i])
                    if let (code, _) = RuleFailures.code(of: error) { tally.failures.counts[code] += 1 }
                }
                if midnightTick, raw > open { try end(raw - 1) }
                open = max(open, raw)
            }
            if lastEnded { try endTeamDay(count - 1) }
        }
        // The last active day, when no later event ended it (a log without midnight ticks): its tier as its events left it.
        if let last = tally.lastDay, last > ended, uses.pressure, let view { tally.leavingDays[last].tier = view.tier }
        // The days after the user's last: it had left (counted, not active).
        for k in open..<count { tally.days[k].users += 1 }
        self = tally
    }

    /// Where a user of another arm than the control's gets its arm's rules: at its exposure, or at
    /// the first of the events it sent at the exposure's instant just before it (the apps'
    /// `BundledEngine` writes the exposure after the first event its arm decided: at a user's first
    /// event, the whole log is under the arm's rules). A tick (time passing) at that instant is
    /// still the rules' before. Nil when that is the user's first event: no switch.
    static func switchIndex(_ events: [EngineEvent], exposure: Int) -> Int? {
        var from = exposure
        while from > 0, events[from - 1].at == events[exposure].at {
            if case .tick = events[from - 1].kind { break }
            from -= 1
        }
        return from == 0 ? nil : from
    }
}
