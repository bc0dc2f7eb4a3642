import RulesEngine
import RulesModel

/// Where `analyze` takes its users from (``RolloutAnalysis/init(input:rollout:days:seed:jobs:shard:)``):
/// the apps' log of JSON lines read into memory (``EventLog``), or a database of rulesrun read a
/// user at a time (``DatabaseLog``). `fit` (issue 44) takes the same.
package protocol AnalysisInput {
    /// The log's end: the days that ended before it are the days counted. Known before any user is read.
    var end: EpochMillis { get }
    /// Events read (once every user has been).
    var eventCount: Int { get }
    /// What the input could not give (once every user has been read).
    var problems: EventLog.Problems { get }
    /// The next users, at most `count` of them, in the input's order; none once every one has been read.
    mutating func nextUsers(upTo count: Int) throws -> [LoggedUser]
}

extension EventLog: AnalysisInput {
    package mutating func nextUsers(upTo count: Int) throws -> [LoggedUser] {
        let next = users[cursor..<min(users.count, cursor + count)].map { user in
            LoggedUser(name: user, events: events[user]!, lines: lines[user]!)
        }
        cursor += next.count
        return next
    }
}
