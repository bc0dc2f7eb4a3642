import Foundation
import RulesEngine
import RulesModel
import RulesStore

/// A database of rulesrun (`simulate --db`, `replay --db`, an app's `Engine(store:)`) read as the
/// event log it implies: for each user, in the order of their ids, the events whose application
/// left its rows, in time order (docs/analyze.md, "A database as the log"). Users are read one at
/// a time (``StoredUsers``): a database of any size is read in the memory of one user.
///
/// Only events that left rows enough to make them again are made again: each kind of event that
/// leaves no row, or not enough of one, is either left out for every user (ticks but the last,
/// repeated exposures, refused events: time passes as the rows say) or, when its rows show that it
/// happened (a shield, a subscription, Earned's events…), makes the user one that is not given back
/// (``User/gaps``): `analyze` leaves it out of every arm and counts it, `rulesrun events` lists it.
package final class DatabaseLog {
    private let stored: StoredUsers
    /// The path as given, for messages.
    package var path: String { stored.path }
    /// The users read (`analyze --shard i/n`: the shard's; a user without a name counts in shard 1).
    package var shard = Shard.whole
    /// The latest instant the engine had reached for any user (the log's end).
    package let end: EpochMillis
    /// The number of users in the database.
    package let userCount: Int
    /// Events made again, of the users read (those left out included).
    package private(set) var eventCount = 0
    /// What could not be given back, counted (``EventLog/Problems``).
    package private(set) var problems = EventLog.Problems()

    /// One user as the database gives it back.
    package struct User: Sendable {
        package var name: String
        /// Its events in time order (empty when ``problem`` is set).
        package var events: [EngineEvent]
        /// The kinds of events its rows show but cannot give back, with how many (by kind).
        package var gaps: [(kind: String, count: Int)]
        /// Why its rows cannot be read as events at all (rows that contradict one another).
        package var problem: String?
        /// Its id in the database (the users come in the order of their ids).
        package var id = 0

        /// Whether its events are the whole of what it did that the rows can show.
        package var isWhole: Bool { gaps.isEmpty && problem == nil }

        /// `u3: 2 shield, 1 subscription`.
        package var gapsText: String { gaps.map { "\($0.count) \($0.kind)" }.joined(separator: ", ") }
    }

    /// Opens the database at `path` (`file`: the path to open, when it is relative to another
    /// folder than the process's) and checks it (``StoredUsers``). Throws `StoreError` naming the
    /// file and what was expected. A copy read instead of the file, if one is needed, goes to the
    /// temporary folder and is removed by ``close()`` (or at an interruption).
    package init(path: String, file: String? = nil) throws {
        let scratch = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "rulesrun-log-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite")
        cleanup = InterruptCleanup.add(Store.files(of: scratch))
        do {
            stored = try StoredUsers(path: path, file: file, scratch: scratch)
            let extent = try stored.extent()
            end = extent.end ?? .min
            userCount = extent.users
        } catch {
            InterruptCleanup.remove(cleanup)
            throw error
        }
    }

    private let cleanup: Int

    /// Closes the database.
    package func close() {
        stored.close()
        InterruptCleanup.remove(cleanup)
    }

    /// The next user of the shard, nil past the last.
    package func next() throws -> User? {
        let shard = shard
        guard let user = try stored.next(wanted: { name in name.map { shard.holds(user: $0) } ?? (shard.index == 1) }) else {
            return nil
        }
        var rebuilt = Self.events(of: user)
        rebuilt.id = Int(user.id.rawValue)
        eventCount += rebuilt.events.count
        return rebuilt
    }

    /// Whether a file begins with SQLite's header (`SQLite format 3\0`): a database rather than a
    /// log of JSON lines. False for a file that cannot be read (its reader says why).
    package static func isDatabase(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }  // a FIFO is a log
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\u{0}".utf8)
    }

    /// Where an event's kind sorts among events of the same instant: the first settings, then the
    /// exposure (an engine writes it after the decision of the event that exposed the user), the
    /// tasks before what marks them, and the tick that only passes time last.
    private static func rank(_ kind: EngineEvent.Kind) -> Int {
        switch kind {
        case .settings: 0
        case .declared: 1
        case .habitTask: 2
        case .tick: 4
        default: 3
        }
    }

    /// A completion recorded at a habit day's last millisecond (local `HH:MM:59.999`, whatever the
    /// zone's whole-minute offset) was made for a past day (`for_day`): its event came later, when,
    /// the row does not say.
    private static func isBackfilled(_ instant: EpochMillis) -> Bool { ((instant % 60_000) + 60_000) % 60_000 == 59_999 }

    /// `user`'s rows as events (see the type's description).
    static func events(of user: StoredUsers.User) -> User {
        let name = user.name ?? "user id \(user.id.rawValue)"
        func refuse(_ problem: String) -> User { User(name: name, events: [], gaps: [], problem: problem) }
        guard user.name != nil, let processedUntil = user.processedUntil, let json = user.stateJSON else {
            return refuse("no engine_state row: the engine did not write this user (no name, no time reached)")
        }
        let book: RecordedBookkeeping
        do { book = try RecordedBookkeeping(json: json) } catch { return refuse("\(error)") }
        var gaps: [String: Int] = [:]
        var made: [(event: EngineEvent, rank: Int, seq: Int)] = []
        func add(_ at: EpochMillis, _ kind: EngineEvent.Kind) {
            made.append((EngineEvent(at: Timestamp(millis: at), user: name, kind: kind), rank(kind), made.count))
        }
        let settings = user.settings
        // The subscriptions the engine kept (with the instants its rows do not keep), and when
        // they last wrote the settings: the first event, a subscription, or its expiry.
        var settingsWritten = user.createdAt
        if let subscriptions = book.subscriptions {
            for change in subscriptions {
                add(change.at, .subscription(tier: change.tier, expiresAt: change.expires.map { Timestamp(millis: $0) }))
                settingsWritten = max(settingsWritten, change.at)
            }
            if let last = subscriptions.last, last.tier == .paid, let expires = last.expires, expires <= processedUntil {
                settingsWritten = max(settingsWritten, expires)
            }
        } else if settings.subscriptionTier == .paid || settings.subscriptionExpiry != nil {
            gaps["subscription", default: 0] += 1
        }
        if book.habitDayStartsAt != nil { gaps["settings day_starts_at", default: 0] += 1 }
        if user.settingsUpdatedAt != settingsWritten,
            book.subscriptions != nil || (settings.subscriptionTier == .free && settings.subscriptionExpiry == nil)
        {
            gaps["settings changed after the user's first event", default: 0] += 1
        }
        // The first settings: the user's settings as its first event gave them.
        let defaults = UserSettings(timezoneIdentifier: "UTC")
        if book.pressure {
            add(
                user.createdAt,
                .settings(
                    SettingsChange(
                        commitmentDeadline: settings.commitmentDeadline, checkinWindowClose: settings.checkinWindowClose,
                        timezone: settings.timezoneIdentifier, personalityMode: settings.personalityMode,
                        notificationsEnabled: settings.notificationsEnabled)))
        } else if settings.timezoneIdentifier != defaults.timezoneIdentifier
            || settings.personalityMode != defaults.personalityMode
            || settings.notificationsEnabled != defaults.notificationsEnabled
        {
            add(
                user.createdAt,
                .settings(
                    SettingsChange(
                        timezone: settings.timezoneIdentifier, personalityMode: settings.personalityMode,
                        notificationsEnabled: settings.notificationsEnabled)))
        }
        // Pressure: a commitment (its time is not kept: the last instant before its deadline), a check-in.
        if !user.commitments.isEmpty {
            guard book.pressure else { return refuse("Pressure commitments, but the engine's state has no Pressure day") }
            guard let clock = try? LocalClock(timeZoneID: settings.timezoneIdentifier) else {
                return refuse("time zone \(settings.timezoneIdentifier) unknown")
            }
            let created = clock.day(of: user.createdAt)
            let first =
                user.createdAt < clock.instant(in: created, at: settings.commitmentDeadline)
                ? created : created.adding(days: 1) ?? created
            if user.commitments[0].day != first { gaps["Pressure started after the user's first event", default: 0] += 1 }
            // Shields at the instants the engine kept.
            let shielded = user.commitments.filter(\.shieldUsed).count
            if let shields = book.shields {
                guard shields.count == shielded else {
                    return refuse("\(shielded) commitments with shield_used, but \(shields.count) shields in engine_state")
                }
                for at in shields { add(at, .shield) }
            } else if shielded > 0 {
                gaps["shield", default: 0] += shielded
            }
            for commitment in user.commitments {
                if !commitment.text.isEmpty {
                    if book.tracksAppOpens { gaps["commitment (its time decides an app-open day)", default: 0] += 1 }
                    let deadline = commitment.lockedAt ?? book.deadline ?? processedUntil + 1
                    let at = min(deadline - 1, processedUntil)
                    guard clock.day(of: at) == commitment.day else {
                        return refuse("the commitment of \(commitment.day.rawValue) falls on \(clock.day(of: at).rawValue)")
                    }
                    add(at, .commitment(text: commitment.text))
                }
                if let at = commitment.checkedInAt, commitment.status == .yes || commitment.status == .no {
                    guard clock.day(of: at) == commitment.day else {
                        return refuse("the check-in of \(commitment.day.rawValue) is on \(clock.day(of: at).rawValue)")
                    }
                    add(at, .checkIn(commitment.status))
                }
            }
        }
        // The habit tracker: a task as its one definition gave it, its completions and marks.
        for task in user.tasks {
            guard let taskName = book.taskNames[task.id] else {
                return refuse("habit task \(task.id.uuidString) has no name in engine_state")
            }
            if task.updatedAt != task.createdAt { gaps["habit_task changed after it was defined", default: 0] += 1 }
            add(task.createdAt, .habitTask(definition(of: task, name: taskName)))
        }
        for completion in user.completions {
            guard let taskName = book.taskNames[completion.taskID] else {
                return refuse("a completion of habit task \(completion.taskID.uuidString), which has no name in engine_state")
            }
            if isBackfilled(completion.completedAt) {
                gaps["habit_completion for a past day (for_day)", default: 0] += 1
                continue
            }
            add(completion.completedAt, .habitCompletion(task: taskName, value: completion.value))
        }
        for mark in user.marks {
            guard let taskName = book.taskNames[mark.taskID] else {
                return refuse("a mark of habit task \(mark.taskID.uuidString), which has no name in engine_state")
            }
            switch mark.kind {
            case .skip: add(mark.createdAt, .habitSkip(task: taskName, day: mark.day))
            case .freezeUsed: add(mark.createdAt, .habitFreeze(task: taskName, action: .use, day: mark.day))
            case .freezeEquipped: add(mark.createdAt, .habitFreeze(task: taskName, action: .equip, day: mark.day))
            }
        }
        // MIGA's events of one instant in the order the engine numbered them.
        var usages: [UsageEvent] = []
        for (at, group) in Dictionary(grouping: user.usage, by: \.timestamp).sorted(by: { $0.key < $1.key }) {
            let ids = (0..<group.count).map { RecordedBookkeeping.usageID(user: name, at: at, index: $0) }
            func order(_ usage: UsageEvent) -> Int { ids.firstIndex(of: usage.id) ?? .max }
            usages += group.count == 1 ? group : group.sorted { order($0) < order($1) }
        }
        for usage in usages {
            add(usage.timestamp, .miga(usage.eventType, app: usage.targetAppName, pauseSeconds: usage.pauseDuration))
        }
        if book.earned || !user.earned.isEmpty {
            guard book.earned else { return refuse("Earned rows, but the engine's state has no Earned book") }
            let problem = earnedEvents(
                user.earned, user: name, createdAt: user.createdAt, book: book, add: { add($0, .earned($1)) },
                gap: { gaps[$0, default: 0] += 1 })
            if let problem { return refuse(problem) }
        }
        for exposure in user.exposures {
            add(exposure.exposedAt, .exposure(experiment: exposure.experiment, arm: exposure.arm, revision: exposure.revision))
        }
        made.sort { ($0.event.at.millis, $0.rank, $0.seq) < ($1.event.at.millis, $1.rank, $1.seq) }
        if let early = made.first(where: { $0.event.at.millis < user.createdAt }) {
            return refuse(
                "a \(early.event.kind.typeName) at \(early.event.at), before the user was created "
                    + "(\(Timestamp(millis: user.createdAt)))"
            )
        }
        if let late = made.first(where: { $0.event.at.millis > processedUntil }) {
            return refuse(
                "a \(late.event.kind.typeName) at \(late.event.at), after the time the engine had reached "
                    + "(\(Timestamp(millis: processedUntil)))"
            )
        }
        var events = made.map(\.event)
        // The event that created the user, when it left no row of its own, and the last one (time
        // passed up to it): ticks stand in for them.
        if events.first.map({ $0.at.millis > user.createdAt }) ?? true {
            events.insert(EngineEvent(at: Timestamp(millis: user.createdAt), user: name, kind: .tick), at: 0)
        }
        if events.last!.at.millis < processedUntil {
            events.append(EngineEvent(at: Timestamp(millis: processedUntil), user: name, kind: .tick))
        }
        return User(name: name, events: events, gaps: gaps.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The `habit_task` event that defines `task` as its row holds it: the fields its row holds
    /// that are not a new task's defaults.
    static func definition(of task: HabitTask, name: String) -> HabitTaskDefinition {
        var definition = HabitTaskDefinition(task: name)
        if task.title != String(name.prefix(HabitTask.maxTitleLength)) { definition.title = task.title }
        if task.measurementDuration != .daily { definition.measurement = task.measurementDuration }
        if task.frequencyType != .daily {
            definition.frequency = task.frequencyType
            switch task.frequencyType {
            case .timesInDays: (definition.times, definition.days) = (task.frequencyTimes, task.frequencyDays)
            case .everyNDays: definition.every = task.frequencyDays
            case .daysOfMonth: definition.daysOfMonth = task.daysOfMonth
            case .daily, .specificDays: break
            }
        }
        if task.scheduledDays.map(\.rawValue) != Array(1...7) { definition.scheduledDays = task.scheduledDays.map(\.rawValue) }
        if task.timesPerDay != 1 { definition.timesPerDay = task.timesPerDay }
        if task.goalType != .none {
            definition.goalType = task.goalType
            definition.goalValue = task.goalValue
            definition.goalUnit = task.goalUnit
        }
        if task.goalDirection != .atLeast { definition.goalDirection = task.goalDirection }
        definition.startDate = task.startDate
        if !task.params.isEmpty { definition.params = task.params }
        return definition
    }
}

extension DatabaseLog: AnalysisInput {
    /// The next users the analysis can take, up to `count`: those given back whole; the others
    /// are counted as problems (``EventLog/Problems/Kind/notRebuilt``, ``EventLog/Problems/Kind/inconsistentRows``).
    package func nextUsers(upTo count: Int) throws -> [LoggedUser] {
        var users: [LoggedUser] = []
        while users.count < count, let user = try next() {
            if let problem = user.problem {
                problems.note(.inconsistentRows, place: user.id, "\(user.name): \(problem)")
            } else if !user.gaps.isEmpty {
                problems.note(.notRebuilt, place: user.id, "\(user.name): \(user.gapsText)")
            } else {
                users.append(LoggedUser(name: user.name, events: user.events, position: user.id))
            }
        }
        return users
    }
}
