import GRDB
import RulesModel

extension EarnedRecords {
    /// The statements that write users' Earned rows, prepared once for a whole bulk write.
    struct Statements {
        let economy, emergency, settings, entitlement, focusState, summary, mode, modeWindow, modeBlockedApp, habit, completion,
            focusSession, focusBlockedApp, attempt, grant, currentGrant, grantExtension, quest, limits, distractingApp, event: PreparedStatement

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

    /// Writes the rows (the user's ``NewUser`` rows are already written: the singletons are
    /// updated), parents before the rows that refer to them, each table in key order and the event
    /// log in the order it was logged.
    func write(_ s: Statements) throws {
        let u = userID.rawValue
        for id in modes.keys.sorted() {
            let rows = modes[id]!
            try s.mode.run { EarnedRows.mode(rows.mode, into: &$0) }
            for window in rows.windows { try s.modeWindow.run { EarnedRows.modeWindow(window, into: &$0) } }
            for app in rows.blockedApps {
                try s.modeBlockedApp.run { v in v.add(id); v.add(app.rawValue); v.add(u); v.add(rows.mode.updatedAt) }
            }
        }
        for id in habits.keys.sorted() { try s.habit.run { EarnedRows.habit(habits[id]!, into: &$0) } }
        for row in completions { try s.completion.run { EarnedRows.habitCompletion(row, into: &$0) } }
        for id in focusSessions.keys.sorted() { try s.focusSession.run { EarnedRows.focusSession(focusSessions[id]!, into: &$0) } }
        for row in focusBlockedApps { try s.focusBlockedApp.run { v in v.add(row.sessionID); v.add(row.app.rawValue); v.add(u) } }
        for id in attempts.keys.sorted() { try s.attempt.run { try UnlockRows.attempt(attempts[id]!, optionsJSON: optionsJSON[id]!, into: &$0) } }
        for id in grants.keys.sorted() { try s.grant.run { try UnlockRows.grant(grants[id]!, into: &$0) } }
        for app in currentGrants.keys.sorted() {
            let current = currentGrants[app]!
            try s.currentGrant.run { v in v.add(u); v.add(app.rawValue); v.add(current.grantID); v.add(current.updatedAt) }
        }
        for row in extensions { try s.grantExtension.run { try UnlockRows.grantExtension(row, into: &$0) } }
        for id in quests.keys.sorted() { try s.quest.run { try UnlockRows.quest(quests[id]!, into: &$0) } }
        for key in limits.keys.sorted(by: { ($0.day, $0.key) < ($1.day, $1.key) }) {
            try s.limits.run { UnlockRows.dailyAppLimits(limits[key]!, into: &$0) }
        }
        for day in summaries.keys.sorted() { try s.summary.run { EarnedRows.daySummary(summaries[day]!, into: &$0) } }
        if let distracting = distractingApps {
            for app in distracting.apps { try s.distractingApp.run { v in v.add(u); v.add(app.rawValue); v.add(distracting.at) } }
        }
        for row in events { try s.event.run { UnlockRows.event(row.entry, payloadJSON: row.payloadJSON, into: &$0) } }
        try s.economy.run { EarnedRows.economy(economyRow, into: &$0) }
        try s.emergency.run { EarnedRows.emergency(emergencyRow, into: &$0) }
        let settingsJSON = try ModelJSON.encode(settings.value)
        try s.settings.run { v in v.add(settingsJSON); v.add(settings.updatedAt); v.add(u) }
        try s.entitlement.run { EarnedRows.entitlement(entitlement, into: &$0) }
        try s.focusState.run { v in v.add(focusState.activeSessionID); v.add(focusState.updatedAt); v.add(u) }
    }
}
