import RulesEngine
import RulesModel

/// Earned in the simulation: the set-up on the first day (distracting apps, modes, habits, QR
/// key), then every day habit completions, focus sessions and urges to open a distracting app,
/// with what the user does at the unlock gate — every event through `Engine.applySummarized`,
/// every draw from the user's `SimRandom`.
extension UserSimulator {
    /// A planned Earned event, or one that follows from what the engine decided.
    enum EarnedAction {
        case setUp
        case habit(String)
        case focusStart(minutes: Int)
        case focusQuit
        /// The user opens `app` (a retry after a denial does not insist).
        case urge(AppID, retry: Bool)
        case choose(AppID, UnlockChoice, retry: Bool)
        case leaveGate(AppID)
        case endQuest(AppID, QuestType, QuestEnd)
    }

    enum QuestEnd { case complete, fail, cancel }

    /// The user's Earned state between events.
    struct EarnedRun {
        let persona: EarnedPersona
        let apps: [AppID]
        /// The user's local clock, to read the decisions' instants to the minute, as they print them.
        let clock: LocalClock
        /// Earned's random numbers: the day's plans, and the reactions to the gate (`SimRandom`).
        var plan: SimRandom
        var gate: SimRandom
        var ledger = EarnedLedger()
        var started = false
        /// Until when each app is unlocked by a grant (the user is in it), and until when the user
        /// is busy with its gate or quest (an urge for it then is not a new one).
        var unlockedUntil: [AppID: EpochMillis] = [:]
        var busyUntil: [AppID: EpochMillis] = [:]

        init(_ persona: EarnedPersona, clock: LocalClock, plan: SimRandom, gate: SimRandom) {
            self.persona = persona
            self.clock = clock
            self.plan = plan
            self.gate = gate
            apps = persona.apps.compactMap(AppID.init(rawValue:))
        }

        /// `instant` to the minute of local time, as decisions print it (`YYYY-MM-DDTHH:MM`): what
        /// the user reads of a grant's end or a quest's.
        func minute(of instant: EpochMillis) -> EpochMillis {
            let (day, minutes) = clock.civil(instant)
            return clock.instant(on: day, at: minutes)
        }
    }

    /// Earned's knobs of one day, after the persona's `day(d)` overrides.
    struct EarnedDay {
        var urges: Double
        var focusSessions: Double
        var habitScale: Double
    }

    /// Plans the day's Earned events (the set-up on the first day, just after Earned's day starts).
    func planEarned(
        _ d: Int, dayStart: EpochMillis, _ knobs: EarnedDay, _ run: inout Run, _ days: inout [DayTotals],
        _ plan: inout [Planned]
    ) {
        guard var earned = run.earned else { return }
        defer { run.earned = earned }
        let e = earned.persona
        let minute = Millis.minute
        func add(_ minutes: Int, _ action: EarnedAction) {
            plan.append(Planned(at: dayStart + Int64(minutes) * minute, order: plan.count, action: .earned(action)))
        }
        if d == 0 { add(engine.rules.streakKnobs.earned.dayStartsAt.minutes + 1, .setUp) }
        // How short the balance is of what the user wants to hold (the earning response).
        let urge = run.responses.earning.map { $0.boost * $0.shortfall(earned.ledger.balance) } ?? 0
        let together = earned.plan.chance(e.habitsTogether)
        var moment = earned.plan.int(7 * 60, 21 * 60)
        for habit in e.habits {
            days[d].earned.habitsPlanned += 1
            guard earned.plan.chance(Responses.shift(min(1, habit.rate * knobs.habitScale), by: urge)) else { continue }
            if together { moment += earned.plan.int(1, 4) } else { moment = earned.plan.int(7 * 60, 21 * 60) }
            add(moment, .habit(habit.name))
        }
        var starts = (0..<draws(knobs.focusSessions * (1 + urge), &earned.plan)).map { _ in
            earned.plan.int(e.focus.hours[0] * 60, e.focus.hours[1] * 60 - 1)
        }
        starts.sort()
        var free = 0
        for wanted in starts {
            let start = max(wanted, free), length = e.focus.minutes[earned.plan.int(0, e.focus.minutes.count - 1)]
            guard start + length <= 23 * 60 + 30 else { break }
            add(start, .focusStart(minutes: length))
            if length > 1, earned.plan.chance(e.focus.quitEarly) { add(start + earned.plan.int(1, length - 1), .focusQuit) }
            free = start + length + 5
        }
        let apps = earned.apps
        guard !apps.isEmpty else { return }
        for _ in 0..<draws(knobs.urges, &earned.plan) {
            let at = earned.plan.int(e.urges.hours[0] * 60, e.urges.hours[1] * 60 - 1)
            add(at, .urge(apps[earned.plan.int(0, apps.count - 1)], retry: false))
        }
    }

    /// The whole part of `mean`, plus one with the probability of its fraction.
    private func draws(_ mean: Double, _ random: inout SimRandom) -> Int {
        let whole = Int(mean)
        return whole + (random.chance(mean - Double(whole)) ? 1 : 0)
    }

