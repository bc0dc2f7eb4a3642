import RulesModel
import RulesStore

/// Earned's modes, apps and QR key, and what blocks an app at an instant.
extension Engine {
    /// A mode with its windows and blocked apps, as the engine reads them.
    struct ModeEntry {
        var mode: Mode
        /// The mode's windows as `effective_mode` sees them (made once, when the modes are read).
        var windows: [ModeCandidate.Window]
        var blocked: [AppID]
    }

    /// Who blocks an app now: the mode in force (if it blocks the app) and the strictness that applies.
    struct Blocking {
        var modeID: String?
        var strictness: Strictness
    }

    func defineMode(
        _ definition: ModeDefinition, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        let id =
            earned.modes[definition.mode]
            ?? DeterministicID.text("mode", context.name, definition.mode)
        let existing = try context.storage.mode(context.userID, id: id)
        if existing == nil, definition.deleted == true { throw EngineError(.unknownMode, unknownModeMessage(definition.mode, earned)) }
        guard existing != nil || definition.strictness != nil else {
            throw EngineError(.invalidEvent, "strictness: required for a new mode (GENTLE, STRICT or HARD)")
        }
        var mode =
            existing
            ?? Mode(
                userID: context.userID, modeID: id, name: definition.mode, strictness: definition.strictness!,
                createdAt: now, updatedAt: now)
        if let name = definition.name { mode.name = name }
        if let priority = definition.priority { mode.priority = priority }
        if let strictness = definition.strictness { mode.strictness = strictness }
        mode.deletedAt = definition.deleted == true ? now : nil
        mode.updatedAt = now
        let windows =
            try definition.windows.map { list in
                list.enumerated().map { i, window in
                    ModeWindow(
                        userID: context.userID,
                        windowID: RecordedBookkeeping.modeWindowID(user: context.name, mode: definition.mode, index: i),
                        modeID: id, daysOfWeekMask: window.days.reduce(0) { $0 | 1 << ($1 - 1) }, startLocal: window.start,
                        endLocal: window.end, createdAt: now, updatedAt: now)
                }
            } ?? context.storage.modeWindows(context.userID, modeID: id)
        let blocked = try definition.blockedApps ?? context.storage.blockedApps(context.userID, modeID: id)
        do {
            try mode.validate()
            for window in windows { try window.validate() }
        } catch {
            throw EngineError(.invalidEvent, error, fields: ["name": definition.name == nil ? "mode" : "name"])
        }
        try context.storage.saveMode(mode, windows: windows, blockedApps: blocked)
        earned.modes[definition.mode] = id
        context.cache.modes = nil
        decisions.set(
            .other(
                key: "mode",
                .object([
                    ("mode", .string(definition.mode)), ("created", .bool(existing == nil)),
                    ("deleted", .bool(mode.deletedAt != nil)), ("priority", .int(mode.priority)),
                    ("strictness", .string(mode.strictness.rawValue)), ("windows", .int(windows.count)),
                    ("blocked_apps", .array(blocked.map { .string($0.rawValue) })),
                ])))
    }

    func overrideMode(
        _ name: String, state: ManualOverrideState, until: EpochMillis?, _ earned: EarnedBook, _ context: inout UserContext,
        at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        guard let id = earned.modes[name], var mode = try context.storage.mode(context.userID, id: id), mode.deletedAt == nil
        else {
            throw EngineError(.unknownMode, unknownModeMessage(name, earned))
        }
        if let until, until <= now {
            throw EngineError(
                .invalidEvent,
                "until: expected a time after the event's (\(try clock(context).describe(now)) local), found \(try clock(context).describe(until)) local"
            )
        }
        if state == .auto, until != nil { throw EngineError(.invalidEvent, "until: only for FORCED_ON or FORCED_OFF") }
        mode.manualState = state
        mode.manualEffectiveAt = state == .auto ? nil : now
        mode.manualExpiresAt = state == .auto ? nil : until
        mode.updatedAt = now
        let (windows, blocked) = (
            try context.storage.modeWindows(context.userID, modeID: id), try context.storage.blockedApps(context.userID, modeID: id)
        )
        try context.storage.saveMode(mode, windows: windows, blockedApps: blocked)
        context.cache.modes = nil
        var fields: [(String, JSONValue)] = [("mode", .string(name)), ("state", .string(state.rawValue))]
        if let until { fields.append(("until", .string(try clock(context).describe(until)))) }
        decisions.set(.other(key: "mode_override", .object(fields)))
    }

    func setDistractingApps(_ apps: [AppID], _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        try context.storage.setDistractingApps(context.userID, apps, now: now)
        context.cache.distractingApps = Set(apps).sorted()
        decisions.set(.other(key: "distracting_apps", .array(Set(apps).sorted().map { .string($0.rawValue) })))
    }

