import LuaHost
import RulesEngine
import RulesModel

/// Drives one synthetic user through the engine, day by day, on a virtual clock: each event goes
/// through `Engine.applySummarized` (the same `apply` as replay and the apps), and what the engine
/// decided is counted into the day's totals. The persona reacts to what the user sees: the tier,
/// the streak, today's schedule and reminders, and Earned's unlock gate (`UserSimulator+Earned`).
/// A class: the closures of a user's day capture one reference, not a copy of the configuration.
final class UserSimulator {
    let engine: Engine
    let personas: [Persona]
    let personaHost: LuaHost
    /// The team's metrics, computed on each user-day (nil: the run has none).
    let metrics: TeamMetrics?
    let config: SimulationConfig
    /// The simulated days (`config.days`, computed once).
    let dayCount: Int
    /// The arm of the rollout (``SimulationConfig/rollout``) whose users this simulator runs.
    let arm: Int?
    /// The arm's rules, when its users run a pre-period first (``SimulationConfig/exposeAfter``)
    /// on `engine` under the control's: `engine` is given them at each user's exposure, on the
    /// same rows, and its own back after the user (nil: the user runs under `engine`'s throughout).
    let armRules: (any PolicyRules)?

    init(
        engine: Engine, personas: [Persona], personaHost: LuaHost, metrics: TeamMetrics?, config: SimulationConfig,
        arm: Int? = nil, armRules: (any PolicyRules)? = nil
    ) {
        self.engine = engine
        self.arm = arm
        self.armRules = armRules
        self.personas = personas
        self.personaHost = personaHost
        self.metrics = metrics
        self.config = config
        dayCount = config.days
    }

    /// The index of the simulated day a decision names, nil for a day outside the run.
    func dayIndex(_ day: DayID) -> Int? {
        let index = config.start.days(to: day)
        return (0..<dayCount).contains(index) ? index : nil
    }

    /// A planned event of the day.
    enum Action {
        case commit
        /// A look at the app: the first after the deadline (`reminders` nil), or after a reminder
        /// (`reminders`: today's reminders up to this one, each sent while the answer was pending).
        case look(reminders: Int?)
        case lateLook
        case habit(HabitAction)
        case miga(UsageEventType)
        case shield
        case earned(EarnedAction)
    }

    struct Planned {
        var at: EpochMillis
        var order: Int
        var action: Action
    }

    /// The user's running state between events.
    struct Run {
        /// Pressure's draws (the persona, the plan, commitments, check-ins, shields).
        var random: SimRandom
        /// The habit tracker's and MIGA's, apart: how many reminders Pressure's rules plan changes
        /// how many draws Pressure makes, which must not change the other apps' days.
        var habits: SimRandom
        var miga: SimRandom
        var view: UserSummary?
        var committed = false
        var answered = false
        var streakLostOn: Int?
        var reminders: [Int]
        /// The shortest streak whose loss counts as "lost a streak" for the persona.
        var minStreak = 1
        /// Earned, for a persona that uses it.
        var earned: EarnedRun?
        /// How the user responds to what the rules decide (its persona's responses).
        var responses = Responses.none
        /// Today's friction and engagement, for the leaving response: unlocks the gate denied, and
        /// whether the user did something for itself.
        var deniedToday = 0
        var engagedToday = false
        /// Each habit task's current streak at the start of the day (the rule set's), and the day
        /// its last streak of at least `Responses.Streak.atRisk` days broke.
        var habitStreak: [String: Int] = [:]
        var habitStreakBroken: [String: Int] = [:]
        /// The simulated day the habit streaks are read for (for `habitStreakBroken`).
        var habitDay = 0

