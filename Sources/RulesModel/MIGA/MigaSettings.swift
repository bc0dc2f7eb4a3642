/// MIGA's preferences (miga-data-model.md, "UserDefaults Keys"), one row per user.
///
/// Decisions: `selectedInterestTags` holds at most 32 distinct tags of 1–50 characters each;
/// the gateway timer is 15–45 seconds (the seed's range) in any step.
public struct MigaSettings: Hashable, Sendable, Codable, Validatable {
    public static let timerRange: ClosedRange<Double> = 15...45

    public var frePhase: FREPhase
    public var hasCompletedOnboarding: Bool
    /// Seconds, 15–45, default 30.
    public var gatewayTimerDuration: Double
    /// 1–10, default 5.
    public var determinationLevel: Int
    public var selectedInterestTags: [String]

    public init(
        frePhase: FREPhase = .notStarted, hasCompletedOnboarding: Bool = false,
        gatewayTimerDuration: Double = 30, determinationLevel: Int = 5, selectedInterestTags: [String] = []
    ) {
        self.frePhase = frePhase
        self.hasCompletedOnboarding = hasCompletedOnboarding
        self.gatewayTimerDuration = gatewayTimerDuration
        self.determinationLevel = determinationLevel
        self.selectedInterestTags = selectedInterestTags
    }

    public static let defaults = MigaSettings()

    public func validate() throws {
        let check = FieldCheck("MigaSettings")
        try check.finite("gatewayTimerDuration", gatewayTimerDuration)
        try check.range("gatewayTimerDuration", gatewayTimerDuration, MigaSettings.timerRange)
        try check.range("determinationLevel", determinationLevel, 1...10)
        try check.require(selectedInterestTags.count <= 32, "selectedInterestTags", "at most 32 tags", "\(selectedInterestTags.count)")
        for (index, tag) in selectedInterestTags.enumerated() {
            try check.text("selectedInterestTags[\(index + 1)]", tag, max: 50)
        }
        try check.require(
            Set(selectedInterestTags).count == selectedInterestTags.count, "selectedInterestTags",
            "no repeated tag", "\(selectedInterestTags)")
    }
}
