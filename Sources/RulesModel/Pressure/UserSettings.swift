/// Pressure's user settings (pressure-data-model.md, "User Settings"), one row per user.
///
/// Decisions on the seed:
/// - `commitment_deadline` is 06:00–12:00 in 30-minute steps.
/// - `checkin_window_close` is "18:00 – 23:59 (30-min increments)", which contradict each other
///   at the top: the allowed values are 18:00, 18:30, …, 23:30 and 23:59.
/// - `timezone_identifier` defaults to "device default"; a model without a device uses `UTC`
///   unless told otherwise. It is checked by shape (IANA name), not against a tz database.
/// - `subscription_expiry` is only meaningful for PAID; it may be set or nil for either tier.
public struct UserSettings: Hashable, Sendable, Codable, Validatable {
    public static let deadlineRange = LocalTime(hour: 6, minute: 0)...LocalTime(hour: 12, minute: 0)
    public static let windowCloseRange = LocalTime(hour: 18, minute: 0)...LocalTime(hour: 23, minute: 59)

    public var personalityMode: PersonalityMode
    public var commitmentDeadline: LocalTime
    public var checkinWindowClose: LocalTime
    public var timezoneIdentifier: String
    public var notificationsEnabled: Bool
    public var onboardingCompleted: Bool
    public var subscriptionTier: SubscriptionTier
    public var subscriptionExpiry: EpochMillis?

    public init(
        personalityMode: PersonalityMode = .professional,
        commitmentDeadline: LocalTime = LocalTime(hour: 9, minute: 0),
        checkinWindowClose: LocalTime = LocalTime(hour: 22, minute: 0),
        timezoneIdentifier: String = "UTC", notificationsEnabled: Bool = false,
        onboardingCompleted: Bool = false, subscriptionTier: SubscriptionTier = .free,
        subscriptionExpiry: EpochMillis? = nil
    ) {
        self.personalityMode = personalityMode
        self.commitmentDeadline = commitmentDeadline
        self.checkinWindowClose = checkinWindowClose
        self.timezoneIdentifier = timezoneIdentifier
        self.notificationsEnabled = notificationsEnabled
        self.onboardingCompleted = onboardingCompleted
        self.subscriptionTier = subscriptionTier
        self.subscriptionExpiry = subscriptionExpiry
    }

    /// The documented defaults.
    public static let defaults = UserSettings()

    public func validate() throws {
        let check = FieldCheck("UserSettings")
        try check.require(
            UserSettings.deadlineRange.contains(commitmentDeadline) && commitmentDeadline.minutes % 30 == 0,
            "commitment_deadline", "06:00–12:00 in 30-minute steps", commitmentDeadline.text)
        let close = checkinWindowClose
        try check.require(
            UserSettings.windowCloseRange.contains(close) && (close.minutes % 30 == 0 || close.minutes == 1439),
            "checkin_window_close", "18:00–23:30 in 30-minute steps, or 23:59", close.text)
        try check.timeZone("timezone_identifier", timezoneIdentifier)
        try check.timestamp("subscription_expiry", subscriptionExpiry)
    }
}