    /// Sets or clears the QR key. In STRICT and HARD mode an existing key can change only
    /// `quest.key_change_cooldown_hours_strict` hours after it was set (A4.1).
    func setQRKey(_ value: String?, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        var settings = try earnedSettings(&context)
        let previous = settings.quest
        settings.quest.qrKeyValue = value
        settings.quest.qrKeySetAt = value == nil ? nil : now
        // The key's text rules (not white space only, no control characters) in the event's words,
        // before what the mode allows.
        do { try settings.validate() } catch let error as ModelValidationError where error.field == "quest.qr_key_value" {
            throw EngineError(.invalidEvent, error, fields: ["quest.qr_key_value": "value"])
        }
        if let setAt = previous.qrKeySetAt, previous.qrKeyValue != value {
            let hours = asked.questKnobs.quest.keyChangeCooldownHoursStrict
            let strictness = try effectiveMode(&context, at: now)?.mode.strictness ?? .gentle
            if strictness != .gentle, now - setAt < Int64(hours) * Millis.hour {
                throw EngineError(
                    .keyChangeCooldown,
                    "the QR key was set \(try clock(context).describe(setAt)); in \(strictness.rawValue) mode it can change \(hours) hours after that (quests.lua key_change_cooldown_hours_strict)"
                )
            }
        }
        try context.storage.saveEarnedSettings(context.userID, settings, now: now)
        context.cache.earnedSettings = settings
        decisions.set(.other(key: "qr_key", .object([("set", .bool(value != nil))])))
    }

    /// What blocks `app` at `now` (the mode in force, the focus session), nil when nothing does.
    /// An entry with no blocked apps blocks the "Distracting Apps"; the strictest blocker applies.
    func blocking(_ app: AppID, _ earned: EarnedBook, _ context: inout UserContext, at now: EpochMillis) throws -> Blocking? {
        var found: [Blocking] = []
        if let entry = try effectiveMode(&context, at: now) {
            let list = entry.blocked.isEmpty ? try distractingApps(&context) : entry.blocked
            if list.contains(app) { found.append(Blocking(modeID: entry.mode.modeID, strictness: entry.mode.strictness)) }
        }
        if let focus = earned.focus {
            let list = focus.blockedApps.isEmpty ? try distractingApps(&context) : focus.blockedApps
            if list.contains(app) { found.append(Blocking(modeID: nil, strictness: focus.strict ? .strict : .gentle)) }
        }
        guard var best = found.first else { return nil }
        for other in found.dropFirst() where other.strictness.rank > best.strictness.rank {
            best = Blocking(modeID: other.modeID ?? best.modeID, strictness: other.strictness)
        }
        return best
    }

    /// The mode in force at `now`, as modes.lua's `effective_mode` chooses it.
    func effectiveMode(_ context: inout UserContext, at now: EpochMillis) throws -> ModeEntry? {
        let modes = try earnedModes(&context)
        guard !modes.isEmpty else { return nil }
        let local = try clock(context).civil(now)
        // The candidates are kept with the modes: only whether each override is in force moves with
        // `now`, and it is changed in place, so that the rule's kept list most often finds the
        // same array as the previous gate's (one comparison, no new array).
        var candidates = context.cache.modeCandidates ?? []
        context.cache.modeCandidates = nil
        if candidates.count != modes.count {
            candidates = modes.map { entry in
                ModeCandidate(
                    priority: entry.mode.priority, strictness: entry.mode.strictness, manualState: entry.mode.manualState,
                    overrideInForce: false, windows: entry.windows)
            }
        }
        for i in modes.indices {
            let mode = modes[i].mode
            let inForce =
                mode.manualState != .auto && (mode.manualEffectiveAt ?? 0) <= now && (mode.manualExpiresAt.map { now < $0 } ?? true)
            if candidates[i].overrideInForce != inForce { candidates[i].overrideInForce = inForce }
        }
        context.cache.modeCandidates = candidates
        guard let index = try asked.effectiveMode(candidates, at: LocalMoment(weekday: local.day.isoWeekday, minutes: local.minutes)) else {
            return nil
        }
        guard modes.indices.contains(index) else {
            throw EngineError(.ruleViolation, "effective_mode returned the index \(index + 1) of \(modes.count) modes")
        }
        let chosen = candidates[index]
        if chosen.overrideInForce && chosen.manualState == .forcedOff {
            throw EngineError(.ruleViolation, "effective_mode chose the mode \"\(modes[index].mode.name)\", which is FORCED_OFF")
        }
        return modes[index]
    }

    private func earnedModes(_ context: inout UserContext) throws -> [ModeEntry] {
        if let known = context.cache.modes { return known }
        let storage = context.storage
        let modes = try storage.modes(context.userID).map {
            ModeEntry(
                mode: $0,
                windows: try storage.modeWindows(context.userID, modeID: $0.modeID).map {
                    ModeCandidate.Window(daysMask: $0.daysOfWeekMask, startMinutes: $0.startLocal.minutes, endMinutes: $0.endLocal.minutes)
                },
                blocked: try storage.blockedApps(context.userID, modeID: $0.modeID))
        }
        context.cache.modes = modes
        return modes
    }

    /// Earned's settings (A4.1) of the user, from the context's cache or the store.
    func earnedSettings(_ context: inout UserContext) throws -> EarnedSettings {
        if let known = context.cache.earnedSettings { return known }
        let settings = try context.storage.earnedSettings(context.userID)
        context.cache.earnedSettings = settings
        return settings
    }

    func distractingApps(_ context: inout UserContext) throws -> [AppID] {
        if let known = context.cache.distractingApps { return known }
        let apps = try context.storage.distractingApps(context.userID)
        context.cache.distractingApps = apps
        return apps
    }

    private func unknownModeMessage(_ name: String, _ earned: EarnedBook) -> String {
        Engine.unknown("mode", name, known: earned.modes.keys.sorted(), definedBy: "a mode")
    }
}
