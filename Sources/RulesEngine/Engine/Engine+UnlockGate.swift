import RulesModel
import RulesStore

/// Earned's unlock gate: an attempt with its options snapshot (A6.2, A4.2), the choice that grants
/// or denies it (A6.3, A6.5), and quests (A6.4).
extension Engine {
    /// Opens the gate for `app`. An app nothing blocks needs no unlock: the decision says so and
    /// nothing is written. Otherwise a previous attempt of the app still waiting expires, a quest of
    /// the app still running is cancelled, and a new attempt records the options the rules offer now.
    func openGate(
        _ app: AppID, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        guard let blocking = try blocking(app, earned, &context, at: now) else {
            decisions.set(.unlockGate(app: app, attempt: nil))
            return
        }
        if let previous = earned.attempts[app.rawValue] {
            try context.storage.closeUnlockAttempt(context.userID, attemptID: previous.id, outcome: .expired, at: now)
            earned.attempts[app.rawValue] = nil
            decisions.append(.attemptExpired(app: app.rawValue, attemptID: previous.id))
        }
        if earned.quests[app.rawValue] != nil { try endQuest(app, .cancelled, reason: nil, &earned, &context, at: now, &decisions) }
        let (snapshot, prices) = try options(app, blocking, earned, &context, at: now, quoted: nil)
        let id = earned.nextID("attempt", of: context.name)
        try context.storage.createUnlockAttempt(
            UnlockAttempt(
                userID: context.userID, attemptID: id, appID: app, timestamp: now,
                timezoneID: context.settings.timezoneIdentifier, dayID: earned.day,
                effectiveModeID: blocking.modeID, effectiveStrictness: blocking.strictness,
                availableOptions: snapshot, createdAt: now, updatedAt: now))
        earned.attempts[app.rawValue] = EarnedBook.OpenAttempt(
            id: id, expires: now + Int64(asked.questKnobs.gate.expiresAfterMinutes) * Millis.minute,
            modeID: blocking.modeID, strictness: blocking.strictness, prices: prices)
        decisions.set(.unlockGate(app: app, attempt: Decision.OpenedAttempt(attemptID: id, options: snapshot)))
    }

