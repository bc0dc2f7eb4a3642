import Foundation
import RulesModel

/// What a user's `engine_state.state_json` (the engine's ``EngineState``, as the engine wrote it)
/// tells of the events that were applied, for reading a database back as events (`DatabaseLog`).
package struct RecordedBookkeeping: Sendable, Equatable {
    /// The habit tasks' names by their ids (events name tasks; rows hold ids).
    package var taskNames: [UUID: String]
    /// Whether the user took part in Pressure (its daily cycle started: `state.today`).
    package var pressure: Bool
    /// The deadline of the Pressure day in progress (nil: none).
    package var deadline: EpochMillis?
    /// Whether the user took part in Earned.
    package var earned: Bool
    /// `settings.day_starts_at`, when one was given.
    package var habitDayStartsAt: LocalTime?
    /// Whether the rules tracked the user's app opens (`habit.track_app_opens`).
    package var tracksAppOpens: Bool

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
        habitDayStartsAt = book.habitDayStartsAt
        tracksAppOpens = book.appOpens != nil
    }
}
