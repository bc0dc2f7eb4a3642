import Foundation
import LuaHost
import RulesModel
import RulesStore

/// Applies events to a user's rows under a rule set.
///
/// `apply(_:)` first lets the time pass up to the event (commitment deadlines, reminders, check-in
/// windows closing, day and month starts), then applies the event. It asks the rules as pure
/// functions, checks every decision against the invariants, and commits everything in one store
/// transaction — or, when anything fails, changes nothing and throws an `EngineError`.
///
/// Where the rows are: an engine made on a store (`init(store:rules:ruleFolder:)`) applies events
/// to it, each on its own or in a `batch(_:)`, or records them with `recordingBatch(_:)`. An engine
/// made without one (`init(rules:ruleFolder:)`) applies events only in a `recordingBatch(_:)`, to
/// its users' rows in memory: having no store, it cannot write to one. The store is carried by the
/// modes that need it (`RunMode.single`, `StoreBatch`); the rest of the engine reaches a user's
/// rows only through its context's `storage` (the store or the user's `UserRecords`). The one
/// check left at run time is of the engine's use: `apply` outside a recording batch, or `batch(_:)`,
/// on an engine without a store.
///
/// An `Engine` is not `Sendable` (its rules hold a Lua state): use one per thread or task.
public final class Engine {
    /// The store the engine applies events to; nil for an engine that only records.
    package let store: Store?
    /// The rules in force.
    package private(set) var rules: any PolicyRules {
        didSet {
            retention = rules.questKnobs.retention.policy
            tracksAppOpens = rules.streakKnobs.habit.trackAppOpens
            rulesGeneration += 1
        }
    }
    /// How many times the rules were swapped (`use(_:)`): what a context's cache kept of their
    /// answers (``ReadCache/streaks``) holds only under the rules that gave it.
    private(set) var rulesGeneration = 0
    /// The rules' retention policy, read at every event (not copied out of their economy each time).
    private(set) var retention: RetentionPolicy
    /// `habit.track_app_opens` of the rules, read at every event.
    private(set) var tracksAppOpens: Bool
    /// The folder the rules were loaded from, for `reload()`.
    package let ruleFolder: String?
    /// The id a new user gets, by name; nil (or a nil answer) takes the next free id. A simulation
    /// sets it so that user ids do not depend on which worker created which user.
    package var userID: ((String) -> UserID?)?
    /// Where the rows of the users a recording batch creates record their store operations, if
    /// anywhere (``StoreJournal``: a replay into a database by user).
    package var journal: StoreJournal?

    /// The id N of a user named by one letter and the number N (`u12`, `h3`): the users a
    /// simulation or a comparison makes up, for `userID`.
    package static func numberedUserID(_ name: String) -> UserID? { Int64(name.dropFirst()).map { UserID($0) } }
    /// Whether events are applied each on its own or in a batch (of which kind), with the batch's state.
    private(set) var mode: RunMode
    /// The users' clocks.
    private let clocks = ClockCache()
    /// Outside a batch, the contexts the last events applied on their own left (``KeptContexts``):
    /// an event of a kept user starts from its context instead of reading the user again.
    var kept = KeptContexts()
    /// The last event applied on its own that committed (what ``BundledEngine`` tells the engines
    /// of the other arms, ``KeptContexts/anotherEngineCommitted(_:)``).
    private(set) var lastCommitted: KeptContexts.CommittedEvent?
    /// Users read from the store at the start of an event applied on its own: those whose context
    /// was not kept (see ``KeptContexts``).
    package private(set) var usersRead = 0

    /// Whom the engine asks: the rules, through the batch's memo inside a batch.
    var asked: any PolicyRules { mode.memo ?? rules }

    package init(store: Store, rules: any PolicyRules, ruleFolder: String? = nil) {
        self.store = store
        self.rules = rules
        retention = rules.questKnobs.retention.policy
        tracksAppOpens = rules.streakKnobs.habit.trackAppOpens
        self.ruleFolder = ruleFolder
        mode = .single(store)
    }

