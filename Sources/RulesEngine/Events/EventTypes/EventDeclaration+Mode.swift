import RulesModel

extension EventDeclaration {
    /// `mode`: defines, changes or deletes a mode; only the fields given change.
    static let mode: EventDeclaration = {
        let mode = EventField.required("mode", .checkedName, doc: "a name")
        let name = EventField.optional("name", .string)
        let priority = EventField.optional("priority", .integer)
        let strictness = EventField.optional(
            "strictness", .enumeration(Strictness.self), "required for a new mode", doc: "required for a new mode")
        let windowList = EventFieldType.list(
            .window, schema: .object([("type", .string("array")), ("items", EventFieldType.window.schema)]))
        let windows = EventField.optional(
            "windows",
            windowList.checked { windows, _ throws(EngineError) in
                for (i, window) in windows.enumerated() {
                    guard !window.days.isEmpty, window.days.allSatisfy({ (1...7).contains($0) }),
                        Set(window.days).count == window.days.count
                    else {
                        throw EngineError(
                            .invalidEvent,
                            "windows[\(i + 1)].days: expected distinct ISO weekdays 1 (Monday)…7 (Sunday), found \(window.days)")
                    }
                }
            },
            doc: """
                `[{"days": [1, 2, 3, 4, 5], "start": "09:00", "end": "17:00"}]`, ISO weekdays; an end before the start crosses \
                midnight
                """)
        let blockedApps = EventField.optional("blocked_apps", .apps, "none: the distracting apps", doc: "none: the distracting apps")
        let deleted = EventField.optional("deleted", .boolean)
        return EventDeclaration(
            "mode", app: .earned, doc: "defines, changes or deletes a mode",
            fields: [mode, name, priority, strictness, windows, blockedApps, deleted],
            // (The order the type's fields have always been read in: of two bad fields, the same is named.)
            readOrder: [mode, name, priority, strictness, windows, deleted, blockedApps],
            make: { v in
                .earned(
                    .mode(
                        ModeDefinition(
                            mode: v[mode], name: v[name], priority: v[priority], strictness: v[strictness], windows: v[windows],
                            blockedApps: v[blockedApps], deleted: v[deleted])))
            },
            values: { kind in
                guard case .earned(.mode(let m)) = kind else { return [] }
                return [
                    mode.with(m.mode), name.with(m.name), priority.with(m.priority), strictness.with(m.strictness),
                    windows.with(m.windows), blockedApps.with(m.blockedApps), deleted.with(m.deleted),
                ]
            })
    }()
}
