import RulesModel

extension EventDeclaration {
    /// `quest_fail`: the app's quest failed, for a reason.
    static let questFail: EventDeclaration = {
        let app = EventField.required("app", .app)
        let reason = EventField.required("reason", .enumeration(QuestFailureReason.self))
        return EventDeclaration(
            "quest_fail", app: .earned, doc: "the quest failed: never counted", fields: [app, reason],
            make: { v in .earned(.questFail(app: v[app], reason: v[reason])) },
            values: { kind in
                guard case .earned(.questFail(let a, let r)) = kind else { return [] }
                return [app.with(a), reason.with(r)]
            })
    }()
}