        /// Notes task `task`'s current streak at the end of the day, and whether a streak at
        /// stake broke.
        mutating func noteStreak(_ task: String, _ current: Int) {
            if current == 0, let before = habitStreak[task], before >= (responses.streak?.atRisk ?? 1) {
                habitStreakBroken[task] = habitDay
            }
            habitStreak[task] = current
        }
        /// The user's index in the cohort, its events so far (for the replay file of a failure)
        /// and the events the rule set failed on.
        var index = 0
        var events: [EngineEvent] = []
        var failures = RuleFailures()
        /// The habit tasks' due days (the model's task) for a persona that sets their frequency.
        var habitTasks: [HabitTask?] = []
        /// Streak freezes the user holds by task (equipped less used), and the tasks it will
        /// complete tomorrow morning for today (`late`).
        var freezesHeld: [String: Int] = [:]
        var lateTomorrow: [String] = []
        /// For the team's metrics: the day's events and decisions so far.
        var metricUser: TeamMetricUser?
        /// Whether the user was exposed to its arm (a user that leaves in its pre-period is not).
        var exposed = false
    }

    /// `Run.events` between users, emptied with its capacity kept: a user's few hundred events are
    /// appended without growing the array again for each user (1 % of a simulation).
    private var eventBuffer: [EngineEvent] = []

    /// Simulates the user at `index` in the cohort, whose random streams are keyed by `key` (its
    /// id − 1), into its persona's `segments` (one entry per persona of the mix, one total per
    /// simulated day); adds the events the rule set failed on to `failures`. Returns the index of
    /// the user's persona in the mix, and whether the user was exposed to its arm (in a rollout).
    @discardableResult
    func run(
        index: Int, key: Int, name: String, into segments: inout [[DayTotals]], failures: inout RuleFailures, events: inout String
    ) throws -> (persona: Int, exposed: Bool) {
        // The user's first draw picks its persona; its days are counted in the persona's segment.
        var random = SimRandom(seed: config.seed, user: key)
        let p = config.mix.pick(random.unit())
        let rules = engine.rules
        // Its arm's rules were given to the engine at its exposure: the control's back for the next user.
        defer { if armRules != nil { engine.use(rules) } }
        let exposed = try run(
            persona: p, random, index: index, key: key, name: name, into: &segments[p], failures: &failures, events: &events)
        return (p, exposed)
    }