    /// An engine without a store, which applies events only in a `recordingBatch(_:)` (a
    /// simulation's workers): its users must be new, with their ids given by `userID`.
    package init(rules: any PolicyRules, ruleFolder: String? = nil) {
        store = nil
        self.rules = rules
        retention = rules.questKnobs.retention.policy
        tracksAppOpens = rules.streakKnobs.habit.trackAppOpens
        self.ruleFolder = ruleFolder
        mode = .recordingOnly
    }

    /// The mode between batches: each event on its own on the store, if the engine has one.
    private var restingMode: RunMode { store.map(RunMode.single) ?? .recordingOnly }

    /// An engine on the rule set in `ruleFolder` (validated first).
    public convenience init(store: Store, ruleFolder: String) throws {
        self.init(store: store, rules: try RuleSet.load(ruleFolder), ruleFolder: ruleFolder)
    }

    /// Reloads the rule folder. The new set is validated in full and swapped in at once; when it
    /// fails, the previous set stays in force and the error (every problem) is thrown.
    public func reload() throws {
        guard let ruleFolder else { return }
        use(try RuleSet.load(ruleFolder))
    }

    /// Swaps in another rule set (already validated).
    package func use(_ rules: any PolicyRules) {
        self.rules = rules
        kept.removeAll()  // their caches may hold what the old rules' settings shaped (habit periods)
        // The new rules' answers, not the old ones'.
        switch mode {
        case .single, .recordingOnly: break
        case .batch(let batch): batch.memo = RuleMemo(rules)
        case .recording(let batch): if batch.memo != nil { batch.memo = RuleMemo(rules) }
        }
    }

    /// What applying one event decided, and the user's state afterwards.
    public struct Outcome: Sendable, Equatable {
        public var decisions: JSONValue
        public var state: JSONValue
    }

    /// Applies one event; see the type's description.
    public func apply(_ event: EngineEvent) throws(EngineError) -> Outcome {
        try applying(event) { context, decisions in
            Outcome(decisions: decisions.json, state: try state(of: &context, at: event.at.millis))
        }
    }

    /// What applying one event decided, and a summary of the user afterwards (cheaper than
    /// `Outcome.state`, which reads the user's records and computes every streak).
    package struct SummarizedOutcome: Sendable {
        /// Typed: the simulation counts them without reading JSON back (`Decisions.json` prints them).
        package var decisions: Decisions
        package var user: UserSummary
    }

    /// Applies one event as `apply(_:)` does, returning a `SummarizedOutcome` instead of an `Outcome`.
    package func applySummarized(_ event: EngineEvent) throws(EngineError) -> SummarizedOutcome {
        try applying(event) { context, decisions in
            SummarizedOutcome(decisions: decisions, user: UserSummary(&context))
        }
    }

    /// Runs `event` (its times checked first) on its user's context, all of it or nothing, and
    /// returns what `result` makes of the context afterwards and the decisions.
    private func applying<T>(_ event: EngineEvent, _ result: (inout UserContext, Decisions) throws -> T) throws(EngineError) -> T {
        try event.checkTimes()
        // The event goes to the closures as an argument, not captured: a capture copied it (every
        // string and payload of its kind retained and released), twice per event.
        return try engineErrors(event) { event in
            try atomically(event) { context, event in
                let decisions = try run(event, &context)
                return try result(&context, decisions)
            }
        }
    }

