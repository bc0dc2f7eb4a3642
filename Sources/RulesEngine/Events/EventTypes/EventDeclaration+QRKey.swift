import RulesModel

extension EventDeclaration {
    /// `qr_key`: sets (`value`) or clears (`value` null) the QR key of QR_SCAN quests.
    static let qrKey: EventDeclaration = {
        let key = EventFieldType<String>(
            read: { value, path throws(EventFieldError) in
                guard case .string(let text) = value, !text.isEmpty, text.count <= 256 else {
                    throw .expected("the key (1–256 characters) or null", value, at: path)
                }
                return text
            }, write: { .string($0) },
            schema: .object([("type", .array([.string("string"), .string("null")])), ("minLength", .int(1)), ("maxLength", .int(256))]))
        let value = EventField.optional(
            "value", key, "the key, or null to clear it",
            doc: "the key: 1–256 characters, not white space only, without control characters; or `null`", absent: .null)
        return EventDeclaration(
            "qr_key", app: .earned,
            doc: """
                sets or clears the QR key; in STRICT and HARD mode a set key changes only `key_change_cooldown_hours_strict` (24) \
                hours after it was set
                """,
            fields: [value], listsFieldsFirst: true,
            make: { v in .earned(.qrKey(v[value])) },
            values: { kind in
                guard case .earned(.qrKey(let k)) = kind else { return [] }
                return [value.with(k)]
            })
    }()
}