    private func run(
        persona p: Int, _ random: SimRandom, index: Int, key: Int, name: String, into days: inout [DayTotals],
        failures: inout RuleFailures, events: inout String
    ) throws -> Bool {
        var run = Run(
            random: random, habits: SimRandom(seed: config.seed, user: key, stream: SimRandom.habits),
            miga: SimRandom(seed: config.seed, user: key, stream: SimRandom.miga), reminders: Array(repeating: 0, count: dayCount))
        run.index = index
        swap(&run.events, &eventBuffer)
        defer {
            failures.add(run.failures)
            // Its events as the apps log them (`simulate --events`), in time order.
            if config.recordsEvents { for event in run.events { events += event.jsonLine + "\n" } }
            run.events.removeAll(keepingCapacity: true)
            swap(&run.events, &eventBuffer)
        }
        let persona = personas[p]
        let spec = persona.spec
        run.responses = config.responses ? spec.responses : .none
        var leaves = SimRandom(seed: config.seed, user: key, stream: SimRandom.leave)
        run.minStreak = max(1, spec.lostStreak.minStreak)
        let pressure = spec.uses(.pressure)
        let isPaid = pressure && run.random.chance(spec.paidShare)
        let clock = try LocalClock(timeZoneID: spec.settings.timezone)
        run.habitTasks = try spec.habits.map { $0.frequency == nil ? nil : try $0.modelTask(start: config.start) }
        var earnedRandom = SimRandom(seed: config.seed, user: key, stream: SimRandom.earned)
        if let earned = spec.earned, earnedRandom.chance(earned.share) {
            run.earned = EarnedRun(
                earned, clock: clock, plan: earnedRandom, gate: SimRandom(seed: config.seed, user: key, stream: SimRandom.gate))
        }
        if let metrics {
            let apps = Metric.App.used.filter { $0 == .earned ? run.earned != nil : spec.uses($0) }
            run.metricUser = TeamMetricUser(metrics, user: name, apps: apps, clock: clock, date: config.start)
        }
        for d in 0...dayCount {
            let date = config.start.adding(days: d)!
            let dayStart = clock.start(of: date)
            if d == 0 {
                // Pressure's schedule only for its users: it starts Pressure's daily cycle (`isPressure`).
                let s = spec.settings
                let change = SettingsChange(
                    commitmentDeadline: pressure ? try LocalTime(s.commitmentDeadline) : nil,
                    checkinWindowClose: pressure ? try LocalTime(s.checkinWindowClose) : nil, timezone: s.timezone,
                    personalityMode: PersonalityMode(rawValue: s.personalityMode),
                    notificationsEnabled: s.notificationsEnabled)
                step(.settings(change), at: dayStart, name: name, day: 0, &run, &days)
                if let arm, let rollout = config.rollout, config.exposeAfter == 0 {
                    expose(to: arm, of: rollout, at: dayStart, name: name, &run)
                }
                if isPaid {
                    step(.subscription(tier: .paid, expiresAt: nil), at: dayStart + Millis.minute, name: name, day: 0, &run, &days)
                }
                for habit in spec.habits {
                    step(.habitTask(habit.definition(start: date)), at: dayStart + 2 * Millis.minute, name: name, day: 0, &run, &days)
                }
            } else {
                // The day starts: the engine closes yesterday (a missed check-in), plans today's schedule.
                step(.tick, at: dayStart, name: name, day: d - 1, &run, &days)
                days[d - 1].countUser(of: spec, active: true)
                if pressure, let view = run.view {
                    days[d - 1].countPressure(view)
                }
                // The tasks' streaks at the end of each day (the metric, and what the user sees the next morning).
                if !spec.habits.isEmpty {
                    run.habitDay = d
                    countHabitStreaks(name: name, at: dayStart, into: &days[d - 1], &run)
                }
                days[d - 1].maxReminders = max(days[d - 1].maxReminders, run.reminders[d - 1])
                if let earned = run.earned, earned.started { Histogram.count(earned.ledger.balance, into: &days[d - 1].earned.balances) }
                // (The last day's after Earned's rollover below: its events count on that day.)
                if d < dayCount { try countMetrics(day: d - 1, into: &days[d - 1], &run) }
                // Leaving at the end of the day: the user sends no more events; it stays in the cohort's count.
                if d < dayCount, let leaving = run.responses.leaving {
                    let p = leaving.chance(
                        denied: run.deniedToday, tier: pressure ? run.view?.tier ?? 0 : 0, reminders: run.reminders[d - 1],
                        engaged: run.engagedToday)
                    if leaves.chance(p) {
                        for k in d..<dayCount { days[k].countUser(of: spec, active: false) }
                        return run.exposed
                    }
                }
                // The end of the pre-period: the arm's rules reach the user (the day's schedule
                // was planned as the control's ended), on the same rows, and it is exposed.
                if d == config.exposeAfter, let arm, let rollout = config.rollout {
                    if let armRules { engine.use(armRules) }
                    expose(to: arm, of: rollout, at: dayStart, name: name, &run)
                }
            }
            if d == dayCount {
                // Earned's last day rolls over (what its balance forfeits) when the next one starts.
                if run.earned?.started == true {
                    step(
                        .tick, at: dayStart + Int64(engine.rules.streakKnobs.earned.dayStartsAt.minutes + 1) * Millis.minute, name: name,
                        day: d - 1, &run, &days)
                }
                try countMetrics(day: d - 1, into: &days[d - 1], &run)
                break
            }
            try simulateDay(d, date: date, dayStart: dayStart, spec: spec, name: name, &run, &days)
        }
        return run.exposed
    }

