import RulesEngine
import RulesModel

/// The options of the unlock gate as a user reads them from the gate's decision (the A4.2
/// snapshot in `unlock_gate.available_options`, typed in `Decision.OpenedAttempt`): which
/// credit lengths, quest types and emergency unlock are offered, and which of them are enabled.
struct GateOptions: Sendable {
    var durations: [(minutes: Int, enabled: Bool, price: Int)] = []
    var questTypes: [(type: QuestType, enabled: Bool)] = []
    /// nil when the rules offer no emergency unlock.
    var emergency: Bool?

    init(_ snapshot: AvailableOptions) {
        for option in snapshot.options {
            switch option {
            case .credits(_, _, let items): durations = items.map { ($0.minutes, $0.enabled, $0.costCredits) }
            case .quest(_, _, let items): questTypes = items.map { ($0.questType, $0.enabled) }
            case .emergency(let enabled, _, _, _): emergency = enabled
            }
        }
    }
}

extension EarnedPersona.Gate {
    /// What the user picks at the gate, nil when it gives up. It wants credits, a quest or an
    /// emergency unlock by the persona's weights (the rest: giving up) — the weight of credits
    /// changed by the `price` response, from the price of its preferred length the gate offers and
    /// the `held` balance (``Responses/Price``) —, and of that kind its first preferred credit
    /// length or quest type the rules offer. When that one is disabled it insists with probability
    /// `insist` (when `mayInsist`) — picking it anyway, which the engine denies — or else takes its
    /// next preferred one that is enabled, or another enabled kind by the same weights (or gives up).
    func choose(
        _ options: GateOptions, mayInsist: Bool, price response: Responses.Price? = nil, held: Int = 0, _ random: inout SimRandom
    ) -> UnlockChoice? {
        /// The preferred items the rules offer, in order of preference, with whether each is enabled.
        func offered<T: Equatable>(_ preferred: [T], _ items: [(T, Bool)]) -> [(T, Bool)] {
            preferred.compactMap { p in items.first { $0.0 == p } }
        }
        let emergencyOffer: [(UnlockChoice, Bool)] = options.emergency.map { [(.emergency, $0)] } ?? []
        // The weight of wanting credits at the price of the preferred length offered.
        var credits = self.credits, scale = 1.0
        if let response, let length = creditMinutes.lazy.compactMap({ m in options.durations.first { $0.minutes == m } }).first {
            credits *= response.factor(price: length.price, minutes: length.minutes, held: held)
            scale = credits + quest + emergency + max(0, 1 - self.credits - quest - emergency)
        }
        let kinds: [(weight: Double, items: [(UnlockChoice, Bool)])] = [
            (credits, offered(creditMinutes, options.durations.map { ($0.minutes, $0.enabled) }).map { (.credits(minutes: $0.0), $0.1) }),
            (
                quest,
                offered(questTypes.compactMap(QuestType.init(rawValue:)), options.questTypes.map { ($0.type, $0.enabled) }).map {
                    (.quest($0.0), $0.1)
                }
            ),
            (emergency, emergencyOffer),
        ]
        // (Without the response, the draw is the persona's weights alone, as it always was.)
        var u = scale == 1 ? random.unit() : random.unit() * scale
        guard
            let wanted = kinds.firstIndex(where: {
                u -= $0.weight; return u < 0
            })
        else { return nil }
        if let first = kinds[wanted].items.first {
            if first.1 || (mayInsist && random.chance(insist)) { return first.0 }
            if let next = kinds[wanted].items.first(where: \.1) { return next.0 }
        }
        // Another kind with an enabled choice, by the same weights; the weight of giving up stays.
        let open = kinds.compactMap { kind in kind.items.first(where: \.1).map { (kind.weight, $0.0) } }
        let total = open.reduce(0) { $0 + $1.0 } + max(0, 1 - self.credits - quest - emergency)
        guard total > 0 else { return nil }
        var v = random.unit() * total
        return open.first {
            v -= $0.0; return v < 0
        }?.1
    }
}
