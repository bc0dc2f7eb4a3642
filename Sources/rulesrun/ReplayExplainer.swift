import LuaHost
import RulesEngine
import RulesModel

/// Explains each output line of `replay --explain`: the rule calls the event made, as
/// `RuleCallExplanation` shows them, narrowed by the filters of `ExplainOptions`, and the price a
/// credit unlock was charged with where it came from (`UnlockPriceOrigins`).
final class ReplayExplainer {
    /// What is explained: every event and call, or those the options name.
    struct Filter {
        var lines: [ExplainLine] = []
        var functions: [String] = []
        var types: [String] = []

        private var eventLines: [Int] { lines.compactMap { if case .event(let n) = $0 { n } else { nil } } }
        private var ruleLines: [(file: String, line: Int)] {
            lines.compactMap { if case .rule(let file, let line) = $0 { (file, line) } else { nil } }
        }

        /// Whether some calls are left out (`--only`, `--line FILE:N`): then an event none of whose
        /// calls is left is not explained.
        var narrowsCalls: Bool { !functions.isEmpty || !ruleLines.isEmpty }

        /// Whether the event of the output line `out` is explained (`--line N`, `--type`).
        func explains(event out: JSONValue) -> Bool {
            if !eventLines.isEmpty {
                guard case .int(let n)? = out["line"], eventLines.contains(n) else { return false }
            }
            if !types.isEmpty {
                guard case .string(let type)? = out["type"], types.contains(type) else { return false }
            }
            return true
        }

        /// Whether a call of the function named `name` is shown (`--only`, `--line FILE:N`).
        func shows(_ call: LuaCallTrace.Call, named name: String?) -> Bool {
            if !functions.isEmpty, !(name.map(functions.contains) ?? false) { return false }
            let rules = ruleLines
            if !rules.isEmpty {
                let ran = call.lines ?? []
                return rules.contains { ExplainLine.names($0.file, call.function.source) && ran.contains($0.line) }
            }
            return true
        }
    }

    let format: ExplainFormat
    let ruleSet: RuleSet
    let limits: RuleCallExplanation.Limits
    let filter: Filter
    private var prices = UnlockPriceOrigins()

    init(format: ExplainFormat, ruleSet: RuleSet, limits: RuleCallExplanation.Limits = .abbreviated, filter: Filter = Filter()) {
        self.format = format
        self.ruleSet = ruleSet
        self.limits = limits
        self.filter = filter
    }

    /// The text of one output line, with the explanation of the calls it made (`calls`) when its
    /// event is explained: text lines under it, or `explain` (and `explain_charge`) at its end.
    func lines(of out: JSONValue, _ calls: [LuaCallTrace.Call]) -> String {
        var charge = prices.record(out, calls, in: ruleSet)
        guard filter.explains(event: out) else { return out.description + "\n" }
        let shown = calls.filter { filter.shows($0, named: ruleSet.qualifiedName(of: $0.function)) }
        if let price = charge?.price, !filter.shows(price, named: UnlockPriceOrigins.priceFunction) {
            charge = nil
        } else if charge?.price == nil, filter.narrowsCalls {
            charge = nil
        }
        if filter.narrowsCalls && shown.isEmpty && charge == nil { return out.description + "\n" }
        let explained = shown.map { RuleCallExplanation($0, in: ruleSet, limits: limits) }
        switch format {
        case .json:
            guard case .object(let fields) = out else { return out.description + "\n" }
            var added: [(String, JSONValue)] = [("explain", .array(explained.map(\.json)))]
            if let charge { added.append(("explain_charge", charge.json)) }
            return JSONValue.object(fields + added).description + "\n"
        case .text:
            var text = (charge?.lines ?? []) + explained.flatMap(\.text)
            if text.isEmpty { text = ["  (no rule calls)"] }
            return out.description + "\n" + text.map { VisibleText.escaping($0) + "\n" }.joined()
        }
    }
}
