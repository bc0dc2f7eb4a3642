import LuaHost
import RulesEngine
import RulesModel

/// Where the price of a credit unlock came from, for `replay --explain`: a CREDITS choice is
/// charged the price its gate's snapshot showed (Earned, A4.2), which `pricing.price` gave when
/// the gate opened, at an earlier line. The gates of the replay are remembered (by user and
/// attempt, the last `maxGates`) with the price calls of each length; a charge then says which
/// price it paid, the line of `price` that returned it and the input line of its gate.
struct UnlockPriceOrigins {
    /// The gates remembered at most (a charge whose gate was forgotten says so).
    static let maxGates = 4_096
    static let priceFunction = "pricing.price"

    /// A gate: its input line, and the price call of each length (by minutes).
    private struct Gate {
        var line: Int?
        var prices: [Int: LuaCallTrace.Call]
    }

    private var gates: [String: Gate] = [:]
    private var order: [String] = []

    /// What a charge paid and where the price came from.
    struct Charge {
        var credits: Int
        var minutes: Int?
        /// The input line of the gate that showed the price; nil when it is not in this replay.
        var gateLine: Int?
        /// The call of `price` that gave it, when known.
        var price: LuaCallTrace.Call?

        /// `pricing.lua:49`: the line `price` returned the price from.
        var priceFrom: String? {
            guard let price, let line = price.returnLine else { return nil }
            return "\(price.function.source):\(line)"
        }

        /// `charged 10 credits for 5 minutes (price from pricing.lua:49, the gate of line 11)`.
        var text: String {
            let what = "charged \(credits) credit\(credits == 1 ? "" : "s")" + (minutes.map { " for \($0) minutes" } ?? "")
            guard let gateLine else { return what + " (the price its gate showed; the gate is not in this replay)" }
            let origin =
                priceFrom.map { "price from \($0)" }
                ?? (price == nil ? "price of the gate's snapshot" : "price from \(UnlockPriceOrigins.priceFunction)")
            return what + " (\(origin), the gate of line \(gateLine))"
        }

        /// The text lines: the charge, then the notes `price` attached to the price
        /// (`note: night surcharge 50 %`).
        var lines: [String] { ["  " + text] + (price?.notes ?? []).map(RuleCallExplanation.noteLine) }

        /// `{"credits": 10, "minutes": 5, "gate_line": 11, "price_from": "pricing.lua:49", "notes": […]}`
        /// (null when unknown; `notes` only when the price call made any).
        var json: JSONValue {
            var fields: [(String, JSONValue)] = [
                ("credits", .int(credits)), ("minutes", minutes.map(JSONValue.int) ?? .null),
                ("gate_line", gateLine.map(JSONValue.int) ?? .null), ("price_from", priceFrom.map(JSONValue.string) ?? .null),
            ]
            if let notes = price?.notes, !notes.isEmpty { fields.append(("notes", .array(notes.map(JSONValue.string)))) }
            return .object(fields)
        }
    }

    /// Reads an output line and the calls it made: remembers a gate it opened with the price calls
    /// of its lengths, and returns the charge of a CREDITS unlock it granted.
    mutating func record(_ out: JSONValue, _ calls: [LuaCallTrace.Call], in ruleSet: RuleSet) -> Charge? {
        guard case .string(let user)? = out["user"], let decisions = out["decisions"] else { return nil }
        let line = Self.int(out["line"])
        var charge: Charge?
        if let unlock = decisions["unlock"], unlock["option"] == .string("CREDITS_UNLOCK"), unlock["outcome"] == .string("GRANTED"),
            let credits = Self.int(unlock["cost_credits"]), case .string(let attempt)? = unlock["attempt_id"]
        {
            let minutes = Self.int(unlock["minutes"])
            let gate = gates[user + "\u{0}" + attempt]
            charge = Charge(credits: credits, minutes: minutes, gateLine: gate?.line, price: minutes.flatMap { gate?.prices[$0] })
        }
        if let opened = decisions["unlock_gate"], case .string(let attempt)? = opened["attempt_id"] {
            var prices: [Int: LuaCallTrace.Call] = [:]
            for call in calls where ruleSet.qualifiedName(of: call.function) == Self.priceFunction {
                guard case .table(let context)? = call.arguments.first ?? nil, case .integer(let minutes) = context["minutes"]
                else { continue }
                prices[Int(minutes)] = call
            }
            remember(user + "\u{0}" + attempt, Gate(line: line, prices: prices))
        }
        return charge
    }

    private mutating func remember(_ key: String, _ gate: Gate) {
        if gates.updateValue(gate, forKey: key) == nil { order.append(key) }
        if order.count > Self.maxGates {
            gates[order.removeFirst()] = nil
        }
    }

    private static func int(_ value: JSONValue?) -> Int? {
        if case .int(let n)? = value { return n }
        return nil
    }
}
