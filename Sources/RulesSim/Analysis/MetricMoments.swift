import RulesModel

/// The sufficient statistics of one metric in one arm: the number of users n, and over them the sums
/// of the four per-user values and of their ten products. The values of a user are
///
/// - `y`, the metric's numerator (YES check-ins, reminders, credits spent, 1 if retained on day 7);
/// - `x`, its denominator: 1 for a per-user mean, the user's check-ins or user-days for a ratio;
/// - `cy`, `cx`: the same numerator and denominator in the user's pre-exposure period, (0, 0) for a
///   user who has none (`ArmComparison` says how CUPED treats them).
///
/// Moments merge with `+`, exactly when the values are whole numbers (`ExactSum`): the moments of the
/// shards of a run add up to the whole run's, bit for bit, in any order. Every statistic of
/// `ArmComparison` comes from these moments (no user is kept).
package struct MetricMoments: Sendable, Equatable {
    /// One of the four per-user values.
    package enum Field: Int, CaseIterable, Sendable {
        case y, x, cy, cx

        var name: String { ["y", "x", "cy", "cx"][rawValue] }
    }

    /// The most users one set of moments counts: 2^40 (the exact sums would hold far more).
    package static let maxUsers = 1 << 40

    /// The users counted.
    package private(set) var n = 0
    /// Σy, Σx, Σcy, Σcx, and the products' sums in the order of `pairs` (stored apart: a user's
    /// values are added to each, millions of times).
    private var sy = ExactSum(), sx = ExactSum(), scy = ExactSum(), scx = ExactSum()
    private var syy = ExactSum(), syx = ExactSum(), sycy = ExactSum(), sycx = ExactSum(), sxx = ExactSum()
    private var sxcy = ExactSum(), sxcx = ExactSum(), scycy = ExactSum(), scycx = ExactSum(), scxcx = ExactSum()

    /// The four sums then the ten products' (the order of `keys`).
    private var all: [ExactSum] { [sy, sx, scy, scx, syy, syx, sycy, sycx, sxx, sxcy, sxcx, scycy, scycx, scxcx] }

    private init(n: Int, all: [ExactSum]) {
        self.n = n
        (sy, sx, scy, scx) = (all[0], all[1], all[2], all[3])
        (syy, syx, sycy, sycx, sxx) = (all[4], all[5], all[6], all[7], all[8])
        (sxcy, sxcx, scycy, scycx, scxcx) = (all[9], all[10], all[11], all[12], all[13])
    }

    /// The ten pairs (a ≤ b) whose products are summed.
    static let pairs: [(Field, Field)] = Field.allCases.flatMap { a in
        Field.allCases.filter { $0.rawValue >= a.rawValue }.map { (a, $0) }
    }

    /// No user.
    package init() {}

    /// One user.
    package init(y: Double, x: Double, cy: Double = 0, cx: Double = 0) {
        add(y: y, x: x, cy: cy, cx: cx)
    }

    /// Counts a user with these values (each a finite number).
    package mutating func add(y: Double, x: Double, cy: Double = 0, cx: Double = 0) {
        precondition(y.isFinite && x.isFinite && cy.isFinite && cx.isFinite, "a user's values are finite numbers")
        precondition(n < Self.maxUsers, "at most \(Self.maxUsers) users")
        n += 1
        sy.add(y)
        sx.add(x)
        scy.add(cy)
        scx.add(cx)
        syy.add(y, times: y)
        syx.add(y, times: x)
        sycy.add(y, times: cy)
        sycx.add(y, times: cx)
        sxx.add(x, times: x)
        sxcy.add(x, times: cy)
        sxcx.add(x, times: cx)
        scycy.add(cy, times: cy)
        scycx.add(cy, times: cx)
        scxcx.add(cx, times: cx)
    }

    package static func + (a: MetricMoments, b: MetricMoments) -> MetricMoments {
        MetricMoments(n: a.n + b.n, all: zip(a.all, b.all).map { $0 + $1 })
    }

    package static func += (a: inout MetricMoments, b: MetricMoments) { a = a + b }

    /// Σ of a value.
    package func sum(_ f: Field) -> Double { all[f.rawValue].value }

    /// Σ of a product of two values.
    package func product(_ a: Field, _ b: Field) -> Double { all[4 + Self.index(a, b)].value }

    /// The mean of a value over the users.
    func mean(_ f: Field) -> Double { all[f.rawValue].value / Double(n) }

    /// The sample covariance (n − 1 in the denominator) of two values over the users: exact in its
    /// numerator when the sums are.
    func covariance(_ a: Field, _ b: Field) -> Double {
        let all = all
        let centered = ExactSum.centered(n: n, all[4 + Self.index(a, b)], all[a.rawValue], all[b.rawValue])
        return centered / (Double(n) * Double(n - 1))
    }

    /// The metric's value in the arm, Σy / Σx (nil when Σx = 0).
    package var value: Double? { sum(.x) == 0 ? nil : sum(.y) / sum(.x) }

    /// Whether every user's x is 1 (a per-user mean): Σx = n and Σx² = n, which for whole x means
    /// Σ(x − 1)² = 0.
    package var isPerUserMean: Bool {
        sx.isExact && sxx.isExact && sx.whole == Int128(n) && sxx.whole == Int128(n)
    }

    private static func index(_ a: Field, _ b: Field) -> Int {
        let (i, j) = a.rawValue <= b.rawValue ? (a.rawValue, b.rawValue) : (b.rawValue, a.rawValue)
        // Row i starts after the rows 0..<i, of 4, 3, 2 pairs.
        return [0, 4, 7, 9][i] + (j - i)
    }

    // MARK: JSON

    /// The JSON keys of the sums and products: `sum_y`, …, `sum_y_x`, ….
    static var keys: [String] {
        Field.allCases.map { "sum_\($0.name)" } + pairs.map { "sum_\($0.0.name)_\($0.1.name)" }
    }

    /// `{"n": …, "sum_y": …, "sum_x": …, "sum_cy": …, "sum_cx": …, "sum_y_y": …, "sum_y_x": …, …}`: each
    /// sum as `ExactSum.json` writes it.
    package var json: JSONValue {
        .object([("n", .int(n))] + zip(Self.keys, all.map(\.json)).map { ($0, $1) })
    }

    /// Reads what `json` writes; `path` (e.g. `metrics.yes_rate.control`) prefixes the field named in
    /// the messages.
    package init(json: JSONValue, at path: String = "moments") throws(AnalysisError) {
        guard case .object(let members) = json else {
            throw AnalysisError("\(path): expected an object of moments (n, sum_y, …), found \(ExactSum.kind(of: json))")
        }
        let keys = ["n"] + Self.keys
        if let unknown = members.first(where: { !keys.contains($0.0) }) {
            throw AnalysisError("\(path).\(unknown.0): unknown field, expected one of \(keys.joined(separator: ", "))")
        }
        guard case .int(let count) = json["n"], (0...Self.maxUsers).contains(count) else {
            throw AnalysisError(
                "\(path).n: expected the number of users, a whole number from 0 to \(Self.maxUsers), "
                    + "found \(json["n"].map(ExactSum.kind(of:)) ?? "nothing")")
        }
        var all: [ExactSum] = []
        for key in Self.keys {
            guard let value = json[key] else { throw AnalysisError("\(path).\(key): missing (expected a sum)") }
            all.append(try ExactSum(json: value, at: "\(path).\(key)"))
        }
        self.init(n: count, all: all)
        for f in Field.allCases where product(f, f) < 0 {
            throw AnalysisError("\(path).sum_\(f.name)_\(f.name): \(product(f, f)), expected a sum of squares (at least 0)")
        }
        if n == 0, let key = zip(Self.keys, all).first(where: { $0.1 != ExactSum() })?.0 {
            throw AnalysisError("\(path).\(key): expected 0 (n is 0: no user)")
        }
    }
}
