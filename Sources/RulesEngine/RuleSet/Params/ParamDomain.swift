import RulesModel

/// The param values a function that receives params is proved over: for each param, booleans both
/// values, enums all, integer ranges of at most 16 values all (else min, max, default and up to 5
/// evenly spaced values), numbers min, max, default and 3 points between (a range whose width is not
/// a finite number is refused by the checks); then their cartesian product,
/// up to ``RuleParams/domainCap`` combinations. Past the cap, the combinations tried are a
/// deterministic sample (every param at its default, each value of each param with the others at
/// their defaults, then a fixed pseudo-random choice), and ``unproved`` says so.
package struct ParamDomain: Sendable {
    /// The combinations to try, the defaults first.
    package let combinations: [ResolvedParams]
    /// How many combinations the full product has (saturating at `Int.max`).
    package let total: Int
    /// The params and their values, in the order of the names.
    package let values: [(name: String, values: [ParamValue])]

    /// Whether only a sample of the product is tried.
    package var isSampled: Bool { combinations.count < total }

    /// The params whose range is tried at some of its values only (an integer range of more
    /// than ``RuleParams/fullIntegerRange`` values, a number range), with the values tried.
    package let sampledValues: [(name: String, values: [ParamValue])]

    /// What the proof does not cover, for `validate`'s "not proved for …" line: the values of a
    /// param between those tried (`grace_days other than 0, 16, 33, 50, 66, 83, 100`) and, when
    /// the product is sampled, `every combination of freeze_max, grace_days, speed (300 of them;
    /// 256 tried, sampled deterministically)`.
    package var unproved: String? {
        var parts = sampledValues.map { "\($0.name) other than " + $0.values.map(\.text).joined(separator: ", ") }
        if isSampled {
            let names = values.map(\.name).joined(separator: ", ")
            let count = total == Int.max ? "more than \(Int.max)" : "\(total)"
            parts.append("every combination of \(names) (\(count) of them; \(combinations.count) tried, sampled deterministically)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

extension RuleParams {
    /// The most combinations of params a proof tries.
    package static let domainCap = 256
    /// Integer ranges of at most this many values are tried in full.
    package static let fullIntegerRange = 16

    /// The values `param` is proved at, in increasing order (false before true; enums as listed).
    package static func domainValues(of param: Param) -> [ParamValue] {
        switch param.kind {
        case .boolean:
            return [.boolean(false), .boolean(true)]
        case .enum:
            return param.values.map { .string($0) }
        case .integer:
            // A declaration that passed the checks (a range within ±2^53); anything else is tried at its default.
            guard case .integer(let lo)? = param.min, case .integer(let hi)? = param.max, lo <= hi,
                lo.magnitude <= UInt64(maxExactInteger), hi.magnitude <= UInt64(maxExactInteger)
            else { return [param.defaultValue] }
            if hi - lo < Int64(fullIntegerRange) { return (lo...hi).map { .integer($0) } }
            var picks: Set<Int64> = [lo, hi]
            if case .integer(let d) = param.defaultValue { picks.insert(d) }
            // Exact in Int64: the range is within ±2^53, so (hi - lo) * 5 cannot overflow.
            for k in Int64(1)...5 { picks.insert(lo + (hi - lo) * k / 6) }
            return picks.sorted().map { .integer($0) }
        case .number:
            // A declaration that passed the checks (finite, and so is max − min); anything else is tried at its default.
            guard let lo = param.min?.doubleValue, let hi = param.max?.doubleValue, lo <= hi, (hi - lo).isFinite else {
                return [param.defaultValue]
            }
            var picks: Set<Double> = [lo, hi]
            if let d = param.defaultValue.doubleValue { picks.insert(d) }
            // Divided before multiplied, so that no step overflows (a quarter is exact): each point is
            // between lo and hi, so finite.
            for k in 1...3 { picks.insert(lo + (hi - lo) / 4 * Double(k)) }
            return picks.sorted().map { .number($0) }
        }
    }

    /// The combinations to prove a function over (``ParamDomain``), at most `cap`.
    package func domain(cap: Int = RuleParams.domainCap) -> ParamDomain {
        let values = params.map { (name: $0.name, values: Self.domainValues(of: $0)) }
        let radices = values.map(\.values.count)
        var total = 1
        for radix in radices {
            let (product, overflow) = total.multipliedReportingOverflow(by: radix)
            total = overflow ? Int.max : product
        }
        let defaultIndices = params.indices.map { i in values[i].values.firstIndex(of: params[i].defaultValue) ?? 0 }
        func combination(_ indices: [Int]) -> ResolvedParams {
            ResolvedParams(indices.enumerated().map { .init(name: values[$0].name, value: values[$0].values[$1]) })
        }
        var chosen: [[Int]] = [defaultIndices]
        var seen: Set<[Int]> = [defaultIndices]
        func add(_ indices: [Int]) { if chosen.count < cap, seen.insert(indices).inserted { chosen.append(indices) } }
        if total <= cap {
            // The whole product, in mixed-radix order (the defaults first).
            var indices = Array(repeating: 0, count: radices.count)
            for _ in 0..<total {
                add(indices)
                for d in indices.indices.reversed() {
                    indices[d] += 1
                    if indices[d] < radices[d] { break }
                    indices[d] = 0
                }
            }
        } else {
            // Each value of each param with the others at their defaults, then a fixed sample.
            for i in radices.indices {
                for v in 0..<radices[i] {
                    var indices = defaultIndices
                    indices[i] = v
                    add(indices)
                }
            }
            var random = SeededGenerator(seed: 0x5EED_0017)
            var attempts = 0
            while chosen.count < cap, attempts < cap * 64 {
                attempts += 1
                add(radices.map { Int(random.next() % UInt64($0)) })
            }
        }
        let sampled = params.indices.filter { Self.isSampled(params[$0], tried: values[$0].values.count) }
        return ParamDomain(
            combinations: chosen.map(combination), total: total, values: values, sampledValues: sampled.map { values[$0] })
    }

    /// Whether `param`'s range has more values than the `tried` ones (an integer range of more than
    /// ``fullIntegerRange`` values, a number range wider than one point).
    static func isSampled(_ param: Param, tried: Int) -> Bool {
        switch param.kind {
        case .boolean, .enum: return false
        case .integer:
            guard case .integer(let lo)? = param.min, case .integer(let hi)? = param.max, lo <= hi else { return false }
            let width = hi.subtractingReportingOverflow(lo)
            return width.overflow || Int64(tried) <= width.partialValue
        case .number: return param.min?.doubleValue != param.max?.doubleValue
        }
    }
}
