import RulesModel

/// A sum whose whole-number terms are added exactly, so that sums of parts (shards, workers) give the
/// same bits whatever the order they are added in: a term that is a whole number of magnitude at most
/// 2^31 (a count, a 0/1, user-days, credits), or a product of two such, is added to an integer — an
/// `Int64`, carried into an `Int128` when it would overflow, so that no realistic number of users
/// overflows it; any other term goes to a `Double` beside it, whose last bits do depend on the order
/// of addition.
package struct ExactSum: Sendable, Equatable {
    /// The whole-number terms' sum: `carried + running`.
    private var running: Int64 = 0
    private var carried: Int128 = 0
    /// The other terms' sum (0 when there was none).
    package private(set) var fraction: Double = 0

    /// The largest whole term kept exact: 2^31 (its products with another fit an `Int64`).
    static let exactLimit = 2_147_483_648.0

    package init() {}

    init(whole: Int128, fraction: Double) {
        carried = whole
        self.fraction = fraction
    }

    /// The whole-number terms' sum, exact.
    package var whole: Int128 { carried + Int128(running) }
    /// The sum.
    package var value: Double { Double(whole) + fraction }
    /// Whether every term was a whole number (the sum is exact).
    package var isExact: Bool { fraction == 0 }

    package static func == (a: ExactSum, b: ExactSum) -> Bool { a.whole == b.whole && a.fraction == b.fraction }

    /// `v` as an exact whole term, nil when it is not one.
    @inline(__always) static func whole(_ v: Double) -> Int64? {
        guard v >= -exactLimit, v <= exactLimit else { return nil }
        let i = Int64(v)
        return Double(i) == v ? i : nil
    }

    @inline(__always) private mutating func addWhole(_ i: Int64) {
        let (sum, overflow) = running.addingReportingOverflow(i)
        if overflow {
            carried += Int128(running)
            running = i
        } else {
            running = sum
        }
    }

    /// Adds the term `v`.
    package mutating func add(_ v: Double) {
        if let i = Self.whole(v) { addWhole(i) } else { fraction += v }
    }

    /// Adds the term `a · b`: exactly when both are whole numbers kept exactly.
    package mutating func add(_ a: Double, times b: Double) {
        if let i = Self.whole(a), let j = Self.whole(b) { addWhole(i * j) } else { fraction += a * b }
    }

    package static func + (a: ExactSum, b: ExactSum) -> ExactSum {
        ExactSum(whole: a.whole + b.whole, fraction: a.fraction + b.fraction)
    }

    /// `n · self − a · b` (n times a centered cross-product), exactly when all three sums are exact and
    /// the products fit an `Int128`.
    static func centered(n: Int, _ ab: ExactSum, _ a: ExactSum, _ b: ExactSum) -> Double {
        if ab.isExact, a.isExact, b.isExact {
            let (left, o1) = Int128(n).multipliedReportingOverflow(by: ab.whole)
            let (right, o2) = a.whole.multipliedReportingOverflow(by: b.whole)
            if !o1, !o2 {
                let (difference, o3) = left.subtractingReportingOverflow(right)
                if !o3 { return Double(difference) }
            }
        }
        return Double(n) * ab.value - a.value * b.value
    }

    // MARK: JSON

    /// An exact sum as a number (its decimal digits as a string beyond ±2^63), any other as
    /// `[whole, fraction]`.
    package var json: JSONValue {
        let exact: JSONValue = Int(exactly: whole).map { .int($0) } ?? .string(String(whole))
        return isExact ? exact : .array([exact, .double(fraction)])
    }

    /// Reads what `json` writes; `path` names the field in the messages.
    package init(json: JSONValue, at path: String) throws(AnalysisError) {
        switch json {
        case .array(let parts) where parts.count == 2:
            carried = try Self.whole(parts[0], at: "\(path)[0]")
            switch parts[1] {
            case .double(let d) where d.isFinite: fraction = d
            case .int(let i): fraction = Double(i)
            default:
                throw AnalysisError("\(path)[1]: expected the sum's fraction (a finite number), found \(Self.kind(of: parts[1]))")
            }
        default:
            carried = try Self.whole(json, at: path)
        }
    }

    private static func whole(_ json: JSONValue, at path: String) throws(AnalysisError) -> Int128 {
        switch json {
        case .int(let i): return Int128(i)
        case .string(let s) where s.count <= 40:
            if let value = Int128(s) { return value }
        default: break
        }
        throw AnalysisError(
            "\(path): expected a sum: a whole number, its decimal digits as a string (at most 40), "
                + "or [whole, fraction], found \(kind(of: json))")
    }

    static func kind(of json: JSONValue) -> String {
        switch json {
        case .null: "null"
        case .bool(let b): "the boolean \(b)"
        case .int(let i): "the number \(i)"
        case .double(let d): "the number \(d)"
        case .string(let s): "the string \(String(reflecting: String(s.prefix(40))))"
        case .array(let a): "an array of \(a.count)"
        case .object: "an object"
        }
    }
}
