import Foundation
import RulesModel

/// What a user's `engine_state.state_json` (the engine's ``EngineState``, as the engine wrote it)
/// tells of the events that were applied, for reading a database back as events (`DatabaseLog`).
package struct RecordedBookkeeping: Sendable {
    /// The habit tasks' names by their ids (events name tasks; rows hold ids).
    package var taskNames: [UUID: String]
    /// Whether the user took part in Pressure (its daily cycle started: `state.today`).
    package var pressure: Bool
    /// The deadline of the Pressure day in progress (nil: none).
    package var deadline: EpochMillis?
    /// Whether the user took part in Earned.
    package var earned: Bool
    /// Earned's modes and habits: the names events give them, by their rows' ids.
    package var modeNames: [String: String]
    package var habitNames: [String: String]
    /// From which instant on A8's cleanup left Earned's pruned tables whole (nil: it never ran).
    package var earnedWholeFrom: EpochMillis?
    /// How many attempts, quests and focus sessions Earned numbered (their ids derive from it).
    package var earnedSerial: Int
    /// Earned's settings set again (event types): their rows keep the last value only.
    package var earnedSetAgain: [String]
    /// `settings.day_starts_at`, when one was given.
    package var habitDayStartsAt: LocalTime?
    /// Whether the rules tracked the user's app opens (`habit.track_app_opens`).
    package var tracksAppOpens: Bool
    /// The `subscription` events applied, in order (nil: a state written before the engine kept them).
    package var subscriptions: [(at: EpochMillis, tier: SubscriptionTier, expires: EpochMillis?)]?
    /// The instants of the `shield` events applied (nil: a state written before the engine kept them).
    package var shields: [EpochMillis]?

    /// Reads `json`; throws a message naming what is wrong.
    package init(json: String) throws {
        let book: EngineState
        do { book = try JSONDecoder().decode(EngineState.self, from: Data(json.utf8)) } catch {
            throw EngineError(.storeError, "engine_state.state_json: not the engine's state (\(error))")
        }
        taskNames = Dictionary(book.tasks.map { ($1, $0) }, uniquingKeysWith: min)
        pressure = book.today != nil
        deadline = book.today?.deadline
        earned = book.earned != nil
        modeNames = Dictionary((book.earned?.modes ?? [:]).map { ($1, $0) }, uniquingKeysWith: min)
        habitNames = Dictionary((book.earned?.habits ?? [:]).map { ($1, $0) }, uniquingKeysWith: min)
        earnedWholeFrom = book.earned?.cleanup?.wholeFrom
        earnedSerial = book.earned?.serial ?? 0
        earnedSetAgain = book.earned?.setAgain ?? []
        habitDayStartsAt = book.habitDayStartsAt
        tracksAppOpens = book.appOpens != nil
        subscriptions = book.subscriptions?.map { ($0.at, $0.tier, $0.expires) }
        shields = book.shields
    }

    /// The id of the Earned row of kind `kind` (`attempt`, `quest`, `focus`) numbered `serial` of
    /// the user events name `user`.
    package static func earnedID(_ kind: String, user: String, serial: Int) -> String {
        DeterministicID.text(kind, user, String(serial))
    }

    /// The id of the `index`-th MIGA usage event (from 0) the user events name `user` had at `at`.
    package static func usageID(user: String, at: EpochMillis, index: Int) -> UUID {
        DeterministicID.uuid("usage", user, String(at), String(index))
    }

    /// The id the engine gives window `index` of the mode events name `mode`, of the user events name `user`.
    package static func modeWindowID(user: String, mode: String, index: Int) -> String {
        DeterministicID.text("mode-window", user, mode, String(index))
    }
}
