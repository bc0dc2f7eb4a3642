import Foundation
import RulesEngine
import RulesModel
import RulesSim
import Testing

/// The moments of a metric in an arm: exact merging, and their JSON.
@Suite struct MetricMomentsTests {
    /// Users with whole values (counts) and some with fractions (credits), from a seed.
    static func users(_ count: Int, seed: UInt64, fractions: Bool = false) -> [(Double, Double, Double, Double)] {
        var draws = SyntheticDraws(seed: seed)
        return (0..<count).map { _ in
            let days = Double(1 + draws.poisson(6))
            let y = fractions ? draws.logNormal(mu: 0, sigma: 1.5) * 1e6 : Double(draws.poisson(days * 0.6))
            let hasPre = draws.unit() < 0.8
            return (y, days, hasPre ? Double(draws.poisson(4)) : 0, hasPre ? 7 : 0)
        }
    }

    static func moments(_ users: some Sequence<(Double, Double, Double, Double)>) -> MetricMoments {
        users.reduce(into: MetricMoments()) { $0.add(y: $1.0, x: $1.1, cy: $1.2, cx: $1.3) }
    }

    /// Shards merged in any order give the whole run's moments, bit for bit (whole-number values).
    @Test func shardsMergeIntoTheWholeInAnyOrder() throws {
        let users = Self.users(2_000, seed: 7)
        let whole = Self.moments(users)
        let shards = stride(from: 0, to: users.count, by: 333).map { Self.moments(users[$0..<min($0 + 333, users.count)]) }
        let forward = shards.reduce(MetricMoments(), +)
        let backward = shards.reversed().reduce(MetricMoments(), +)
        var generator = SeededGenerator(seed: 1)
        let shuffled = shards.shuffled(using: &generator).reduce(MetricMoments(), +)
        #expect(forward == whole && backward == whole && shuffled == whole)
        #expect(forward.json == whole.json)
        let a = try ArmComparison.compare(control: whole, treatment: shards[0] + shards[1] + shards[2], cuped: true)
        let b = try ArmComparison.compare(control: backward, treatment: shards[2] + shards[0] + shards[1], cuped: true)
        #expect(a == b)
        #expect(whole.n == 2_000 && whole.sum(.x) == users.reduce(0) { $0 + $1.1 })
    }

    /// Large counts whose squares overflow a 64-bit sum, and that a `Double` cannot sum exactly: the
    /// sums stay exact (carried into 128 bits) and their JSON holds them as decimal digits.
    @Test func sumsOfSquaresOfLargeCountsAreExact() throws {
        var m = MetricMoments()
        // (2^31)² + 1 + (2^31)² = 2^63 + 1: beyond Int64 and beyond a Double's 53 bits.
        m.add(y: 2_147_483_648, x: 1)
        m.add(y: 1, x: 1)
        m.add(y: 2_147_483_648, x: 1)
        let text = m.json.description
        #expect(text.contains("\"sum_y_y\":\"9223372036854775809\""), "\(text)")
        #expect(try MetricMoments(json: m.json) == m)
        #expect(m.isPerUserMean)
        // The sample variance from the exact sums: values 2^31, 1, 2^31.
        let c = try ArmComparison.compare(control: m, treatment: m)
        let mean = (2 * 2_147_483_648.0 + 1) / 3
        let variance = (2 * (2_147_483_648 - mean) * (2_147_483_648 - mean) + (1 - mean) * (1 - mean)) / 2
        #expect(close(c.difference.standardError, (2 * variance / 3).squareRoot(), 1e-15))
    }

    /// Fractional values are summed as doubles beside the exact part; merging is then the same to
    /// rounding, and the JSON keeps both parts.
    @Test func fractionalValuesRoundTrip() throws {
        let users = Self.users(500, seed: 11, fractions: true)
        let whole = Self.moments(users)
        let merged = Self.moments(users[..<250]) + Self.moments(users[250...])
        #expect(close(merged.sum(.y), whole.sum(.y), 1e-14) && close(merged.product(.y, .y), whole.product(.y, .y), 1e-14))
        // Through the printed text, as `merge` reads it back.
        let read = try MetricMoments(json: try JSONLine.parse(whole.json.description))
        #expect(read == whole && read.json.description == whole.json.description)
        #expect(!whole.isPerUserMean)
    }

    /// Every field's problem is named with what was expected.
    @Test func badMomentsAreRefusedWithTheirField() throws {
        var good: [(String, JSONValue)] = []
        if case .object(let members) = Self.moments(Self.users(3, seed: 2)).json { good = members }
        func refused(_ change: (inout [(String, JSONValue)]) -> Void) -> String {
            var members = good
            change(&members)
            do {
                _ = try MetricMoments(json: .object(members), at: "metrics.yes_rate.control")
                return "accepted"
            } catch { return error.message }
        }
        let at = "metrics.yes_rate.control"
        #expect(
            refused { $0[0].1 = .string("three") }
                == "\(at).n: expected the number of users, a whole number from 0 to 1099511627776, found the string \"three\"")
        #expect(refused { $0.remove(at: 2) } == "\(at).sum_x: missing (expected a sum)")
        #expect(
            refused { $0[1].1 = .double(2.5) }
                == "\(at).sum_y: expected a sum: a whole number, its decimal digits as a string (at most 40), "
                + "or [whole, fraction], found the number 2.5")
        #expect(
            refused { $0[1].1 = .array([.int(2), .string("x")]) }
                == "\(at).sum_y[1]: expected the sum's fraction (a finite number), found the string \"x\"")
        #expect(refused { $0[5].1 = .int(-4) } == "\(at).sum_y_y: -4.0, expected a sum of squares (at least 0)")
        #expect(refused { $0.append(("sum_z", .int(1))) }.hasPrefix("\(at).sum_z: unknown field, expected one of n, sum_y,"))
        #expect(refused { $0[0].1 = .int(0) } == "\(at).sum_y: expected 0 (n is 0: no user)")
        #expect(throws: AnalysisError("moments: expected an object of moments (n, sum_y, …), found an array of 0")) {
            try MetricMoments(json: .array([]))
        }
    }
}
