/// Why the engine refused an event. A refused event changes nothing.
public struct EngineError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A stable, machine-readable code (`NO_COMMITMENT`, `WINDOW_CLOSED`, …). New codes may be added.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The event is malformed (a missing or mistyped field).
        public static let invalidEvent = Code("INVALID_EVENT")
        /// The event is earlier than one already applied for this user.
        public static let outOfOrder = Code("OUT_OF_ORDER")
        /// The commitment deadline has passed: today is locked.
        public static let deadlinePassed = Code("DEADLINE_PASSED")
        /// A check-in or shield needs a commitment for the day, and there is none.
        public static let noCommitment = Code("NO_COMMITMENT")
        /// The check-in window has not opened yet (before the commitment deadline).
        public static let windowNotOpen = Code("WINDOW_NOT_OPEN")
        /// The check-in window has closed (the day is MISSED).
        public static let windowClosed = Code("WINDOW_CLOSED")
        /// The day's check-in is final and irreversible.
        public static let alreadyCheckedIn = Code("ALREADY_CHECKED_IN")
        /// The restart shield is for paid users only.
        public static let shieldNotAvailable = Code("SHIELD_NOT_AVAILABLE")
        /// No restart shield is left this month.
        public static let noShieldsLeft = Code("NO_SHIELDS_LEFT")
        /// The activation window after the NO or the miss has passed (or there is no such day).
        public static let shieldWindowPassed = Code("SHIELD_WINDOW_PASSED")
        /// A settings value is out of its range (deadline, window close, time zone, …).
        public static let invalidSettings = Code("INVALID_SETTINGS")
        /// A habit task that was not defined.
        public static let unknownTask = Code("UNKNOWN_TASK")
        /// A rule function failed (a Lua error, a budget, a wrong return value).
        public static let ruleError = Code("RULE_ERROR")
        /// A rule's decision breaks an invariant (a tier outside 0–3, a negative counter, …).
        public static let ruleViolation = Code("RULE_VIOLATION")
        /// The store refused the change (a constraint, a one-way status).
        public static let storeError = Code("STORE_ERROR")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
