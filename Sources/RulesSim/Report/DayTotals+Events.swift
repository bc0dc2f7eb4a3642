import RulesEngine
import RulesModel

extension DayTotals {
    /// Counts one applied event of `kind` and what the engine decided on it into `days`, as
    /// `simulate` counts it and `analyze` counts a log's: the check-in results on the day they
    /// are for (`dayIndex` of it; nil: outside the days counted), and on day `d` (the event's) the
    /// reminders, shields and commitments decided, MIGA's choices, the habit tracker's
    /// completions (late ones apart), skips and freezes. (Earned's decisions: ``EarnedLedger``.)
    /// Returns the reminders sent and the unlocks denied, for the personas' responses.
    @discardableResult
    static func count(
        applied kind: EngineEvent.Kind, _ decisions: Decisions, day d: Int, into days: inout [DayTotals], dayIndex: (DayID) -> Int?
    ) -> (reminders: Int, denied: Int) {
        var reminders = 0, denied = 0
        switch kind {
        case .miga(let type, _, _):
            switch type {
            case .exitToFocus: days[d].exits += 1
            case .deepenPause: days[d].deepens += 1
            case .proceedToApp: days[d].proceeds += 1
            }
        case .habitCompletion(_, _, let forDay):
            if forDay == nil { days[d].habitDone += 1 } else { days[d].habitLate += 1 }
        case .habitSkip: days[d].habitSkips += 1
        case .habitFreeze(_, let action, _):
            if action == .use { days[d].freezesUsed += 1 } else { days[d].freezesEquipped += 1 }
        default: break
        }
        for decision in decisions.all {
            switch decision {
            case .day(let result):
                guard let index = dayIndex(result.day) else { continue }
                switch result.result {
                case .yes: days[index].yes += 1
                case .no: days[index].no += 1
                case .missed: days[index].missed += 1
                default: break
                }
            case .reminderSent:
                days[d].reminders += 1
                reminders += 1
            case .shield: days[d].shields += 1
            case .commitment: days[d].commitments += 1
            case .unlock(let unlock): if case .denied = unlock.outcome { denied += 1 }
            default: continue
            }
        }
        return (reminders, denied)
    }
}
