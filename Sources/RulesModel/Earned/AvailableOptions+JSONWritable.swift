// The options snapshot's JSON written directly (see `JSONWritable`), keys in sorted order, with
// the `null`s its `encode(to:)` writes.

extension AvailableOptions: JSONWritable {
    func write(to json: inout JSONWriter) throws {
        try json.object {
            $0.member("app_id", appID); $0.member("generated_ts_utc_ms", generatedAt); $0.member("mode_id", modeID)
            $0.member("mode_strictness", modeStrictness); try $0.member("options", options)
        }
    }
}

extension AvailableOptions.Option: JSONWritable {
    func write(to json: inout JSONWriter) throws {
        try json.object {
            switch self {
            case .credits(let enabled, let reason, let durations):
                $0.member("disabled_reason", reason); try $0.member("durations", durations); $0.member("enabled", enabled)
                $0.member("type", type)
            case .quest(let enabled, let reason, let questTypes):
                $0.member("disabled_reason", reason); $0.member("enabled", enabled); try $0.member("quest_types", questTypes)
                $0.member("type", type)
            case .emergency(let enabled, let reason, let delay, let minutes):
                $0.member("delay_seconds", delay); $0.member("disabled_reason", reason); $0.member("enabled", enabled)
                $0.member("type", type); $0.member("unlock_minutes", minutes)
            }
        }
    }
}

extension AvailableOptions.Duration: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("cost_credits", costCredits); $0.member("disabled_reason", disabledReason); $0.member("enabled", enabled)
            $0.member("minutes", minutes)
        }
    }
}

extension AvailableOptions.QuestChoice: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object {
            $0.member("disabled_reason", disabledReason); $0.member("enabled", enabled); $0.member("quest_type", questType)
        }
    }
}
