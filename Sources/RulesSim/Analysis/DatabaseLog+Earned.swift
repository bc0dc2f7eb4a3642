import RulesEngine
import RulesModel
import RulesStore

extension DatabaseLog {
    /// Earned's events as a user's rows hold them (docs/analyze.md, "A database as the log"):
    /// its definitions (the "Distracting Apps" list, modes, habits, the QR key) at the instants
    /// their rows were written, its habit completions and focus sessions, and at the unlock gate
    /// each attempt (`unlock_open`), its choice (at the quest's start, or when the attempt was
    /// granted or denied), its cancellation, and its quest's end. What the rows keep only as a
    /// state (a mode or habit changed after it was defined, a manual override, rows older than
    /// A8's cleanup kept) is a gap; `add` takes each event, `gap` each kind of gap. Returns why the
    /// rows cannot be read at all, or nil.
    static func earnedEvents(
        _ rows: StoredEarned, user: String, createdAt: EpochMillis, book: RecordedBookkeeping,
        add: (EpochMillis, EarnedEvent) -> Void, gap: (String) -> Void
    ) -> String? {
        if let whole = book.earnedWholeFrom, whole > createdAt {
            // Rows may be missing: the user is left out, whatever else its rows hold.
            gap("Earned rows older than the cleanup keeps (quests.lua retention)")
            return nil
        }
        for type in book.earnedSetAgain { gap("\(type) set again (its rows keep the last value)") }
        if let first = rows.distractingApps.first {
            guard rows.distractingApps.allSatisfy({ $0.at == first.at }) else {
                return "distracting_app rows of different instants (the list is set as a whole)"
            }
            add(first.at, .distractingApps(rows.distractingApps.map(\.app)))
        }
        if let quest = rows.settings?.quest, let key = quest.qrKeyValue, let at = quest.qrKeySetAt { add(at, .qrKey(key)) }
        for mode in rows.modes {
            guard let name = book.modeNames[mode.modeID] else { return "mode \(mode.modeID) has no name in engine_state" }
            guard mode.updatedAt == mode.createdAt, mode.deletedAt == nil, mode.manualState == .auto else {
                gap("mode changed after it was defined (mode, mode_override)")
                continue
            }
            let rowsWindows = rows.windows[mode.modeID] ?? []
            var windows: [ModeDefinition.Window] = []
            for index in rowsWindows.indices {
                let id = RecordedBookkeeping.modeWindowID(user: user, mode: name, index: index)
                guard let window = rowsWindows.first(where: { $0.windowID == id }), window.createdAt == mode.createdAt else {
                    return "the windows of mode \(name) are not those its definition gives (mode_window)"
                }
                let days = (1...7).filter { window.daysOfWeekMask & 1 << ($0 - 1) != 0 }
                windows.append(ModeDefinition.Window(days: days, start: window.startLocal, end: window.endLocal))
            }
            let blocked = rows.blockedApps[mode.modeID] ?? []
            add(
                mode.createdAt,
                .mode(
                    ModeDefinition(
                        mode: name, name: mode.name == name ? nil : mode.name, priority: mode.priority,
                        strictness: mode.strictness,
                        windows: windows, blockedApps: blocked.isEmpty ? nil : blocked)))
        }
        var habitNames: [String: String] = [:]
        for habit in rows.habits {
            guard let name = book.habitNames[habit.habitID] else { return "habit \(habit.habitID) has no name in engine_state" }
            habitNames[habit.habitID] = name
            guard habit.updatedAt == habit.createdAt, habit.deletedAt == nil else {
                gap("earned_habit changed after it was defined")
                continue
            }
            add(
                habit.createdAt,
                .habit(
                    EarnedHabitDefinition(
                        habit: name, name: habit.name == name ? nil : habit.name, rewardCredits: habit.rewardCredits,
                        active: habit.active ? nil : false)))
        }
        for completion in rows.completions {
            guard let name = habitNames[completion.habitID] else {
                return "a completion of habit \(completion.habitID), which has no habit row"
            }
            add(completion.timestamp, .habitCompletion(habit: name))
        }
        for session in rows.focusSessions {
            let blocked = rows.focusBlockedApps[session.sessionID] ?? []
            add(
                session.startedAt,
                .focusStart(
                    FocusStart(
                        minutes: session.plannedDurationMinutes, label: session.taskLabel, strict: session.strict ? nil : false,
                        blockedApps: blocked.isEmpty ? nil : blocked)))
            if session.endedEarly, let ended = session.endedAt { add(ended, .focusEnd) }
        }
        // Instants at which the gate opened for an app: a quest cancelled then was cancelled by it.
        let opened = Set(rows.attempts.map { "\($0.appID.rawValue)@\($0.timestamp)" })
        // Attempts of the same instant in the order the engine numbered them (the rows come in the
        // order of their times, then of their ids: the serials are needed only where times tie).
        var attempts = rows.attempts
        if zip(attempts, attempts.dropFirst()).contains(where: { $0.timestamp == $1.timestamp }) {
            let serials = Dictionary(
                (0...book.earnedSerial).map { (RecordedBookkeeping.earnedID("attempt", user: user, serial: $0), $0) },
                uniquingKeysWith: min)
            func order(_ a: UnlockAttempt) -> (EpochMillis, Int, String) { (a.timestamp, serials[a.attemptID] ?? .max, a.attemptID) }
            attempts.sort { order($0) < order($1) }
        }
        for attempt in attempts {
            let app = attempt.appID
            add(attempt.timestamp, .unlockOpen(app: app))
            switch attempt.chosenOptionType {
            case .questUnlock?:
                if let quest = rows.quests[attempt.attemptID] {
                    add(quest.createdAt, .unlockChoose(app: app, .quest(quest.questType)))
                    switch quest.state {
                    case .completed: add(quest.updatedAt, .questComplete(app: app))
                    case .failed:
                        guard let reason = rows.questFailures[quest.questSessionID] else {
                            return "quest \(quest.questSessionID) FAILED without its QUEST_FAILED event"
                        }
                        add(quest.updatedAt, .questFail(app: app, reason: reason))
                    case .cancelled where !opened.contains("\(app.rawValue)@\(quest.updatedAt)"):
                        add(quest.updatedAt, .questCancel(app: app))
                    case .cancelled, .expired, .active: break
                    }
                } else {
                    guard case .string(let raw)? = attempt.chosenOptionPayload?["quest_type"], let type = QuestType(rawValue: raw)
                    else {
                        return "attempt \(attempt.attemptID) chose a quest without its quest_type"
                    }
                    add(attempt.updatedAt, .unlockChoose(app: app, .quest(type)))
                }
            case .creditsUnlock?:
                guard case .int(let minutes)? = attempt.chosenOptionPayload?["minutes"] else {
                    return "attempt \(attempt.attemptID) chose credits without its minutes"
                }
                add(attempt.updatedAt, .unlockChoose(app: app, .credits(minutes: minutes)))
            case .emergencyUnlock?:
                add(attempt.updatedAt, .unlockChoose(app: app, .emergency))
            case nil:
                if attempt.outcome == .cancelled { add(attempt.updatedAt, .unlockCancel(app: app)) }
            }
        }
        return nil
    }
}
