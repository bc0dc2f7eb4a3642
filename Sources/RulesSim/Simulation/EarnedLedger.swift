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
    /// day it ends (`dayIndex` of its `from` day, nil outside the simulated days).
    mutating func record(_ decisions: Decisions, day d: Int, into days: inout [DayTotals], dayIndex: (DayID) -> Int?) {
        var focusByItself = 0, byTheEvent = 0
        var rollovers: [Decision.EarnedDay] = []
        for decision in decisions.all {
            switch decision {
            case .earnedDay(let rollover):
                rollovers.append(rollover)
            case .focusEnded(let focus):
                let credits = focus.creditsEarned + (focus.streak?.bonusCredits ?? 0)
                // A session that ran its planned length ended as time passed (maybe before a
                // rollover in the same event); one ended early, by the event itself.
                if focus.completed {
                    days[d].earned.focusCompleted += 1
                    focusByItself = credits
                } else {
                    days[d].earned.focusEndedEarly += 1
                    byTheEvent += credits
                }
                days[d].earned.creditsEarned += credits
                if focus.streak != nil { days[d].earned.qualifiedDays += 1 }
            case .earnedHabitCompletion(let habit):
                let credits = habit.creditsEarned + (habit.streak?.bonusCredits ?? 0)
                days[d].earned.habitsDone += 1
                if habit.awardSuspended { days[d].earned.habitAwardsSuspended += 1 }
                days[d].earned.creditsEarned += credits
                byTheEvent += credits
                if habit.streak != nil { days[d].earned.qualifiedDays += 1 }
            case .unlockGate(_, let attempt):
                if attempt != nil { days[d].earned.gateOpens += 1 } else { days[d].earned.unblockedOpens += 1 }
            case .attemptExpired:
                days[d].earned.attemptsExpired += 1
            case .unlock(let unlock):
                days[d].earned.choices += 1
                switch unlock.outcome {
                case .granted(_, let cost):
                    if unlock.option == .creditsUnlock {
                        let cost = cost ?? 0
                        days[d].earned.unlocks[.credits] += 1
                        days[d].earned.creditsSpent += cost
                        byTheEvent -= cost
                    } else {
                        days[d].earned.unlocks[.emergency] += 1
                    }
                case .questStarted:
                    days[d].earned.questsStarted += 1
                case .denied(let reason):
                    days[d].earned.denials[reason] += 1
                }
            case .unlockCancelled:
                days[d].earned.gaveUp += 1
            case .quest(let quest):
                if let outcome = QuestOutcome(rawValue: quest.state.rawValue) {
                    days[d].earned.quests[outcome] += 1
                    if outcome == .completed { days[d].earned.unlocks[.quest] += 1 }
                }
            case .questExpired:
                days[d].earned.quests[.expired] += 1
            default: continue
            }
        }
        var b = balance
        for rollover in rollovers {
            let carried = rollover.carriedCredits, forfeited = rollover.forfeitedCredits
            // The rollover's balance says whether the session's credits came before it.
            if focusByItself != 0, carried + forfeited == b + focusByItself {
                b += focusByItself
                focusByItself = 0
            }
            b = carried
            if let index = dayIndex(rollover.from) {
                days[index].earned.creditsForfeited += forfeited
                // The streak the rules carried out of the day: qualifying days in a row (freezes kept it).
                Histogram.count(rollover.streakCount, into: &days[index].earnedStreaks)
            }
        }
        balance = b + focusByItself + byTheEvent
    }
}