    private func simulateDay(
        _ d: Int, date: DayID, dayStart: EpochMillis, spec: PersonaSpec, name: String,
        _ run: inout Run, _ days: inout [DayTotals]
    ) throws {
        // A Pressure user has no events on a day its time zone skips (Pacific/Apia, 2011-12-30).
        let pressure = spec.uses(.pressure)
        let today = run.view?.today.flatMap { $0.day == date ? $0 : nil }
        if pressure, today == nil { return }
        var pCommit = spec.commit, pYes = spec.answer.yes, pNo = spec.answer.no
        var habitScale = 1.0, opens = spec.miga.opensPerDay
        var urges = spec.earned?.urges.perDay ?? 0, focusSessions = spec.earned?.focus.sessionsPerDay ?? 0
        let sinceLost = run.streakLostOn.map { d - $0 }
        if let sinceLost, sinceLost <= spec.lostStreak.days {
            pCommit += spec.lostStreak.commit
            pYes += spec.lostStreak.yes
        }
        if let function = spec.day, let view = run.view {
            let o = try dayOverride(
                function, PersonaDay.Argument(index: d, date: date, view: view, daysSinceStreakLost: sinceLost), user: name)
            if let v = o.commit { pCommit = v }
            if let v = o.yes { pYes = v }
            if let v = o.no { pNo = v }
            if let v = o.habitScale { habitScale = v }
            if let v = o.migaOpens { opens = v }
            if let v = o.urges { urges = v }
            if let v = o.focusSessions { focusSessions = v }
        }
        pCommit = clamp(pCommit)
        pYes = clamp(pYes)
        pNo = min(clamp(pNo), 1 - pYes)

        var plan: [Planned] = []
        func add(_ at: EpochMillis, _ action: Action) { plan.append(Planned(at: at, order: plan.count, action: action)) }
        (run.deniedToday, run.engagedToday) = (0, false)
        run.committed = false
        run.answered = false
        let minute = Millis.minute
        if pressure, let view = run.view, let today {
            if today.counts, run.random.chance(pCommit) {
                let lead = Int64(run.random.int(spec.commitLeadMinutes[0], spec.commitLeadMinutes[1]))
                add(max(today.deadline - lead * minute, dayStart + 3 * minute, today.start), .commit)
                let look = Int64(run.random.int(spec.firstLookMinutes[0], spec.firstLookMinutes[1]))
                add(min(today.deadline + look * minute, today.close - minute), .look(reminders: nil))
                if spec.settings.notificationsEnabled {
                    let reminders = today.pendingReminders
                    for reminder in reminders {
                        let at = reminder + Int64(run.random.int(1, 10)) * minute
                        if at < today.close { add(at, .look(reminders: reminders.count(where: { $0 <= at }))) }
                    }
                }
                if view.isPaid, spec.shield > 0 { addLateLook(after: today.close) }
            } else if today.counts, view.isPaid, spec.shield > 0 {
                addLateLook(after: today.deadline)
            }
            /// A look after the window closed (or the deadline passed with no commitment), before the
            /// next day starts: a window closing at 23:59 leaves less than the usual 5–30 minutes.
            func addLateLook(after time: EpochMillis) {
                let at = min(time + Int64(run.random.int(5, 30)) * minute, today.end - 30 * Millis.second)
                if at > time { add(at, .lateLook) }
            }
        }
        planHabits(d, date: date, dayStart: dayStart, spec: spec, habitScale: habitScale, &run, &days, &plan)
        var count = Int(opens)
        if run.miga.chance(opens - Double(count)) { count += 1 }
        for _ in 0..<count {
            let at = dayStart + Int64(run.miga.int(8 * 60, 23 * 60 - 1)) * minute
            let u = run.miga.unit()
            add(at, .miga(u < spec.miga.exit ? .exitToFocus : u < spec.miga.exit + spec.miga.deepen ? .deepenPause : .proceedToApp))
        }
        planEarned(d, dayStart: dayStart, EarnedDay(urges: urges, focusSessions: focusSessions, habitScale: habitScale), &run, &days, &plan)
        plan.sort { ($0.at, $0.order) < ($1.at, $1.order) }

        var i = 0
        while i < plan.count {
            let item = plan[i]
            i += 1
            switch item.action {
            case .commit:
                if step(.commitment(text: "Day \(d + 1) commitment"), at: item.at, name: name, day: d, &run, &days) != nil {
                    run.committed = true
                }
            case .look(let remindersToday):
                guard run.committed, !run.answered else { continue }
                let tier = run.view?.tier ?? 0
                var result: CommitmentStatus?
                if let remindersToday {
                    var p = spec.reminderResponse[min(tier, spec.reminderResponse.count - 1)]
                    if let fatigue = run.responses.fatigue {
                        // The days before today's in the window, as sent; today's up to this one (the
                        // engine sends a reminder when the next event comes: it may not have yet).
                        let before = run.reminders[max(0, d - fatigue.days + 1)..<d].reduce(0, +)
                        p = fatigue.chance(p, received: before + remindersToday)
                    }
                    if run.random.chance(p) {
                        result = run.random.chance(spec.reminderYesShare) ? .yes : .no
                    }
                } else {
                    let u = run.random.unit()
                    result = u < pYes ? .yes : u < pYes + pNo ? .no : nil
                }
                guard let result else { continue }
                if step(.checkIn(result), at: item.at, name: name, day: d, &run, &days) != nil {
                    run.answered = true
                    if result == .no { considerShield(after: item.at, spec: spec, &run, &plan, from: i) }
                }
            case .lateLook:
                guard !run.answered else { continue }
                if step(.tick, at: item.at, name: name, day: d, &run, &days) != nil {
                    considerShield(after: item.at, spec: spec, &run, &plan, from: i)
                }
            case .habit(let action):
                applyHabit(action, at: item.at, name: name, day: d, &run, &days)
            case .miga(let type):
                step(.miga(type, app: "Instagram", pauseSeconds: nil), at: item.at, name: name, day: d, &run, &days)
            case .shield:
                step(.shield, at: item.at, name: name, day: d, &run, &days)
            case .earned(let action):
                applyEarned(action, at: item.at, name: name, day: d, &run, &days, &plan, from: i)
            }
        }
    }

