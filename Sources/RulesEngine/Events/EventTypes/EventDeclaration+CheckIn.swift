import RulesModel

extension EventDeclaration {
    /// `check_in`: YES or NO, while the check-in window is open.
    static let checkIn: EventDeclaration = {
        var answer = EventFieldType<String>.string.schema(.object([("enum", .array([.string("YES"), .string("NO")]))]))
        answer.values = "`YES`, `NO`"
        let result = EventField.required(
            "result",
            answer.checked { result, field throws(EngineError) in
                guard result == "YES" || result == "NO" else {
                    throw EngineError(
                        .invalidEvent, "\(field): expected \"YES\" or \"NO\" (a MISSED day is decided by the clock), found \"\(result)\"")
                }
            })
        return EventDeclaration(
            "check_in", app: .pressure,
            doc: "today's check-in, while the window is open (deadline ≤ at < close); final; cancels the remaining reminders",
            fields: [result],
            make: { v in .checkIn(v[result] == "YES" ? .yes : .no) },
            values: { kind in
                guard case .checkIn(let status) = kind else { return [] }
                return [result.with(status.rawValue)]
            })
    }()
}
