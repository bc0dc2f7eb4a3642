import GRDB
import RulesModel

extension EarnedRecords {
    /// The statements that write users' Earned rows, prepared once for a whole bulk write.
    struct Statements {
        let economy, emergency, settings, entitlement, focusState, summary, mode, modeWindow, modeBlockedApp, habit, completion,
            focusSession, focusBlockedApp, attempt, grant, currentGrant, grantExtension, quest, limits, distractingApp,
            event: PreparedStatement

        init(_ db: Database) throws {
            economy = try PreparedStatement(db, EarnedRows.updateEconomySQL)
            emergency = try PreparedStatement(db, EarnedRows.updateEmergencySQL)
            settings = try PreparedStatement(db, EarnedRows.updateSettingsSQL)
            entitlement = try PreparedStatement(db, EarnedRows.updateEntitlementSQL)
            focusState = try PreparedStatement(db, EarnedRows.updateFocusStateSQL)
            summary = try PreparedStatement(db, EarnedRows.insertDaySummarySQL)
            mode = try PreparedStatement(db, EarnedRows.upsertModeSQL)
            modeWindow = try PreparedStatement(db, EarnedRows.insertModeWindowSQL)
            modeBlockedApp = try PreparedStatement(db, EarnedRows.insertModeBlockedAppSQL)
            habit = try PreparedStatement(db, EarnedRows.upsertHabitSQL)
            completion = try PreparedStatement(db, EarnedRows.insertHabitCompletionSQL)
            focusSession = try PreparedStatement(db, EarnedRows.insertFocusSessionSQL)
            focusBlockedApp = try PreparedStatement(db, EarnedRows.insertFocusBlockedAppSQL)
            attempt = try PreparedStatement(db, UnlockRows.insertAttemptSQL)
            grant = try PreparedStatement(db, UnlockRows.insertGrantSQL)
            currentGrant = try PreparedStatement(db, UnlockRows.upsertCurrentGrantSQL)
            grantExtension = try PreparedStatement(db, UnlockRows.insertExtensionSQL)
            quest = try PreparedStatement(db, UnlockRows.insertQuestSQL)
            limits = try PreparedStatement(db, UnlockRows.upsertDailyAppLimitsSQL)
            distractingApp = try PreparedStatement(db, EarnedRows.insertDistractingAppSQL)
            event = try PreparedStatement(db, UnlockRows.insertEventSQL)
        }
    }

    /// The JSON columns of the rows: the options snapshots by attempt, the payloads in log order.
    struct EncodedJSON {
        var options: [String: String]
        var payloads: [String]
    }

    /// Encodes the JSON columns, on the thread that calls it (a simulation's worker, not the one
    /// that writes the database), so that ``write(_:)`` does not. Call it after the last change.
    func encodeJSON() throws {
        encoded = EncodedJSON(
            options: try attempts.mapValues { try ModelJSON.encode($0.availableOptions) },
            payloads: try events.map { try $0.payload.json() })
    }

    /// Writes the rows (the user's ``NewUser`` rows are already written: the singletons are
    /// updated), parents before the rows that refer to them, each table in key order and the event
    /// log in the order it was logged.
    func write(_ s: Statements) throws {
        if encoded == nil { try encodeJSON() }
        let json = encoded!
        let u = userID.rawValue
        for (id, rows) in modes.sorted(by: { $0.key < $1.key }) {
            try s.mode.run { EarnedRows.mode(rows.mode, into: &$0) }
            for window in rows.windows { try s.modeWindow.run { EarnedRows.modeWindow(window, into: &$0) } }
            for app in rows.blockedApps {
                try s.modeBlockedApp.run { v in
                    v.add(id); v.add(app.rawValue); v.add(u); v.add(rows.mode.updatedAt)
                }
            }
        }
        for (_, habit) in habits.sorted(by: { $0.key < $1.key }) { try s.habit.run { EarnedRows.habit(habit, into: &$0) } }
        for row in completions { try s.completion.run { EarnedRows.habitCompletion(row, into: &$0) } }
        for (_, session) in focusSessions.sorted(by: { $0.key < $1.key }) {
            try s.focusSession.run { EarnedRows.focusSession(session, into: &$0) }
        }
        for row in focusBlockedApps {
            try s.focusBlockedApp.run { v in
                v.add(row.sessionID); v.add(row.app.rawValue); v.add(u)
            }
        }
        for (id, attempt) in attempts.sorted(by: { $0.key < $1.key }) {
            try s.attempt.run { try UnlockRows.attempt(attempt, optionsJSON: json.options[id]!, into: &$0) }
        }
        for (_, grant) in grants.sorted(by: { $0.key < $1.key }) { try s.grant.run { try UnlockRows.grant(grant, into: &$0) } }
        for (app, current) in currentGrants.sorted(by: { $0.key < $1.key }) {
            try s.currentGrant.run { v in
                v.add(u); v.add(app.rawValue); v.add(current.grantID); v.add(current.updatedAt)
            }
        }
        for row in extensions { try s.grantExtension.run { try UnlockRows.grantExtension(row, into: &$0) } }
        for (_, quest) in quests.sorted(by: { $0.key < $1.key }) { try s.quest.run { try UnlockRows.quest(quest, into: &$0) } }
        for (_, row) in limits.sorted(by: { ($0.key.day, $0.key.key) < ($1.key.day, $1.key.key) }) {
            try s.limits.run { UnlockRows.dailyAppLimits(row, into: &$0) }
        }
        for (_, summary) in summaries.sorted(by: { $0.key < $1.key }) { try s.summary.run { EarnedRows.daySummary(summary, into: &$0) } }
        if let distracting = distractingApps {
            for app in distracting.apps {
                try s.distractingApp.run { v in
                    v.add(u); v.add(app.rawValue); v.add(distracting.at)
                }
            }
        }
        for (row, payload) in zip(events, json.payloads) { try s.event.run { UnlockRows.event(row, payloadJSON: payload, into: &$0) } }
        try s.economy.run { EarnedRows.economy(economyRow, into: &$0) }
        try s.emergency.run { EarnedRows.emergency(emergencyRow, into: &$0) }
        let settingsJSON = try ModelJSON.encode(settings.value)
        try s.settings.run { v in
            v.add(settingsJSON); v.add(settings.updatedAt); v.add(u)
        }
        try s.entitlement.run { EarnedRows.entitlement(entitlement, into: &$0) }
        try s.focusState.run { v in
            v.add(focusState.activeSessionID); v.add(focusState.updatedAt); v.add(u)
        }
    }
}
