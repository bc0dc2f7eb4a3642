/// Why the engine refused an event. A refused event changes nothing.
public struct EngineError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A stable, machine-readable code (`NO_COMMITMENT`, `WINDOW_CLOSED`, …). New codes may be added.
    /// Written like the codes of `StoreError` and the kinds of `LuaError`: a raw value in
    /// SCREAMING_SNAKE_CASE (these raw values are part of `replay`'s output and reports).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        package init(_ rawValue: String) { self.rawValue = rawValue }
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
        /// Earned: a mode that was not defined (or was deleted).
        public static let unknownMode = Code("UNKNOWN_MODE")
        /// Earned: a habit that was not defined.
        public static let unknownHabit = Code("UNKNOWN_HABIT")
        /// Earned: the habit is inactive.
        public static let habitInactive = Code("HABIT_INACTIVE")
        /// Earned: the habit was already completed this Earned day (A5.4).
        public static let habitAlreadyCompleted = Code("HABIT_ALREADY_COMPLETED")
        /// Earned: the QR key cannot change yet in STRICT or HARD mode.
        public static let keyChangeCooldown = Code("KEY_CHANGE_COOLDOWN")
        /// Earned: no unlock attempt of the app waits for a choice (open the gate first).
        public static let noPendingAttempt = Code("NO_PENDING_ATTEMPT")
        /// Earned: the choice is not among the gate's options (a length or quest type the rules do not offer).
        public static let optionNotOffered = Code("OPTION_NOT_OFFERED")
        /// Earned: no quest of the app is running.
        public static let noActiveQuest = Code("NO_ACTIVE_QUEST")
        /// Earned: a focus session is already running.
        public static let focusActive = Code("FOCUS_ACTIVE")
        /// Earned: no focus session is running.
        public static let noActiveFocus = Code("NO_ACTIVE_FOCUS")
        /// A rule function failed (a Lua error, a budget, a wrong return value).
        public static let ruleError = Code("RULE_ERROR")
        /// A rule's decision breaks an invariant (a tier outside 0–3, a negative counter, …).
        public static let ruleViolation = Code("RULE_VIOLATION")
        /// The store refused the change (a constraint, a one-way status).
        public static let storeError = Code("STORE_ERROR")
    }

    /// Which refusal: for programs (an app branches on it; `replay` prints it).
    public var code: Code
    /// What was wrong, naming the field or the rule, and what was expected: for people.
    public var message: String
    /// The error this one was made from, when the engine turned another error into it (a Lua error,
    /// a model or store error, GRDB's `DatabaseError` with its SQL and arguments): `message` has its
    /// description, the cause keeps the rest. Not part of equality.
    public var cause: (any Error)?

    package init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String { "\(code): \(message)" }

    public static func == (a: EngineError, b: EngineError) -> Bool { a.code == b.code && a.message == b.message }
}
