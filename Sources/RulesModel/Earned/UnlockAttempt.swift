/// An opening of Earned's Unlock Gate (`unlock_attempt`, A3).
///
/// Decisions: `grant_id` is set exactly when the outcome is GRANTED (A5.3 states one direction;
/// a grant id on a non-granted attempt would be a dangling claim); `denial_reason` is set exactly
/// when DENIED; a GRANTED attempt names its chosen option; the options snapshot is for the same
/// app and strictness as the attempt; `chosen_option_payload_json` is a JSON object.
public struct UnlockAttempt: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var attemptID: String
    public var appID: AppID
    public var timestamp: EpochMillis
    public var timezoneID: String
    public var dayID: DayID
    public var effectiveModeID: String?
    public var effectiveStrictness: Strictness
    public var availableOptions: AvailableOptions
    public var chosenOptionType: UnlockOptionType?
    public var chosenOptionPayload: JSONValue?
    public var outcome: UnlockAttemptOutcome
    public var denialReason: UnlockDenialReason?
    public var grantID: String?
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, attemptID: String, appID: AppID, timestamp: EpochMillis, timezoneID: String, dayID: DayID,
        effectiveModeID: String?, effectiveStrictness: Strictness, availableOptions: AvailableOptions,
        chosenOptionType: UnlockOptionType? = nil, chosenOptionPayload: JSONValue? = nil,
        outcome: UnlockAttemptOutcome = .pending, denialReason: UnlockDenialReason? = nil, grantID: String? = nil,
        createdAt: EpochMillis, updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.attemptID = attemptID
        self.appID = appID
        self.timestamp = timestamp
        self.timezoneID = timezoneID
        self.dayID = dayID
        self.effectiveModeID = effectiveModeID
        self.effectiveStrictness = effectiveStrictness
        self.availableOptions = availableOptions
        self.chosenOptionType = chosenOptionType
        self.chosenOptionPayload = chosenOptionPayload
        self.outcome = outcome
        self.denialReason = denialReason
        self.grantID = grantID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("UnlockAttempt")
        try check.identifier("attempt_id", attemptID)
        try check.timestamp("ts_utc_ms", timestamp)
        try check.timeZone("timezone_id", timezoneID)
        try check.optionalIdentifier("effective_mode_id", effectiveModeID)
        try availableOptions.validate()
        try check.require(
            availableOptions.appID == appID, "available_options_json.app_id", "the attempt's app_id \(appID)",
            availableOptions.appID.rawValue)
        try check.require(
            availableOptions.modeStrictness == effectiveStrictness, "available_options_json.mode_strictness",
            "the attempt's effective_strictness \(effectiveStrictness.rawValue)", availableOptions.modeStrictness.rawValue)
        if let payload = chosenOptionPayload {
            try check.require(payload.isObject, "chosen_option_payload_json", "a JSON object", "\(payload)")
            try check.require(chosenOptionType != nil, "chosen_option_type", "set when chosen_option_payload_json is set", "null")
        }
        try check.optionalIdentifier("grant_id", grantID)
        try check.require(
            (outcome == .granted) == (grantID != nil), "grant_id",
            outcome == .granted ? "set when outcome is GRANTED" : "null unless outcome is GRANTED", grantID ?? "null")
        try check.require(
            (outcome == .denied) == (denialReason != nil), "denial_reason",
            outcome == .denied ? "set when outcome is DENIED" : "null unless outcome is DENIED", denialReason?.rawValue ?? "null")
        try check.require(outcome != .granted || chosenOptionType != nil, "chosen_option_type", "set when outcome is GRANTED", "null")
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
    }
}
