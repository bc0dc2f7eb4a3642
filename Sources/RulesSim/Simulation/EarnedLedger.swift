import RulesEngine
import RulesModel

/// Reads what the engine decided about a user's Earned economy into the day totals, and follows
/// the user's credit balance from the decisions alone: credits earned by focus sessions and habit
/// completions (streak bonuses included), the price of granted credit unlocks, and the credits
/// carried over at each rollover.
struct EarnedLedger {
    /// The user's credit balance after the last event.
    private(set) var balance = 0

    /// Counts the decisions of one event applied on simulated day `d`; a rollover is counted on the
    /// day it ends (`dayIndex` of its `from_day_id`, nil outside the simulated days).
    mutating func record(_ decisions: JSONValue, day d: Int, into days: inout [DayTotals], dayIndex: (String) -> Int?) {
        guard case .object(let fields) = decisions else { return }
        var focusByItself = 0, byTheEvent = 0
        var rollovers: [JSONValue] = []
        for (key, value) in fields {
            switch key {
            case "earned_days":
                if case .array(let list) = value { rollovers = list }
            case "focus_ended":
                let credits = Self.int(value["credits_earned"]) + Self.int(value["streak_bonus"])
                // A session that ran its planned length ended as time passed (maybe before a
                // rollover in the same event); one ended early, by the event itself.
                if case .bool(true)? = value["completed"] {
                    days[d].earned.focusCompleted += 1
                    focusByItself = credits
                } else {
                    days[d].earned.focusEndedEarly += 1
                    byTheEvent += credits
                }
                days[d].earned.creditsEarned += credits
                if value["streak_qualified"] != nil { days[d].earned.qualifiedDays += 1 }
            case "earned_habit_completion":
                let credits = Self.int(value["credits_earned"]) + Self.int(value["streak_bonus"])
                days[d].earned.habitsDone += 1
                if case .bool(true)? = value["award_suspended"] { days[d].earned.habitAwardsSuspended += 1 }
                days[d].earned.creditsEarned += credits
                byTheEvent += credits
                if value["streak_qualified"] != nil { days[d].earned.qualifiedDays += 1 }
            case "unlock_gate":
                if case .bool(true)? = value["blocked"] { days[d].earned.gateOpens += 1 } else { days[d].earned.unblockedOpens += 1 }
            case "attempts_expired":
                if case .array(let list) = value { days[d].earned.attemptsExpired += list.count }
            case "unlock":
                days[d].earned.choices += 1
                switch value["outcome"] {
                case .string("GRANTED")?:
                    if case .string("CREDITS_UNLOCK")? = value["option"] {
                        let cost = Self.int(value["cost_credits"])
                        days[d].earned.unlocks[.credits] += 1
                        days[d].earned.creditsSpent += cost
                        byTheEvent -= cost
                    } else {
                        days[d].earned.unlocks[.emergency] += 1
                    }
                case .string("QUEST_STARTED")?:
                    days[d].earned.questsStarted += 1
                case .string("DENIED")?:
                    if case .string(let name)? = value["reason"], let reason = UnlockDenialReason(rawValue: name) {
                        days[d].earned.denials[reason] += 1
                    }
                default: break
                }
            case "unlock_cancelled":
                days[d].earned.gaveUp += 1
            case "quest":
                if case .string(let name)? = value["state"], let outcome = QuestOutcome(rawValue: name) {
                    days[d].earned.quests[outcome] += 1
                    if outcome == .completed { days[d].earned.unlocks[.quest] += 1 }
                }
            case "quests_expired":
                if case .array(let list) = value { days[d].earned.quests[.expired] += list.count }
            default: continue
            }
        }
        var b = balance
        for rollover in rollovers {
            let carried = Self.int(rollover["carried_credits"]), forfeited = Self.int(rollover["forfeited_credits"])
            // The rollover's balance says whether the session's credits came before it.
            if focusByItself != 0, carried + forfeited == b + focusByItself {
                b += focusByItself
                focusByItself = 0
            }
            b = carried
            if case .string(let from)? = rollover["from_day_id"], let index = dayIndex(from) {
                days[index].earned.creditsForfeited += forfeited
            }
        }
        balance = b + focusByItself + byTheEvent
    }

    private static func int(_ value: JSONValue?) -> Int {
        if case .int(let n)? = value { return n }
        return 0
    }
}