    /// The option chosen for the app's waiting attempt: granted, denied with the reason the rules
    /// give now (the state may have changed since the gate opened), or a quest started.
    /// Decision (A4.2: the attempt records the options "snapshot"): a CREDITS choice is charged the
    /// price the snapshot shows, computed by `price` when the gate opened, never a price computed
    /// at the choice; whether it is affordable is decided now, with the balance of now.
    func choose(
        _ choice: UnlockChoice, for app: AppID, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        guard let attempt = earned.attempts[app.rawValue] else {
            let running = earned.quests[app.rawValue] != nil
            throw EngineError(
                .noPendingAttempt,
                "no unlock attempt of \(app) waits for a choice" + (running ? " (its quest is running)" : " (send unlock_open first)"))
        }
        let (snapshot, _) = try options(
            app, Blocking(modeID: attempt.modeID, strictness: attempt.strictness), earned, &context, at: now,
            quoted: attempt.prices)
        let option = snapshot.options.first { $0.type == choice.optionType }
        var denial: (UnlockDenialReason, JSONValue)?
        var grant: UnlockGrant?
        // What the decision shows of the choice: the minutes or quest type chosen, a price paid, a quest started.
        var (chosenMinutes, chosenQuest, cost): (Int?, QuestType?, Int?)
        var started: Decision.Unlock.Outcome?
        switch (choice, option) {
        case (.credits(let minutes), .credits(_, _, let durations)?):
            guard let duration = durations.first(where: { $0.minutes == minutes }) else {
                throw EngineError(
                    .optionNotOffered,
                    "minutes: the rules price \(durations.map { String($0.minutes) }.joined(separator: ", ")) minutes (pricing.lua credit_costs, when the gate opened), found \(minutes)"
                )
            }
            chosenMinutes = minutes
            if let reason = duration.disabledReason {
                denial = (reason, .payload([("minutes", .int(minutes)), ("cost_credits", .int(duration.costCredits))]))
            } else {
                grant = try context.storage.grantCreditsUnlock(
                    CreditsUnlock(
                        userID: context.userID, attemptID: attempt.id, minutes: minutes,
                        costCredits: duration.costCredits, at: now))
                cost = duration.costCredits
            }
        case (.quest(let type), .quest(_, _, let types)?):
            guard let quest = types.first(where: { $0.questType == type }) else {
                throw EngineError(
                    .optionNotOffered,
                    "quest_type: the rules offer \(types.map(\.questType.rawValue).joined(separator: ", ")) (quests.lua enabled_types), found \(type.rawValue)"
                )
            }
            chosenQuest = type
            if let reason = quest.disabledReason {
                denial = (reason, .payload([("quest_type", .string(type.rawValue))]))
            } else {
                let id = earned.nextID("quest", of: context.name)
                let expires = now + Int64(asked.questKnobs.quest.sessionMinutes) * Millis.minute
                try context.storage.startQuest(
                    QuestSession(
                        userID: context.userID, questSessionID: id, attemptID: attempt.id, questType: type,
                        createdAt: now, expiresAt: expires, updatedAt: now))
                earned.quests[app.rawValue] = EarnedBook.OpenQuest(
                    id: id, attemptID: attempt.id, type: type, expires: expires)
                started = .questStarted(questSessionID: id, expires: expires, clock: try clock(context))
            }
        case (.emergency, .emergency(_, let reason, let delay, let minutes)?):
            if let reason {
                denial = (reason, .emptyObject)
            } else {
                grant = try context.storage.grantEmergencyUnlock(
                    EmergencyUnlock(
                        userID: context.userID, attemptID: attempt.id, delaySeconds: delay,
                        unlockMinutes: minutes, at: now))
            }
        default:
            throw EngineError(
                .optionNotOffered, "option: the rules offer no \(choice.optionType.rawValue) (quests.lua enables no quest type)")
        }
        earned.attempts[app.rawValue] = nil
        if let grant { earned.countUnlock(grant.appID) }
        let outcome: Decision.Unlock.Outcome
        if let (reason, payload) = denial {
            try context.storage.denyUnlockAttempt(
                context.userID, attemptID: attempt.id, reason: reason, at: now, option: choice.optionType, payload: payload)
            outcome = .denied(reason)
        } else if let grant {
            outcome = .granted(try granted(grant, for: attempt.id, context), costCredits: cost)
        } else {
            outcome = started!  // a quest choice neither denied nor granted started its quest
        }
        decisions.set(
            .unlock(
                Decision.Unlock(
                    app: app, attemptID: attempt.id, option: choice.optionType, minutes: chosenMinutes, questType: chosenQuest,
                    outcome: outcome)))
    }

    /// The user leaves the gate: the waiting attempt, or the running quest and its attempt, is CANCELLED.
    func cancelGate(
        _ app: AppID, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        if let open = earned.attempts[app.rawValue] {
            try context.storage.closeUnlockAttempt(context.userID, attemptID: open.id, outcome: .cancelled, at: now)
            earned.attempts[app.rawValue] = nil
            decisions.set(.unlockCancelled(app: app, attemptID: open.id))
        } else if earned.quests[app.rawValue] != nil {
            try endQuest(app, .cancelled, reason: nil, &earned, &context, at: now, &decisions)
        } else {
            throw EngineError(.noPendingAttempt, "no unlock attempt of \(app) is open")
        }
    }

    /// A6.4: the quest is done before it expires: the unlock is granted (method QUEST).
    func completeQuest(
        _ app: AppID, _ earned: inout EarnedBook, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        guard let quest = earned.quests[app.rawValue] else { throw noQuest(app) }
        let grant = try context.storage.completeQuest(
            QuestCompletion(
                userID: context.userID, questSessionID: quest.id,
                unlockMinutes: asked.questKnobs.quest.unlockMinutes, at: now))
        earned.quests[app.rawValue] = nil
        earned.countUnlock(app)
        decisions.set(
            .quest(
                Decision.Quest(
                    app: app, questSessionID: quest.id, state: .completed,
                    grant: try granted(grant, for: quest.attemptID, context))))
    }

