/// An extension of a current grant (`unlock_grant_extension`, A3).
public struct UnlockGrantExtension: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var extensionID: String
    public var grantID: String
    public var timestamp: EpochMillis
    public var addedMinutes: Int
    public var newEndsAt: EpochMillis
    public var method: UnlockGrantMethod
    public var metadata: JSONValue

    public init(
        userID: UserID, extensionID: String, grantID: String, timestamp: EpochMillis, addedMinutes: Int,
        newEndsAt: EpochMillis, method: UnlockGrantMethod, metadata: JSONValue = .emptyObject
    ) {
        self.userID = userID
        self.extensionID = extensionID
        self.grantID = grantID
        self.timestamp = timestamp
        self.addedMinutes = addedMinutes
        self.newEndsAt = newEndsAt
        self.method = method
        self.metadata = metadata
    }

    public func validate() throws {
        let check = FieldCheck("UnlockGrantExtension")
        try check.identifier("extension_id", extensionID)
        try check.identifier("grant_id", grantID)
        try check.timestamp("ts_utc_ms", timestamp)
        try check.range("added_minutes", addedMinutes, 1...1440)
        try check.timestamp("new_ends_ts_utc_ms", newEndsAt)
        try check.require(metadata.isObject, "metadata_json", "a JSON object", "\(metadata)")
    }
}
