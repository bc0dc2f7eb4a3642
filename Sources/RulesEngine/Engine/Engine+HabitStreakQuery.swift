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

    /// The habit tasks of `user` as stored, each with the name events give it, for a user of the
    /// recording batch in progress (nil for a user the batch has not seen), in the order of their
    /// names. (The analysis of a log counts the completions each day plans from them, as a
    /// simulation counts its persona's.)
    package func habitTasks(ofRecorded user: String) throws -> [(name: String, task: HabitTask)]? {
        guard case .recording(let batch) = mode, let recorded = batch.user(named: user) else { return nil }
        let context = recorded.context
        return try context.book.tasks.sorted { $0.key < $1.key }.compactMap { name, id in
            try (context.cache.tasks[id] ?? context.storage.task(context.userID, id: id)).map { (name, $0) }
        }
    }
}
