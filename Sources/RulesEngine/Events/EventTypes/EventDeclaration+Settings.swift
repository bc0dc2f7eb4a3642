import RulesModel

extension EventDeclaration {
    /// `settings`: changes some of Pressure's settings (at least one).
    static let settings: EventDeclaration = {
        let deadline = EventField.optional(
            "commitment_deadline", .localTime, "HH:MM, 06:00–12:00 in 30-minute steps", doc: "`\"HH:MM\"`, 06:00–12:00 in 30-minute steps")
        let windowClose = EventField.optional(
            "checkin_window_close", .localTime, "HH:MM, 18:00–23:30 in 30-minute steps, or 23:59",
            doc: "18:00–23:30 in 30-minute steps, or 23:59")
        let timezone = EventField.optional("timezone", .string, "an IANA time zone (Europe/Paris)", doc: "IANA")
        let personality = EventField.optional("personality_mode", .enumeration(PersonalityMode.self))
        let notifications = EventField.optional("notifications_enabled", .boolean)
        let dayStartsAt = EventField.optional(
            "day_starts_at", .localTime, "when the user's habit days start",
            doc: "`\"HH:MM\"`: when the user's habit days start; default the rules' `habit.day_starts_at`")
        let fields: [any AnyEventField] = [deadline, windowClose, timezone, personality, notifications, dayStartsAt]
        let names = fields.map(\.name)
        return EventDeclaration(
            "settings", app: .pressure,
            doc: """
                changes the settings (`day_starts_at` at once, kept in the user's `engine_state`); a schedule or time-zone change \
                applies from the next day ("current day's schedule is unchanged"), except as a user's very first event
                """,
            fields: fields,
            // "a settings event changes at least one of …"
            schemaConditions: [("anyOf", .array(names.map { .object([("required", .array([.string($0)]))]) }))],
            make: { v throws(EngineError) in
                let change = SettingsChange(
                    commitmentDeadline: v[deadline], checkinWindowClose: v[windowClose], timezone: v[timezone],
                    personalityMode: v[personality], notificationsEnabled: v[notifications], dayStartsAt: v[dayStartsAt])
                guard change != SettingsChange() else {
                    throw EngineError(.invalidEvent, "a settings event changes at least one of: \(names.joined(separator: ", "))")
                }
                return .settings(change)
            },
            values: { kind in
                guard case .settings(let c) = kind else { return [] }
                return [
                    deadline.with(c.commitmentDeadline), windowClose.with(c.checkinWindowClose), timezone.with(c.timezone),
                    personality.with(c.personalityMode), notifications.with(c.notificationsEnabled), dayStartsAt.with(c.dayStartsAt),
                ]
            })
    }()
}