    /// Runs `body` on the context of `event`'s user: all of it or nothing. In the store's
    /// transaction (a savepoint inside a batch), keeping the context for the batch's next event
    /// only when `body` succeeds; or, in a recording batch, on the batch's own context (no copy),
    /// whose records and state go back to where they were when `body` throws.
    private func atomically<T>(_ event: EngineEvent, _ body: (inout UserContext, EngineEvent) throws -> T) throws -> T {
        switch mode {
        case .recordingOnly:
            throw EngineError(.storeError, "an engine without a store applies events only in a recording batch (Engine.recordingBatch)")
        case .single(let store):
            // A refused event keeps nothing: the kept context of its user stays as the event before left it.
            let (result, context, start, stamp) = try store.transaction {
                let start = try store.changeStamp()
                var context: UserContext
                if let known = kept.context(of: event.user, current: start) {
                    context = known.reopened()
                } else {
                    usersRead += 1
                    context = try UserContext.load(event.user, store: store, now: event.at.millis, id: userID?(event.user))
                }
                let result = try body(&context, event)
                try context.save()
                return (result, context, start, try store.changeStamp())
            }
            // Kept once committed: inside a caller's transaction, which may still roll it back, not at all.
            if !store.isInTransaction {
                kept.keep(context, stamp: stamp)
                lastCommitted = KeptContexts.CommittedEvent(user: event.user, from: start, to: stamp)
            }
            return result
        case .batch(let batch):
            var context: UserContext?
            let result = try batch.store.transaction {
                var applied =
                    try batch.contexts[event.user]?.reopened()
                    ?? UserContext.load(event.user, store: batch.store, now: event.at.millis, id: userID?(event.user))
                let result = try body(&applied, event)
                context = applied
                return result
            }
            // Kept only once its event committed.
            if let context { batch.contexts[context.name] = context }
            return result
        case .recording(let batch):
            guard let user = batch.user(named: event.user) else {
                // A new user: kept only once its first event succeeded (a refused one drops it and its rows).
                let user = try newRecordedUser(event)
                let result = try body(&user.context, event)
                batch.add(user)
                return result
            }
            user.context.reopen()
            let saved = user.context.saved
            // Without a memo (a replay), the cache as it was goes back too, as an engine on a store
            // keeps the context the event before left: the state shown with a refused event asks
            // the rules nothing again (what their `print`s show). A simulation drops it instead of
            // copying it at every event.
            let cache = batch.memo == nil ? user.context.cache : nil
            let savepoint = user.records.savepoint()
            do {
                return try body(&user.context, event)
            } catch {
                user.records.rollback(to: savepoint)
                user.context.restore(saved)
                if let cache { user.context.cache = cache }
                throw error
            }
        }
    }

    /// The new user of `event` in a recording batch, its rows in memory.
    private func newRecordedUser(_ event: EngineEvent) throws -> RecordedUser {
        guard let id = userID?(event.user) else {
            throw EngineError(.storeError, "a recording batch needs the id of its new user \(event.user) (Engine.userID)")
        }
        let (context, records) = try UserContext.new(event.user, id: id, now: event.at.millis)
        if let journal { records.journal(into: journal) }
        return RecordedUser(context: context, records: records)
    }

    /// Runs `body` in one store transaction in which every event applied through `apply(_:)` or
    /// `applySummarized(_:)` is a savepoint: a refused event rolls back only itself, as on its own. Users'
    /// contexts stay in memory from one event to the next, and each user's bookkeeping
    /// (`engine_state`) is written once, at the end. When `body` or the commit throws, nothing of
    /// the batch is kept. The rules' answers are remembered for the batch (see `RuleMemo`). For a
    /// simulation, one batch per user saves most of the cost of an event on its own. Batches do not
    /// nest, and need the engine's store.
    public func batch<T>(_ body: () throws -> T) throws -> T {
        guard case .single(let store) = mode else {
            preconditionFailure(store == nil ? "Engine.batch needs an engine with a store" : "Engine.batch does not nest")
        }
        let batch = StoreBatch(store, rules)
        mode = .batch(batch)
        defer { mode = restingMode }
        return try store.transaction {
            let result = try body()
            for (_, context) in batch.contexts.sorted(by: { $0.key < $1.key }) { try context.save() }
            return result
        }
    }

    /// Runs `body` as `batch(_:)` does, except that the users' rows are kept in memory, one
    /// `UserRecords` each, instead of being written: no store is touched (the mode carries none).
    /// Returns them, in the order of their ids, for `BulkWriter` to write. Every user of the batch
    /// must be new, with its id given by `userID` (a simulation's users). A refused event rolls
    /// back only itself, as in a batch. `keepingRecords: false` returns no rows, and does not
    /// write the users' bookkeeping that nothing would read (a simulation without a database).
    /// `remembering: false` asks the rules at every call, as events applied on their own do
    /// (`RuleMemo` skips calls that a rule's `print` or `math.random` would show: a replay, whose
    /// output must not depend on how its events were run, asks every time).
    package func recordingBatch<T>(
        keepingRecords: Bool = true, remembering: Bool = true, _ body: () throws -> T
    ) throws -> (
        T, [UserRecords]
    ) {
        switch mode {
        case .single, .recordingOnly: break
        case .batch, .recording: preconditionFailure("Engine.batch does not nest")
        }
        let batch = RecordingBatch(rules, remembering: remembering)
        mode = .recording(batch)
        defer { mode = restingMode }
        let result = try body()
        guard keepingRecords else { return (result, []) }
        var records: [UserRecords] = []
        for user in batch.users.values.sorted(by: { $0.context.userID < $1.context.userID }) {
            try user.context.save()
            records.append(user.records)
        }
        return (result, records)
    }

