import RulesEngine
import RulesModel

/// The Earned unlock gate's openings of one user's log, as its replay (``LogUserTally``) decides
/// them: each opening (an `unlock_gate` decision that started an attempt) with the options the
/// rules offered, whether it followed a denial at the same app's gate (a retry), the balance the
/// user held then (``EarnedLedger``, after the opening's own decisions, as the simulator reads it)
/// and what the user did next at that app's gate: an `unlock_choose` (its kind) or an
/// `unlock_cancel` (it gave up) — nil when neither came before the app's next opening or the
/// log's end.
struct GateOpenings: Sendable {
    /// What the user did at the gate.
    enum Kind: Int, CaseIterable, Sendable {
        case gaveUp, credits, quest, emergency
    }

    struct Opening: Sendable {
        var options: GateOptions
        var retry: Bool
        var held: Int
        var chosen: Kind?
        /// The user's day it opened on (from its first).
        var day = 0
    }

    var openings: [Opening] = []
    /// Per app, its opening waiting for a choice, and whether its last choice was denied.
    private var waiting: [AppID: Int] = [:]
    private var denied: Set<AppID> = []

    /// Notes an event the engine applied, its decisions and the balance after them.
    mutating func note(_ kind: EngineEvent.Kind, _ decisions: Decisions, held: Int, day: Int) {
        guard case .earned(let event) = kind else { return }
        switch event {
        case .unlockChoose(let app, let choice):
            if let i = waiting.removeValue(forKey: app) {
                switch choice {
                case .credits: openings[i].chosen = .credits
                case .quest: openings[i].chosen = .quest
                case .emergency: openings[i].chosen = .emergency
                }
            }
        case .unlockCancel(let app):
            if let i = waiting.removeValue(forKey: app) { openings[i].chosen = .gaveUp }
        default: break
        }
        for decision in decisions.all {
            switch decision {
            case .unlockGate(let app, let attempt?):
                waiting[app] = openings.count
                openings.append(
                    Opening(options: GateOptions(attempt.options), retry: denied.contains(app), held: held, chosen: nil, day: day))
                denied.remove(app)
            case .unlock(let unlock):
                if case .denied = unlock.outcome { denied.insert(unlock.app) } else { denied.remove(unlock.app) }
            default: continue
            }
        }
    }
}
