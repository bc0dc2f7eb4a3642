import RulesModel

extension Engine {
    /// Every habit task's streak of `user` at `time`, by task name (as the state's `habit_streaks`,
    /// `habit_best_streaks` and `habit_scores` show them), for a user of the recording batch in
    /// progress (a task whose stored params the rules refuse is left out, as in the state); nil for
    /// a user the batch has not seen. Reads only: no event is applied, nothing changes but what
    /// the user's context keeps of the rules' answers (``ReadCache/streaks``). (A simulation reads
    /// the best streaks and scores at the end of each day with it.)
    package func habitStreaks(ofRecorded user: String, at time: EpochMillis) throws -> [(String, HabitStreak)]? {
        guard case .recording(let batch) = mode, let recorded = batch.user(named: user) else { return nil }
        return try habitStreaks(&recorded.context, at: time).streaks
    }
}