    /// After a NO or a miss: a paid user with a shield left may use it, within the activation window
    /// and before the day ends (the next day's events come after).
    private func considerShield(after time: EpochMillis, spec: PersonaSpec, _ run: inout Run, _ plan: inout [Planned], from index: Int) {
        guard let view = run.view, view.isPaid, view.restartShieldsRemaining > 0, let until = view.shieldableUntil, until > time,
            let end = view.today?.end, run.random.chance(spec.shield)
        else { return }
        let at = min(until, time + Int64(run.random.int(1, 30)) * Millis.minute, end - 15 * Millis.second)
        if at > time { schedule(.shield, at: at, in: &plan, from: index) }
    }

    /// Inserts an action that follows from an event into the rest of the day's plan (from
    /// `index`), before the actions planned for the same instant.
    func schedule(_ action: Action, at: EpochMillis, in plan: inout [Planned], from index: Int) {
        let position = plan[index...].firstIndex { ($0.at, $0.order) > (at, -1) } ?? plan.count
        plan.insert(Planned(at: at, order: -1, action: action), at: position)
    }

    /// Applies one event and counts what the engine decided into day `d`; returns what it decided,
    /// nil when the engine refused the event (which changes nothing).
    @discardableResult
    func step(
        _ kind: EngineEvent.Kind, at time: EpochMillis, name: String, day d: Int, _ run: inout Run,
        _ days: inout [DayTotals]
    ) -> Engine.SummarizedOutcome? {
        days[d].events += 1
        let event = EngineEvent(at: Timestamp(millis: time), user: name, kind: kind)
        run.events.append(event)
        let applied: Engine.SummarizedOutcome
        do {
            applied = try engine.applySummarized(event)
        } catch {
            days[d].refused += 1
            countFailure(error, of: event, day: d, &run)
            run.metricUser?.note(event, decided: nil)
            return nil
        }
        run.metricUser?.note(event, decided: applied.decisions)
        let streakBefore = run.view?.currentStreak ?? 0
        run.view = applied.user
        if Responses.Leaving.engages(kind) { run.engagedToday = true }
        let counted = DayTotals.count(applied: kind, applied.decisions, day: d, into: &days, dayIndex: dayIndex)
        run.reminders[d] += counted.reminders
        run.deniedToday += counted.denied
        if streakBefore >= run.minStreak, applied.user.currentStreak == 0 { run.streakLostOn = d }
        if run.earned != nil { run.earned!.ledger.record(applied.decisions, day: d, into: &days, dayIndex: dayIndex) }
        return applied
    }

