/// A response's observations ready to fit (``LogisticResponse``): each user's patterns of
/// covariates in the order of the response's terms, the priors, and how many leading terms are
/// base chances (an intercept, a task's rate: what a segment has of its own in a mixture,
/// ``SegmentMixture``; the terms after them are the response's effects, shared by the segments).
struct ResponseDesign: Sendable {
    var response: LogisticResponse
    /// Each term's value on the log-odds scale where the log cannot inform it.
    var prior: [Double]
    var bases: Int
    /// What was observed, in one line.
    var observed: String
    /// The statement a persona file runs before it sets the parameters.
    var setup: String
    /// Per user, in the input's order.
    var users: [LogisticFit.Counts]
    /// The habit tracker's tasks, in the order of the base terms (none for another response).
    var tasks: [String] = []
    /// The terms `fit --fix` holds at their prior.
    var held: Set<Int> = []

    /// The users' observations together (by pattern of covariates, or a habit's before its task is numbered).
    static func pooled<Key: Hashable>(_ users: [[Key: (rows: Double, events: Double)]]) -> [Key: (rows: Double, events: Double)] {
        var pooled: [Key: (rows: Double, events: Double)] = [:]
        for user in users { LogisticFit.add(user, into: &pooled) }
        return pooled
    }

    /// The groups with a base chance of their own (a habit task, an Earned habit) that the users'
    /// observations have the most of (at most `most`; ties by name), sorted by name, and how many
    /// groups there are in all.
    static func groups<Key: Hashable>(
        _ users: [[Key: (rows: Double, events: Double)]], of group: (Key) -> String, most: Int
    )
        -> (kept: [String], all: Int)
    {
        var rows: [String: Double] = [:]
        for user in users { for (key, c) in user { rows[group(key), default: 0] += c.rows } }
        let kept = rows.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(most).map(\.key).sorted()
        return (kept, rows.count)
    }

    /// A user's observations numbered for a response whose base terms are `groups`' (sorted): each
    /// pattern's covariates its group's indicator, then `covariates` (a group not among them left out).
    static func numbered<Key: Hashable>(
        _ user: [Key: (rows: Double, events: Double)], groups: [String], of group: (Key) -> String, covariates: (Key) -> [Double]
    ) -> LogisticFit.Counts {
        let index = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1, $0) })
        var numbered = LogisticFit.Counts()
        for (key, c) in user {
            guard let g = index[group(key)] else { continue }
            var x = Array(repeating: 0.0, count: groups.count)
            x[g] = 1
            let pattern = LogisticFit.Pattern(x + covariates(key))
            numbered[pattern, default: (0, 0)].rows += c.rows
            numbered[pattern, default: (0, 0)].events += c.events
        }
        return numbered
    }

    /// The fit of every user as one segment.
    func fit(users count: Int) throws -> FittedResponse {
        var fitted = try response.fit(Self.pooled(users), prior: prior, held: held, observed: "\(count) users; \(observed)")
        fitted.setup = setup
        return fitted
    }
}
