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

    /// The users' observations together (by pattern of covariates, or a habit's before its task is numbered).
    static func pooled<Key: Hashable>(_ users: [[Key: (rows: Double, events: Double)]]) -> [Key: (rows: Double, events: Double)] {
        var pooled: [Key: (rows: Double, events: Double)] = [:]
        for user in users { LogisticFit.add(user, into: &pooled) }
        return pooled
    }

    /// The fit of every user as one segment.
    func fit(users count: Int) throws -> FittedResponse {
        var fitted = try response.fit(Self.pooled(users), prior: prior, observed: "\(count) users; \(observed)")
        fitted.setup = setup
        return fitted
    }
}