    /// Writes the user's exposure to its arm after its first event (or at the start of its first
    /// day after its pre-period), as the apps' `BundledEngine` does: an event the host writes, not
    /// the user's (the day's totals do not count it; the events of `--events` and the database have it).
    private func expose(to arm: Int, of rollout: Rollout, at time: EpochMillis, name: String, _ run: inout Run) {
        let event = rollout.exposure(user: name, arm: arm, at: Timestamp(millis: time))
        run.events.append(event)
        run.exposed = true
        do {
            _ = try engine.applySummarized(event)
        } catch {
            countFailure(error, of: event, day: 0, &run)
        }
    }

    /// Counts the team's metrics on the user's day `d` (its events and decisions, and the state the
    /// engine reports at its end) into `day`, then starts the next day's record.
    private func countMetrics(day d: Int, into day: inout DayTotals, _ run: inout Run) throws {
        guard run.metricUser != nil else { return }
        let state = TeamMetricDay.State(
            pressure: run.view, balance: run.earned.map { $0.started ? $0.ledger.balance : 0 },
            habits: run.habitStreak.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        try run.metricUser?.endDay(state: state, into: &day, next: config.start.adding(days: d + 1))
    }

    /// Counts a refused event when the rule set failed on it (not when the apps' rules refused
    /// it); keeps the user's first failure, with its events up to it.
    private func countFailure(_ error: any Error, of event: EngineEvent, day d: Int, _ run: inout Run) {
        guard let (code, failure) = RuleFailures.code(of: error) else { return }
        run.failures.counts[code] += 1
        guard run.failures.first == nil else { return }
        let location = RuleFailures.leadingLocation(failure.message) ?? (engine.rules as? RuleSet)?.location(ofFunctionIn: failure.message)
        run.failures.first = RuleFailures.First(
            userIndex: run.index, user: event.user, day: d, date: config.start.adding(days: d)!.rawValue,
            at: event.at.description, event: event.kind.typeName, code: code.rawValue,
            message: failure.message, location: location, events: run.events)
    }

    /// What the persona's `day()` returns for one user-day; a Lua error or a value out of range
    /// is the persona's problem (`InputFileError`), named with the user and the day.
    private func dayOverride(_ function: LuaFunction, _ argument: PersonaDay.Argument, user name: String) throws -> PersonaDay.Override {
        let during = "(in day() for \(name) on \(argument.date.rawValue))"
        do {
            let value = try personaHost.call(function, Pooled(argument), returning: [LuaValue].self).first ?? .nil
            if value.isNil { return PersonaDay.Override() }
            let override = try LuaDecoder().decode(PersonaDay.Override.self, from: value, file: function.source)
            if let problem = override.problems().first {
                throw InputFileError(function.source, line: function.line, "day() returned \(problem) \(during)")
            }
            return override
        } catch let error as LuaError {
            let field = error.path.map { $0.isEmpty ? "" : "\($0): " } ?? ""
            if error.kind == .runtime || error.line != nil {
                throw InputFileError(error.file ?? function.source, line: error.line ?? function.line, "\(field)\(error.message) \(during)")
            }
            throw InputFileError(function.source, line: function.line, "day() returned \(field)\(error.message) \(during)")
        }
    }

    private func clamp(_ p: Double) -> Double { min(1, max(0, p)) }
}