    /// Inside a recording batch, writes the bookkeeping (`engine_state`) of the users named, as
    /// they stand, to their rows, as the batch's end does (and as each event applied on its own
    /// does): what a ``StoreJournal`` takes to a store at the end of a window of a replay.
    package func saveRecorded(users names: some Sequence<String>) throws {
        guard case .recording(let batch) = mode else {
            preconditionFailure("Engine.saveRecorded(users:) is for a recording batch")
        }
        for name in names { try batch.user(named: name)?.context.save() }
    }

    /// The user's clock, with the day boundary `dayStartsAt` (midnight: Pressure's days).
    @inline(__always)  // not called: a call copies the whole context (see nextStep)
    func clock(_ context: UserContext, dayStartsAt: LocalTime = LocalTime(hour: 0, minute: 0)) throws -> LocalClock {
        do {
            return try clocks.clock(context.settings.timezoneIdentifier, dayStartsAt: dayStartsAt)
        } catch {
            throw EngineError(.invalidSettings, "\(error)")
        }
    }

    /// Applies `event` to `context`: time passes up to it, then the event itself.
    private func run(_ event: EngineEvent, _ context: inout UserContext) throws -> Decisions {
        guard event.at.millis >= context.processedUntil else {
            let clock = try clock(context)
            throw EngineError(
                .outOfOrder,
                "this event (\(event.at)) is earlier than one already applied for \(event.user) (\(clock.describe(context.processedUntil)) local); events of a user must come in time order"
            )
        }
        var decisions = Decisions()
        if context.isNew, case .settings(let change) = event.kind {
            // A user's first settings are its initial settings, today's schedule included.
            try changeSettings(change, &context, at: event.at.millis, &decisions, initial: true)
        }
        // An event the user sends (not the passing of time, nor what the host writes) is an open of the app that day.
        if tracksAppOpens, event.kind.opensApp { try recordAppOpen(&context, at: event.at.millis) }
        // A user takes part in Pressure from its first Pressure event; from then on every day counts.
        if context.book.today == nil, event.kind.isPressure { try startFirstDay(&context) }
        try advance(&context, to: event.at.millis, &decisions)
        // A user takes part in Earned from its first Earned event.
        if context.book.earned == nil, case .earned = event.kind { try startEarned(&context, at: event.at.millis) }
        try cleanUpIfDue(&context, at: event.at.millis)
        if !(context.isNew && event.kind.isSettings) {
            try handle(event, &context, &decisions)
            // What the event itself made due (a time-zone change that ends Earned's day at once).
            try advance(&context, to: event.at.millis, &decisions)
        }
        return decisions
    }

    /// Turns what `body` throws into an `EngineError`: a rule's failure into RULE_ERROR, anything else
    /// (the model, the store, the database) into STORE_ERROR, keeping the error as the `cause`.
    private func engineErrors<T>(_ event: EngineEvent, _ body: (EngineEvent) throws -> T) throws(EngineError) -> T {
        do {
            return try body(event)
        } catch let error as EngineError {
            throw error
        } catch let error as LuaError {
            throw EngineError(.ruleError, error.description, cause: error)
        } catch let error as ModelValidationError {
            throw EngineError(.storeError, error.description, cause: error)
        } catch let error as StoreError {
            throw EngineError(.storeError, error.description, cause: error)
        } catch {
            throw EngineError(.storeError, "\(error)", cause: error)
        }
    }

