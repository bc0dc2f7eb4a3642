import LuaHost
import RulesModel

/// The part of the escalation state that `transition` reads and returns.
package struct EscalationCounters: Hashable, Sendable, LuaTableEncodable, LuaTableDecodable {
    static let tierKey = LuaKey("current_tier")
    static let missesKey = LuaKey("consecutive_misses")
    static let successesKey = LuaKey("consecutive_successes")
    package static var luaFieldCount: Int { 3 }

    package var tier: Int
    package var misses: Int
    package var successes: Int

    package init(tier: Int, misses: Int, successes: Int) {
        self.tier = tier
        self.misses = misses
        self.successes = successes
    }

    package init(_ state: EscalationState) {
        self.init(tier: state.currentTier.rawValue, misses: state.consecutiveMisses, successes: state.consecutiveSuccesses)
    }

    package init(from t: inout LuaTableReader) throws {
        tier = try t.int(Self.tierKey)
        misses = try t.int(Self.missesKey)
        successes = try t.int(Self.successesKey)
    }

    package func encode(to t: inout LuaTableWriter) {
        t.set(Self.tierKey, tier)
        t.set(Self.missesKey, misses)
        t.set(Self.successesKey, successes)
    }
}

/// The day's check-in as `transition`'s second argument: `{ result = "YES" | "NO" | "MISSED" }`.
struct CheckInArgument: LuaTableEncodable {
    static let resultKey = LuaKey("result")
    static var luaFieldCount: Int { 1 }
    var result: CommitmentStatus
    func encode(to t: inout LuaTableWriter) { t.set(Self.resultKey, result.rawValue) }
}
