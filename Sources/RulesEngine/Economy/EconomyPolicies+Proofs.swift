import LuaHost
import RulesModel

/// The economy's hard constraints, proved over every input of small finite domains.
extension PricingPolicy {
    /// `focus_credits` is proved over every session of 0…this many minutes.
    package static let proofMaxFocusMinutes = 240
    /// `carried_credits` is proved over every balance of 0…this many credits (`gen.carried_balance()`).
    package static let proofMaxCarriedBalance = 200
    /// `habit_award` is proved over every pair of these rewards and 0…`proofMaxCompletionsInWindow`
    /// completions in the window (`gen.habit_award()`).
    package static let proofHabitRewards = [0, 1, 5, 50, 100]
    package static let proofMaxCompletionsInWindow = 20

    /// The sessions `focus_credits` is proved over (`gen.focus_session()`), in order: each length
    /// 0…`proofMaxFocusMinutes` completed as planned (planned at least 1), then each ended early,
    /// one minute before its planned end.
    package static let proofFocusSessions: [FocusOutcome] =
        (0...proofMaxFocusMinutes).map { FocusOutcome(actualMinutes: $0, plannedMinutes: max($0, 1), completed: true) }
        + (0...proofMaxFocusMinutes).map { FocusOutcome(actualMinutes: $0, plannedMinutes: $0 + 1, completed: false) }

    func prove(in file: RuleFile, host: LuaHost) -> [Counterexamples] {
        var focus = Counterexamples(function: focusCredits, name: "focus_credits", file: file)
        focus.unproved =
            "sessions longer than \(Self.proofMaxFocusMinutes) minutes, and planned_minutes other than actual_minutes "
            + "(completed) or one more (ended early)"
        var previous = 0
        for session in Self.proofFocusSessions {
            let minutes = session.actualMinutes
            var call: String {
                "focus_credits(actual_minutes \(minutes)\(session.completed ? "" : ", ended early of \(session.plannedMinutes)"))"
            }
            if focus.isFinished(host) { break }
            focus.inputs += 1
            do {
                let credits = try Counterexamples.integer(host.call(focusCredits, Pooled(session), returning: LuaValue.self))
                if credits < 0 || credits > 10_000 {
                    focus.record(kind: "range", "\(call) returned \(credits), outside 0…10000")
                } else if minutes < self.focus.minMinutesToQualify && credits > 0 {
                    focus.record(
                        kind: "qualify",
                        "\(call) returned \(credits) credits for a session shorter than min_minutes_to_qualify (\(self.focus.minMinutesToQualify))"
                    )
                } else if session.completed && credits < previous {
                    focus.record(kind: "monotone", "\(call) returned \(credits), fewer than for \(minutes - 1) minutes (\(previous))")
                }
                if session.completed { previous = credits }
            } catch {
                focus.record(error, calling: call)
            }
        }
        var carried = Counterexamples(function: carriedCredits, name: "carried_credits", file: file)
        carried.unproved = "balances above \(Self.proofMaxCarriedBalance) credits"
        for balance in 0...Self.proofMaxCarriedBalance {
            var call: String { "carried_credits(\(balance))" }
            if carried.isFinished(host) { break }
            carried.inputs += 1
            do {
                let n = try Counterexamples.integer(host.call(carriedCredits, .integer(Int64(balance))).first)
                if n < 0 || n > balance || n > rolloverCap {
                    carried.record(
                        kind: "range",
                        "\(call) returned \(n): the carried credits must be between 0 and the balance, at most rollover_cap (\(rolloverCap))"
                    )
                }
            } catch {
                carried.record(error, calling: call)
            }
        }
        var award = Counterexamples(function: habitAward, name: "habit_award", file: file)
        award.unproved =
            "rewards other than 0, 1, 5, 50 and 100 credits, and more than \(Self.proofMaxCompletionsInWindow) completions in the window"
        for reward in Self.proofHabitRewards {
            for recent in 0...Self.proofMaxCompletionsInWindow {
                var call: String { "habit_award(reward_credits \(reward), completions_in_window \(recent))" }
                if award.isFinished(host) { break }
                award.inputs += 1
                do {
                    let out =
                        try host.call(
                            habitAward, ["reward_credits": .integer(Int64(reward)), "completions_in_window": .integer(Int64(recent))]
                        ).first ?? .nil
                    let decoded = try LuaDecoder().decode(HabitAward.self, from: out)
                    if decoded.credits < 0 || decoded.credits > reward {
                        award.record(kind: "range", "\(call) returned \(decoded.credits) credits, outside 0…reward_credits (\(reward))")
                    } else if decoded.suspend && decoded.credits > 0 {
                        award.record(kind: "suspend", "\(call) suspends awards yet awards \(decoded.credits) credits")
                    }
                } catch {
                    award.record(error, calling: call)
                }
            }
        }
        return [focus, carried, award, provePrice(in: file, host: host)]
    }
}