    func handle(_ event: EngineEvent, _ context: inout UserContext, _ decisions: inout Decisions) throws {
        let now = event.at.millis
        switch event.kind {
        case .tick: break
        case .settings(let change): try changeSettings(change, &context, at: now, &decisions, initial: false)
        case .subscription(let tier, let expires): try changeSubscription(tier, expiresAt: expires?.millis, &context, at: now, &decisions)
        case .commitment(let text): try commit(text, &context, at: now, &decisions)
        case .checkIn(let result): try checkIn(result, &context, at: now, &decisions)
        case .shield: try activateShield(&context, at: now, &decisions)
        case .habitTask(let definition): try defineTask(definition, &context, at: now, &decisions)
        case .habitCompletion(let task, let value, let forDay):
            try completeTask(task, value: value, forDay: forDay, &context, at: now, &decisions)
        case .habitSkip(let task, let day): try markDay(task, .skip, day: day, &context, at: now, &decisions)
        case .habitFreeze(let task, let action, let day):
            try markDay(task, action == .use ? .freezeUsed : .freezeEquipped, day: day, &context, at: now, &decisions)
        case .habitUncheck(let task, let day): try uncheckTask(task, day: day, &context, at: now, &decisions)
        case .miga(let type, let app, let pause): try recordGateway(type, app: app, pauseSeconds: pause, &context, at: now, &decisions)
        case .earned(let earned): try handle(earned, &context, at: now, &decisions)
        case .declared(let event): try event.payload.apply(in: self, &context, at: now, &decisions)
        }
    }

    /// An Earned event, handled on the user's Earned book: out of the context while the handler
    /// changes it (in place), and back after, whatever the handler does.
    private func handle(_ event: EarnedEvent, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        // `run` has started Earned at the user's first Earned event, before time passed to it.
        var earned = try context.book.earned ?? startEarned(&context, at: now)
        context.book.earned = nil
        defer { context.book.earned = earned }
        switch event {
        case .mode(let definition): try defineMode(definition, &earned, &context, at: now, &decisions)
        case .modeOverride(let mode, let state, let until):
            try overrideMode(mode, state: state, until: until?.millis, earned, &context, at: now, &decisions)
        case .distractingApps(let apps):
            if try !distractingApps(&context).isEmpty { earned.noteSetAgain(.distractingApps) }
            try setDistractingApps(apps, &context, at: now, &decisions)
        case .qrKey(let value):
            if try earnedSettings(&context).quest.qrKeySetAt != nil { earned.noteSetAgain(.qrKey) }
            try setQRKey(value, &context, at: now, &decisions)
        case .habit(let definition): try defineEarnedHabit(definition, &earned, &context, at: now, &decisions)
        case .habitCompletion(let habit): try completeEarnedHabit(habit, &earned, &context, at: now, &decisions)
        case .focusStart(let start): try startFocus(start, &earned, &context, at: now, &decisions)
        case .focusEnd: try endFocus(&earned, &context, at: now, completed: false, &decisions)
        case .unlockOpen(let app): try openGate(app, &earned, &context, at: now, &decisions)
        case .unlockChoose(let app, let choice): try choose(choice, for: app, &earned, &context, at: now, &decisions)
        case .unlockCancel(let app): try cancelGate(app, &earned, &context, at: now, &decisions)
        case .questComplete(let app): try completeQuest(app, &earned, &context, at: now, &decisions)
        case .questFail(let app, let reason): try endQuest(app, .failed, reason: reason, &earned, &context, at: now, &decisions)
        case .questCancel(let app): try endQuest(app, .cancelled, reason: nil, &earned, &context, at: now, &decisions)
        }
    }
}

extension EngineEvent.Kind {
    var isSettings: Bool { if case .settings = self { true } else { false } }
    /// Whether the user sent the event: not a tick, nor a declared type that says so (`DeclaredEventPayload.opensApp`).
    var opensApp: Bool {
        switch self {
        case .tick: false
        case .declared(let event): type(of: event.payload).opensApp
        default: true
        }
    }
    var isEarned: Bool { if case .earned = self { true } else { false } }

    /// Events that start Pressure's daily cycle for a user: its commitments, check-ins, shield,
    /// subscription, and a change of its schedule. (The time zone, personality and notification
    /// settings are shared with the other apps and do not.)
    var isPressure: Bool {
        switch self {
        case .subscription, .commitment, .checkIn, .shield: true
        case .settings(let change): change.commitmentDeadline != nil || change.checkinWindowClose != nil
        case .tick, .habitTask, .habitCompletion, .habitSkip, .habitFreeze, .habitUncheck, .miga, .earned, .declared: false
        }
    }
}
