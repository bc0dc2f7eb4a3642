// Embedding LuaHost in an app: load the escalation rule, read its parameters into Swift, and run a
// week of check-ins through its `transition` function.
//
//     swift run embedding-example [RULES_DIR]
import Foundation
import LuaHost

/// The parts of escalation.lua that this example uses. `LuaDecoder` rejects a mistyped field with
/// its path; this partial view ignores the fields it does not declare.
struct EscalationParameters: Decodable {
    var transition: LuaFunction
    var tier_for_misses: [Int]
    var recover_after: [Int]
    var max_tier: Int
    var max_reminders_per_day: Int
    var min_reminder_spacing_minutes: Int
}

/// The escalation state, passed to Lua as a table and read back from the table it returns.
struct EscalationState: LuaTableEncodable, LuaTableDecodable, CustomStringConvertible {
    static let tier = LuaKey("current_tier")
    static let misses = LuaKey("consecutive_misses")
    static let successes = LuaKey("consecutive_successes")

    var tier = 0, misses = 0, successes = 0

    init() {}
    init(from t: inout LuaTableReader) throws {
        tier = try t.int(Self.tier)
        misses = try t.int(Self.misses)
        successes = try t.int(Self.successes)
    }
    func encode(to t: inout LuaTableWriter) {
        t.set(Self.tier, tier)
        t.set(Self.misses, misses)
        t.set(Self.successes, successes)
    }
    var description: String { "tier \(tier), misses \(misses), successes \(successes)" }
}

let rules = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "rules")
do {
    let host = try LuaHost()
    let module = try host.load(file: rules.appendingPathComponent("escalation.lua"), ruleRoot: rules)
    let parameters = try LuaDecoder(rejectsUnknownKeys: false)
        .decode(EscalationParameters.self, from: module.first ?? .nil, file: "escalation.lua")
    print("max tier \(parameters.max_tier), recovery after \(parameters.recover_after) YES days")
    let transition = parameters.transition
    var state = EscalationState()
    for (day, result) in ["NO", "MISSED", "NO", "YES", "YES", "YES", "NO"].enumerated() {
        // The generic path: any Lua values in and out.
        let plain = try host.call(transition, [["current_tier": .integer(Int64(state.tier)),
                                                 "consecutive_misses": .integer(Int64(state.misses)),
                                                 "consecutive_successes": .integer(Int64(state.successes))],
                                                ["result": .string(result)]])
        // The fast path the engine uses: Swift structs in, a Swift struct out.
        state = try host.call(transition, Pooled(state), Pooled(CheckIn(result: result)), returning: EscalationState.self)
        precondition(plain.first?["current_tier"] == .integer(Int64(state.tier)))
        print("day \(day + 1): \(result.padding(toLength: 6, withPad: " ", startingAt: 0)) -> \(state)")
    }
} catch let error as LuaError {
    print(error.detailedDescription)
    exit(1)
}

/// The day's check-in, as the rule's second argument.
struct CheckIn: LuaTableEncodable {
    static let result = LuaKey("result")
    var result: String
    func encode(to t: inout LuaTableWriter) { t.set(Self.result, result) }
}