    /// A grant as decisions show it, for the attempt `attemptID`.
    private func granted(_ grant: UnlockGrant, for attemptID: String, _ context: UserContext) throws -> Decision.Grant {
        Decision.Grant(
            grantID: grant.grantID, extended: grant.sourceAttemptID != attemptID, starts: grant.startsAt, ends: grant.endsAt,
            clock: try clock(context))
    }

    /// A quest that fails or is cancelled ends its attempt (CANCELLED); it never counts toward the
    /// daily limit or the cooldown.
    func endQuest(
        _ app: AppID, _ state: QuestSessionState, reason: QuestFailureReason?, _ earned: inout EarnedBook,
        _ context: inout UserContext, at now: EpochMillis,
        _ decisions: inout Decisions
    ) throws {
        guard let quest = earned.quests[app.rawValue] else { throw noQuest(app) }
        try context.storage.endQuest(context.userID, questSessionID: quest.id, state: state, reason: reason, at: now)
        try context.storage.closeUnlockAttempt(context.userID, attemptID: quest.attemptID, outcome: .cancelled, at: now)
        earned.quests[app.rawValue] = nil
        decisions.set(.quest(Decision.Quest(app: app, questSessionID: quest.id, state: state, reason: reason)))
    }

    private func noQuest(_ app: AppID) -> EngineError {
        EngineError(.noActiveQuest, "no quest of \(app) is running (choose QUEST_UNLOCK at the gate first)")
    }

    /// The situation `price` sees when the gate opens for `app` (its `minutes` set per length).
    private func priceContext(
        _ app: AppID, _ blocking: Blocking, _ economy: EconomyState, _ earned: EarnedBook, _ context: UserContext,
        at now: EpochMillis
    ) throws -> PriceContext {
        let local = try clock(context).civil(now)
        let counts = earned.unlocksToday ?? [:]
        let mode = blocking.modeID.flatMap { id in earned.modes.filter { $0.value == id }.keys.min() }
        var situation = PriceContext(
            minutes: 0, app: app, unlocksToday: counts.values.reduce(0, +), unlocksTodayApp: counts[app.rawValue] ?? 0,
            hour: local.minutes / 60, minute: local.minutes % 60, weekday: local.day.isoWeekday, mode: mode,
            strictness: blocking.strictness, streak: economy.streakCount, balance: economy.creditBalance)
        situation.params = rules.priceParams.defaults
        return situation
    }

    /// The rules' options for `app` now, checked against the limits the rules themselves declare,
    /// with the prices `quoted` when the gate opened, or (nil) the prices `price` gives now.
    private func options(
        _ app: AppID, _ blocking: Blocking, _ earned: EarnedBook, _ context: inout UserContext, at now: EpochMillis,
        quoted: [PricingPolicy.CreditCost]?
    ) throws -> (AvailableOptions, [PricingPolicy.CreditCost]) {
        let day = earned.day
        let storage = context.storage
        let (economy, limits, emergency) = (
            try storage.economyState(context.userID), try storage.dailyAppLimits(context.userID, day: day, appID: app),
            try storage.emergencyState(context.userID)
        )
        let qrKeySet = try earnedSettings(&context).quest.qrKeyValue != nil
        var gate = UnlockGateInput(
            generatedAt: now, modeID: blocking.modeID, strictness: blocking.strictness, appID: app,
            creditBalance: economy.creditBalance, questUnlocksToday: limits.questGrantsCount,
            minutesSinceLastQuestUnlock: limits.lastQuestGrantStartAt.map { Int((now - $0) / Millis.minute) },
            qrKeySet: qrKeySet,
            emergencyUsedToday: emergency.lastUsedDayID == day ? emergency.usedCountToday : 0,
            sameAppAsLastEmergency: emergency.lastAppIDUsed == app)
        let prices = try quoted ?? asked.prices(in: priceContext(app, blocking, economy, earned, context, at: now))
        gate.prices = prices
        let snapshot: AvailableOptions
        do {
            snapshot = try asked.unlockOptions(gate)
        } catch let error as ModelValidationError {
            throw EngineError(.ruleViolation, "the unlock options break A4.2: \(error)")
        }
        try checkOptions(snapshot, gate)
        return (snapshot, prices)
    }

