import RulesModel

extension Replay {
    /// A replay whose users' rows are kept in memory, each in its own `UserRecords`, instead of in
    /// an SQLite store: what ``ParallelReplay`` does by user, for a replay that reads no database
    /// and writes none (a scenario of `rulesrun test`, a property's histories). Its events are
    /// applied only inside ``inMemory(_:)``; the rules are asked at every call, as by an event
    /// applied on its own, so the outputs are those of a replay on a store, line for line. The
    /// users get the ids 1, 2, … in the order of their first event (an id is not in the output).
    package static func inMemory(rules: any PolicyRules, ruleFolder: String? = nil, draws: RuleDraws? = nil) -> Replay {
        let engine = Engine(rules: rules, ruleFolder: ruleFolder)
        var next: Int64 = 0
        engine.userID = { _ in
            next += 1
            return UserID(next)
        }
        return Replay(engine: engine, draws: draws)
    }

    /// Runs `body`, which replays lines through this replay (made by ``inMemory(rules:ruleFolder:draws:)``),
    /// with its users' rows in memory: a recording batch that keeps no records at its end. A
    /// replay's users live as long as the batch; calls that follow one another start from nothing.
    /// What `body` throws is thrown once the batch has ended.
    package func inMemory<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var result: Result<T, E>?
        // A batch that keeps no records throws only what its body throws; this body keeps what it threw.
        _ = try? engine.recordingBatch(keepingRecords: false, remembering: false) {
            result = Result { () throws(E) -> T in try body() }
        }
        return try result!.get()
    }
}