    /// Applies one Earned action; what the engine decides may schedule the next ones (a choice
    /// at the gate, the end of a quest, a retry after a denial).
    func applyEarned(
        _ action: EarnedAction, at time: EpochMillis, name: String, day d: Int, _ run: inout Run,
        _ days: inout [DayTotals], _ plan: inout [Planned], from index: Int
    ) {
        // The persona's parts are read where needed: a copy of it all would retain each of its lists.
        guard run.earned != nil else { return }
        func outcome(_ event: EarnedEvent, at t: EpochMillis = time) -> Engine.SummarizedOutcome? {
            step(.earned(event), at: t, name: name, day: d, &run, &days)
        }
        func apply(_ event: EarnedEvent, at t: EpochMillis = time) { _ = outcome(event, at: t) }
        /// Applies `event` now; the first of its decisions that `match` picks out, nil when the
        /// engine refused it or made none such.
        func apply<T>(_ event: EarnedEvent, _ match: (Decision) -> T?) -> T? {
            outcome(event)?.decisions.all.lazy.compactMap(match).first
        }
        func later(_ delay: Int64, _ next: EarnedAction) -> EpochMillis {
            schedule(.earned(next), at: time + delay, in: &plan, from: index)
            return time + delay
        }
        switch action {
        case .setUp:
            run.earned!.started = true
            let e = run.earned!.persona
            // Milliseconds apart: done before any other event of the minute.
            var t = time
            func next() -> EpochMillis { t += 1; return t }
            apply(.distractingApps(run.earned!.apps))
            for mode in e.modes {
                let windows = mode.windows.compactMap { w -> ModeDefinition.Window? in
                    guard let from = try? LocalTime(w.from), let to = try? LocalTime(w.to) else { return nil }
                    return ModeDefinition.Window(days: w.days, start: from, end: to)
                }
                apply(
                    .mode(
                        ModeDefinition(
                            mode: mode.name, priority: mode.priority, strictness: Strictness(rawValue: mode.strictness),
                            windows: windows, blockedApps: mode.blockedApps?.compactMap(AppID.init(rawValue:)))), at: next())
            }
            for habit in e.habits {
                apply(.habit(EarnedHabitDefinition(habit: habit.name, rewardCredits: habit.rewardCredits)), at: next())
            }
            if run.earned!.plan.chance(e.qrKey) { apply(.qrKey("desk-\(run.earned!.plan.int(1000, 9999))"), at: next()) }
        case .habit(let name):
            apply(.habitCompletion(habit: name))
        case .focusStart(let minutes):
            apply(.focusStart(FocusStart(minutes: minutes, strict: run.earned!.persona.focus.strict)))
        case .focusQuit:
            apply(.focusEnd)
        case .urge(let app, let retry):
            if run.earned!.busyUntil[app].map({ $0 > time }) == true { return }
            if !retry { days[d].earned.urges += 1 }
            if run.earned!.unlockedUntil[app].map({ $0 > time }) == true {
                days[d].earned.openedWhileUnlocked += 1
                return
            }
            guard let attempt = apply(.unlockOpen(app: app), { if case .unlockGate(_, let attempt?) = $0 { attempt } else { nil } }) else {
                return
            }
            let preferences = run.earned!.persona.gate
            let choice = preferences.choose(
                GateOptions(attempt.options), mayInsist: !retry, price: run.responses.price, held: run.earned!.ledger.balance,
                &run.earned!.gate)
            let delay = Int64(run.earned!.gate.int(5, 40)) * Millis.second
            run.earned!.busyUntil[app] = later(delay, choice.map { .choose(app, $0, retry: retry) } ?? .leaveGate(app))
        case .choose(let app, let choice, let retry):
            guard let unlock = apply(.unlockChoose(app: app, choice), { if case .unlock(let unlock) = $0 { unlock } else { nil } }) else {
                return
            }
            switch unlock.outcome {
            case .granted(let grant, _):
                run.earned!.unlockedUntil[app] = run.earned!.minute(of: grant.ends)
            case .questStarted(_, let expiresAt, _):
                guard case .quest(let type) = choice else { return }
                let u = run.earned!.gate.unit(), q = run.earned!.persona.quest
                let end: QuestEnd? =
                    u < q.complete ? .complete : u < q.complete + q.fail ? .fail : u < q.complete + q.fail + q.cancel ? .cancel : nil
                let expires = run.earned!.minute(of: expiresAt)
                if let end {
                    let delay = Int64(run.earned!.gate.int(q.minutes[0] * 60, q.minutes[1] * 60)) * Millis.second
                    if time + delay >= expires {
                        run.earned!.busyUntil[app] = expires  // too slow for the rules' quest: it expires
                    } else {
                        run.earned!.busyUntil[app] = later(delay, .endQuest(app, type, end))
                    }
                } else {
                    run.earned!.busyUntil[app] = expires  // left to expire
                }
            case .denied where !retry:
                run.earned!.busyUntil[app] = later(Int64(run.earned!.gate.int(10, 30)) * Millis.second, .urge(app, retry: true))
            default: break
            }
        case .leaveGate(let app):
            apply(.unlockCancel(app: app))
        case .endQuest(let app, let type, let end):
            switch end {
            case .complete:
                if let grant = apply(.questComplete(app: app), { if case .quest(let quest) = $0 { quest.grant } else { nil } }) {
                    run.earned!.unlockedUntil[app] = run.earned!.minute(of: grant.ends)
                }
            case .fail: apply(.questFail(app: app, reason: type == .breathing ? .timeout : .mismatch))
            case .cancel: apply(.questCancel(app: app))
            }
        }
    }
}
