/// Earned's `app_info` (A3): a best-effort label for an app identity.
///
/// Decisions: `platform` must match the AppId prefix; `icon_uri` is Android only (as the DDL
/// comment says); labels are 1–100 characters, the icon URI at most 2,048.
public struct AppInfo: Hashable, Sendable, Codable, Validatable {
    public var userID: UserID
    public var appID: AppID
    public var platform: AppID.Platform
    public var displayName: String?
    public var userAlias: String?
    public var iconURI: String?
    public var createdAt: EpochMillis
    public var updatedAt: EpochMillis

    public init(
        userID: UserID, appID: AppID, displayName: String? = nil, userAlias: String? = nil, iconURI: String? = nil,
        createdAt: EpochMillis, updatedAt: EpochMillis
    ) {
        self.userID = userID
        self.appID = appID
        self.platform = appID.platform
        self.displayName = displayName
        self.userAlias = userAlias
        self.iconURI = iconURI
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func validate() throws {
        let check = FieldCheck("AppInfo")
        try check.require(platform == appID.platform, "platform", "\(appID.platform.rawValue) for app_id \(appID)", platform.rawValue)
        try check.optionalText("display_name", displayName, max: 100)
        try check.optionalText("user_alias", userAlias, max: 100)
        try check.optionalText("icon_uri", iconURI, max: 2048)
        try check.require(iconURI == nil || platform == .android, "icon_uri", "null for iOS apps", iconURI ?? "")
        try check.timestamp("created_ts_utc_ms", createdAt)
        try check.notBefore("updated_ts_utc_ms", updatedAt, "created_ts_utc_ms", createdAt)
    }
}
