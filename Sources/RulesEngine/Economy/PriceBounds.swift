import LuaHost
import RulesModel

/// The bounds every price must respect (checked when the gate opens, proved by validation).
package enum PriceBounds {
    package static let maximum = 10_000

    /// The prices of `lengths` in `situation`, each from `price`, checked: integers (the caller
    /// decodes them), 0…10,000, strictly increasing with the length. The first broken constraint
    /// is described, naming the situation.
    static func problem(_ prices: [PricingPolicy.CreditCost], in situation: PriceContext) -> String? {
        // An index loop: a debug build's `enumerated()` looks up tuple metadata at each price.
        for i in prices.indices {
            let cost = prices[i]
            if !(0...maximum).contains(cost.credits) {
                return "price returned \(cost.credits) credits for \(cost.minutes) minutes, outside 0…\(maximum) (\(situation.situation))"
            }
            if i > 0, cost.credits <= prices[i - 1].credits {
                let previous = prices[i - 1]
                return
                    "price returned \(cost.credits) credits for \(cost.minutes) minutes, not more than the \(previous.credits) for \(previous.minutes) minutes: prices must be strictly increasing with the length (\(situation.situation))"
            }
        }
        return nil
    }
}

extension PolicyRules {
    package func readingPrice(_ context: PriceContext) throws -> (credits: Int, read: LuaFieldReads) { (try price(context), .all) }

    /// The price of each unlock length of `credit_costs` in `situation` (its `minutes` is set to
    /// each length in turn), checked against `PriceBounds`: a broken constraint is a
    /// RULE_VIOLATION naming the context.
    package func prices(in situation: PriceContext) throws -> [PricingPolicy.CreditCost] {
        var context = situation
        let prices = try pricingKnobs.creditCosts.map { cost in
            context.minutes = cost.minutes
            return PricingPolicy.CreditCost(minutes: cost.minutes, credits: try price(context))
        }
        if let problem = PriceBounds.problem(prices, in: situation) { throw EngineError(.ruleViolation, problem) }
        return prices
    }
}