extension QuestPolicy {
    /// `quest_blocked` is proved over 0…`proofMaxQuestUnlocks` quest unlocks today and no earlier
    /// quest unlock or 0…`proofMaxMinutesSince` minutes since the last; `emergency_blocked` over
    /// 0…`proofMaxEmergencies` emergency unlocks used today.
    package static let proofMaxQuestUnlocks = 4
    package static let proofMaxMinutesSince = 30
    package static let proofMaxEmergencies = 4

    func prove(in file: RuleFile, host: LuaHost) -> [Counterexamples] {
        var quests = Counterexamples(function: questBlocked, name: "quest_blocked", file: file)
        quests.unproved =
            "more than \(Self.proofMaxQuestUnlocks) quest unlocks a day, and more than \(Self.proofMaxMinutesSince) minutes since the last"
        let reasons = Set(UnlockDenialReason.allCases.map(\.rawValue))
        outer: for strictness in Strictness.allCases {
            for type in QuestType.allCases {
                for today in 0...Self.proofMaxQuestUnlocks {
                    for since in [nil] + Array(0...Self.proofMaxMinutesSince) as [Int?] {
                        for key in [false, true] {
                            if quests.isFinished(host) { break outer }
                            quests.inputs += 1
                            var gate = LuaTable()
                            gate["strictness"] = .string(strictness.rawValue)
                            gate["quest_type"] = .string(type.rawValue)
                            gate["quest_unlocks_today"] = .integer(Int64(today))
                            gate["qr_key_set"] = .boolean(key)
                            if let since { gate["minutes_since_last_quest_unlock"] = .integer(Int64(since)) }
                            let call =
                                "quest_blocked(\(strictness.rawValue), \(type.rawValue), \(today) today, \(since.map { "\($0) min since the last" } ?? "none before"), key \(key ? "set" : "not set"))"
                            do {
                                let out = try host.call(questBlocked, .table(gate)).first ?? .nil
                                if !out.isNil && !(out.stringValue.map(reasons.contains) ?? false) {
                                    quests.record(
                                        kind: "type", "\(call) returned \(out.errorDescription), expected nil or one of \(reasons.sorted())"
                                    )
                                    continue
                                }
                                if out.isNil {
                                    if strictness == .hard {
                                        quests.record(kind: "hard", "\(call) allows a quest in HARD mode (DISALLOWED_IN_HARD_MODE)")
                                    } else if today >= quest.maxUnlocksPerAppPerDay {
                                        quests.record(
                                            kind: "limit",
                                            "\(call) allows a quest beyond max_unlocks_per_app_per_day (\(quest.maxUnlocksPerAppPerDay))")
                                    } else if let since, since < quest.cooldownMinutesPerApp {
                                        quests.record(
                                            kind: "cooldown",
                                            "\(call) allows a quest within the \(quest.cooldownMinutesPerApp)-minute cooldown")
                                    } else if type == .qrScan && quest.qrRequiresKey && !key {
                                        quests.record(kind: "qr", "\(call) allows a QR quest without a QR key (QR_KEY_NOT_SET)")
                                    }
                                }
                            } catch {
                                quests.record(error, calling: call)
                            }
                        }
                    }
                }
            }
        }
        var emergencies = Counterexamples(function: emergencyBlocked, name: "emergency_blocked", file: file)
        emergencies.unproved = "more than \(Self.proofMaxEmergencies) emergency unlocks a day"
        for used in 0...Self.proofMaxEmergencies {
            for same in [false, true] {
                if emergencies.isFinished(host) { break }
                emergencies.inputs += 1
                var call: String { "emergency_blocked(\(used) used today, \(same ? "the same app as the last one" : "another app"))" }
                do {
                    let out =
                        try host.call(
                            emergencyBlocked,
                            [
                                "emergency_used_today": .integer(Int64(used)),
                                "same_app_as_last_emergency": .boolean(same),
                            ]
                        ).first ?? .nil
                    if !out.isNil && !(out.stringValue.map(reasons.contains) ?? false) {
                        emergencies.record(
                            kind: "type", "\(call) returned \(out.errorDescription), expected nil or one of \(reasons.sorted())")
                    } else if out.isNil && used >= emergency.dailyLimit {
                        emergencies.record(kind: "limit", "\(call) allows an emergency unlock beyond daily_limit (\(emergency.dailyLimit))")
                    } else if out.isNil && same && emergency.blockSameAppConsecutive {
                        emergencies.record(kind: "same", "\(call) allows the same app twice in a row (SAME_APP_CONSECUTIVE_BLOCKED)")
                    }
                } catch {
                    emergencies.record(error, calling: call)
                }
            }
        }
        return [quests, emergencies]
    }
}

extension Counterexamples {
    /// An integer result (an integral float is accepted), or a decoding error.
    static func integer(_ value: LuaValue?) throws -> Int {
        guard let value, let n = value.integerValue, value.doubleValue == Double(n), let int = Int(exactly: n) else {
            throw LuaError(kind: .decoding, message: "returned \((value ?? .nil).errorDescription), expected an integer")
        }
        return int
    }
}
