import RulesModel

extension EventDeclaration {
    /// `subscription`: the user's tier, with an optional end.
    static let subscription: EventDeclaration = {
        let tier = EventField.required("tier", .enumeration(SubscriptionTier.self))
        let expires = EventField.optional("expires_at", .timestamp)
        return EventDeclaration(
            "subscription", app: .pressure,
            doc: "paid users get the month's restart shield (less any used this month); at `expires_at` the user becomes FREE",
            fields: [tier, expires],
            make: { v in .subscription(tier: v[tier], expiresAt: v[expires].flatMap(Timestamp.init)) },
            values: { kind in
                guard case .subscription(let t, let e) = kind else { return [] }
                return [tier.with(t), expires.with(e?.description)]
            })
    }()
}
