import RulesEngine
import RulesModel

/// The options of the unlock gate as a user reads them from the gate's decision (the A4.2
/// snapshot in `unlock_gate.available_options`): which credit lengths, quest types and emergency
/// unlock are offered, and which of them are enabled.
struct GateOptions {
    var durations: [(minutes: Int, enabled: Bool)] = []
    var questTypes: [(type: QuestType, enabled: Bool)] = []
    /// nil when the rules offer no emergency unlock.
    var emergency: Bool?

    init(_ snapshot: JSONOut?) {
        guard case .array(let options)? = snapshot?["options"] else { return }
        for option in options {
            switch option["type"] {
            case .string("CREDITS_UNLOCK")?:
                guard case .array(let items)? = option["durations"] else { continue }
                durations = items.compactMap { item in
                    guard case .int(let minutes)? = item["minutes"], case .bool(let enabled)? = item["enabled"] else { return nil }
                    return (minutes, enabled)
                }
            case .string("QUEST_UNLOCK")?:
                guard case .array(let items)? = option["quest_types"] else { continue }
                questTypes = items.compactMap { item in
                    guard case .string(let name)? = item["quest_type"], let type = QuestType(rawValue: name),
                          case .bool(let enabled)? = item["enabled"] else { return nil }
                    return (type, enabled)
                }
            case .string("EMERGENCY_UNLOCK")?:
                if case .bool(let enabled)? = option["enabled"] { emergency = enabled }
            default: continue
            }
        }
    }
}

extension EarnedPersona.Gate {
    /// What the user picks at the gate, nil when it gives up. It wants credits, a quest or an
    /// emergency unlock by the persona's weights (the rest: giving up); the credit length and the
    /// quest type are its first preferred ones that are enabled. When what it wants is disabled,
    /// it insists with probability `insist` (when `mayInsist`) — taking its first preferred choice
    /// anyway, which the engine denies — or else picks among the enabled kinds by the same weights.
    func choose(_ options: GateOptions, mayInsist: Bool, _ random: inout SimRandom) -> UnlockChoice? {
        func pick<T: Equatable>(_ preferred: [T], _ offered: [(T, Bool)]) -> (enabled: T?, first: T?) {
            let known = preferred.filter { p in offered.contains { $0.0 == p } }
            return (known.first { p in offered.contains { $0.0 == p && $0.1 } }, known.first)
        }
        let credits = pick(creditMinutes, options.durations.map { ($0.minutes, $0.enabled) })
        let quests = pick(questTypes.compactMap(QuestType.init(rawValue:)), options.questTypes.map { ($0.type, $0.enabled) })
        // (weight, the enabled choice, the preferred choice even if disabled) per kind.
        let kinds: [(Double, UnlockChoice?, UnlockChoice?)] = [
            (self.credits, credits.enabled.map { .credits(minutes: $0) }, credits.first.map { .credits(minutes: $0) }),
            (quest, quests.enabled.map { .quest($0) }, quests.first.map { .quest($0) }),
            (emergency, options.emergency == true ? .emergency : nil, options.emergency == nil ? nil : .emergency),
        ]
        var u = random.unit()
        guard let wanted = kinds.firstIndex(where: { u -= $0.0; return u < 0 }) else { return nil }
        if let choice = kinds[wanted].1 { return choice }
        if mayInsist, let choice = kinds[wanted].2, random.chance(insist) { return choice }
        // Another enabled kind, by the same weights; the weight of giving up stays.
        let open = kinds.filter { $0.1 != nil }
        let total = open.reduce(0) { $0 + $1.0 } + max(0, 1 - self.credits - quest - emergency)
        guard total > 0 else { return nil }
        var v = random.unit() * total
        return open.first { v -= $0.0; return v < 0 }?.1
    }
}