    /// Every enabled option must respect HARD mode, the quest limit and cooldown, and the
    /// emergency limits of the rule set.
    private func checkOptions(_ snapshot: AvailableOptions, _ gate: UnlockGateInput) throws {
        let (quest, emergency) = (asked.questKnobs.quest, asked.questKnobs.emergency)
        for option in snapshot.options {
            switch option {
            case .quest(_, _, let types):
                guard let enabled = types.first(where: \.enabled) else { continue }
                let since = gate.minutesSinceLastQuestUnlock
                if gate.strictness == .hard || gate.questUnlocksToday >= quest.maxUnlocksPerAppPerDay
                    || since.map({ $0 < quest.cooldownMinutesPerApp }) == true
                {
                    throw EngineError(
                        .ruleViolation,
                        "quest_blocked enabled a \(enabled.questType.rawValue) quest in \(gate.strictness.rawValue) mode with \(gate.questUnlocksToday) quest unlocks today\(since.map { ", \($0) minutes after the last" } ?? "") (limit \(quest.maxUnlocksPerAppPerDay), cooldown \(quest.cooldownMinutesPerApp) minutes, never in HARD mode)"
                    )
                }
            case .emergency(true, _, _, _):
                if gate.emergencyUsedToday >= emergency.dailyLimit
                    || (emergency.blockSameAppConsecutive && gate.sameAppAsLastEmergency)
                {
                    throw EngineError(
                        .ruleViolation,
                        "emergency_blocked enabled an emergency unlock with \(gate.emergencyUsedToday) used today\(gate.sameAppAsLastEmergency ? " for the same app as the last one" : "") (limit \(emergency.dailyLimit))"
                    )
                }
            default: continue
            }
        }
    }
}

extension JSONValue {
    /// An options snapshot in A4.2's shape and key order.
    init(_ snapshot: AvailableOptions) {
        func reason(_ r: UnlockDenialReason?) -> JSONValue { r.map { .string($0.rawValue) } ?? .null }
        let options: [JSONValue] = snapshot.options.map { option in
            var fields: [(String, JSONValue)] = [
                ("type", .string(option.type.rawValue)), ("enabled", .bool(option.enabled)),
                ("disabled_reason", reason(option.disabledReason)),
            ]
            switch option {
            case .credits(_, _, let durations):
                fields.append(
                    (
                        "durations",
                        .array(
                            durations.map {
                                .object([
                                    ("minutes", .int($0.minutes)), ("cost_credits", .int($0.costCredits)), ("enabled", .bool($0.enabled)),
                                    ("disabled_reason", reason($0.disabledReason)),
                                ])
                            })
                    ))
            case .quest(_, _, let types):
                fields.append(
                    (
                        "quest_types",
                        .array(
                            types.map {
                                .object([
                                    ("quest_type", .string($0.questType.rawValue)), ("enabled", .bool($0.enabled)),
                                    ("disabled_reason", reason($0.disabledReason)),
                                ])
                            })
                    ))
            case .emergency(_, _, let delay, let minutes):
                fields += [("delay_seconds", .int(delay)), ("unlock_minutes", .int(minutes))]
            }
            return .object(fields)
        }
        self = .object([
            ("generated_ts_utc_ms", .int(Int(snapshot.generatedAt))), ("mode_id", snapshot.modeID.map { .string($0) } ?? .null),
            ("mode_strictness", .string(snapshot.modeStrictness.rawValue)), ("app_id", .string(snapshot.appID.rawValue)),
            ("options", .array(options)),
        ])
    }
}
