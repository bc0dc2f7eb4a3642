import RulesModel

extension EngineEvent {
    /// The event as a line of a replay file, which `parse` reads back as the same event:
    /// `{"at":"2026-01-05T08:30:00Z","user":"u3","type":"commitment","text":"Ship it"}`.
    public var jsonLine: String {
        JSONValue.object([("at", .string(at.description)), ("user", .string(user)), ("type", .string(kind.typeName))] + kind.jsonFields)
            .description
    }
}

extension EngineEvent.Kind {
    /// The fields of the event besides `at`, `user` and `type`, as its parser reads them.
    var jsonFields: [(String, JSONValue)] {
        switch self {
        case .tick, .shield: return []
        case .settings(let change):
            return JSONValue.present([
                ("commitment_deadline", change.commitmentDeadline.map { .string($0.text) }),
                ("checkin_window_close", change.checkinWindowClose.map { .string($0.text) }),
                ("timezone", change.timezone.map { .string($0) }),
                ("personality_mode", change.personalityMode.map { .string($0.rawValue) }),
                ("notifications_enabled", change.notificationsEnabled.map { .bool($0) }),
                ("day_starts_at", change.dayStartsAt.map { .string($0.text) }),
            ])
        case .subscription(let tier, let expires):
            return JSONValue.present([("tier", .string(tier.rawValue)), ("expires_at", expires.map { .string($0.description) })])
        case .commitment(let text): return [("text", .string(text))]
        case .checkIn(let result): return [("result", .string(result.rawValue))]
        case .habitTask(let task):
            return JSONValue.present([
                ("task", .string(task.task)), ("title", task.title.map { .string($0) }),
                ("measurement", task.measurement.map { .string($0.rawValue) }), ("frequency", task.frequency.map { .string($0.rawValue) }),
                ("times_per_day", task.timesPerDay.map { .int($0) }),
                ("scheduled_days", task.scheduledDays.map { .array($0.map { .int($0) }) }),
                ("times", task.times.map { .int($0) }), ("days", task.days.map { .int($0) }), ("every", task.every.map { .int($0) }),
                ("days_of_month", task.daysOfMonth.map { .array($0.map { .int($0) }) }),
                ("goal_type", task.goalType.map { .string($0.rawValue) }), ("goal_value", task.goalValue.map { .double($0) }),
                ("goal_unit", task.goalUnit.map { .string($0) }), ("goal_direction", task.goalDirection.map { .string($0.eventName) }),
                ("start_date", task.startDate.map { .string($0.rawValue) }),
                ("params", task.params.map { params in .object(params.sorted { $0.key < $1.key }.map { ($0.key, $0.value.json) }) }),
            ])
        case .habitCompletion(let task, let value, let forDay):
            return JSONValue.present([
                ("task", .string(task)), ("value", value.map { .double($0) }), ("for_day", forDay.map { .string($0.rawValue) }),
            ])
        case .habitSkip(let task, let day), .habitUncheck(let task, let day):
            return JSONValue.present([("task", .string(task)), ("day", day.map { .string($0.rawValue) })])
        case .habitFreeze(let task, let action, let day):
            return JSONValue.present([
                ("task", .string(task)), ("action", .string(action.rawValue)), ("day", day.map { .string($0.rawValue) }),
            ])
        case .miga(let type, let app, let pause):
            return JSONValue.present([
                ("event", .string(type.rawValue)), ("app", app.isEmpty ? nil : .string(app)),
                ("pause_seconds", pause.map { .double($0) }),
            ])
        case .earned(let event): return event.jsonFields
        }
    }
}

extension ParamValue {
    var json: JSONValue {
        switch self {
        case .integer(let value): .int(Int(value))
        case .number(let value): .double(value)
        case .boolean(let value): .bool(value)
        case .string(let value): .string(value)
        }
    }
}

extension EarnedEvent {
    var jsonFields: [(String, JSONValue)] {
        func apps(_ list: [AppID]) -> JSONValue { .array(list.map { .string($0.rawValue) }) }
        switch self {
        case .mode(let mode):
            return JSONValue.present([
                ("mode", .string(mode.mode)), ("name", mode.name.map { .string($0) }), ("priority", mode.priority.map { .int($0) }),
                ("strictness", mode.strictness.map { .string($0.rawValue) }),
                (
                    "windows",
                    mode.windows.map {
                        .array(
                            $0.map { window in
                                .object([
                                    ("days", .array(window.days.map { .int($0) })), ("start", .string(window.start.text)),
                                    ("end", .string(window.end.text)),
                                ])
                            })
                    }
                ),
                ("blocked_apps", mode.blockedApps.map(apps)), ("deleted", mode.deleted.map { .bool($0) }),
            ])
        case .modeOverride(let mode, let state, let until):
            return JSONValue.present([
                ("mode", .string(mode)), ("state", .string(state.rawValue)), ("until", until.map { .string($0.description) }),
            ])
        case .distractingApps(let list): return [("apps", apps(list))]
        case .qrKey(let value): return [("value", value.map { .string($0) } ?? .null)]
        case .habit(let habit):
            return JSONValue.present([
                ("habit", .string(habit.habit)), ("name", habit.name.map { .string($0) }),
                ("reward_credits", habit.rewardCredits.map { .int($0) }), ("active", habit.active.map { .bool($0) }),
            ])
        case .habitCompletion(let habit): return [("habit", .string(habit))]
        case .focusStart(let start):
            return JSONValue.present([
                ("minutes", .int(start.minutes)), ("label", start.label.map { .string($0) }),
                ("strict", start.strict.map { .bool($0) }), ("blocked_apps", start.blockedApps.map(apps)),
            ])
        case .focusEnd: return []
        case .unlockOpen(let app), .unlockCancel(let app), .questComplete(let app), .questCancel(let app):
            return [("app", .string(app.rawValue))]
        case .unlockChoose(let app, let choice):
            var fields: [(String, JSONValue)] = [("app", .string(app.rawValue)), ("option", .string(choice.optionType.rawValue))]
            switch choice {
            case .credits(let minutes): fields.append(("minutes", .int(minutes)))
            case .quest(let type): fields.append(("quest_type", .string(type.rawValue)))
            case .emergency: break
            }
            return fields
        case .questFail(let app, let reason): return [("app", .string(app.rawValue)), ("reason", .string(reason.rawValue))]
        }
    }
}

extension JSONValue {
    /// The fields that have a value, in order.
    static func present(_ fields: [(String, JSONValue?)]) -> [(String, JSONValue)] {
        fields.compactMap { key, value in value.map { (key, $0) } }
    }
}
