import LuaHost
import RulesModel

/// pricing.lua, typed: Earned's prices, earning and rollover.
package struct PricingPolicy: Decodable {
    /// The params the file declares for its own functions (``RuleParams``); none when it has no `params`.
    package var params: RuleParams { declaredParams ?? RuleParams() }
    var declaredParams: RuleParams?
    /// The file's plain values: what the engine applies itself (`PolicyRules.pricingKnobs`).
    package var knobs: Knobs
    package var creditCosts: [CreditCost] { knobs.creditCosts }
    package var rolloverCap: Int { knobs.rolloverCap }
    package var focus: Focus { knobs.focus }
    package var habits: Habits { knobs.habits }
    /// `focus_credits(session) -> integer`.
    package var focusCredits: LuaFunction
    /// `carried_credits(balance) -> integer`.
    package var carriedCredits: LuaFunction
    /// `habit_award(completion) -> { credits, suspend }`.
    package var habitAward: LuaFunction
    /// `price(ctx) -> credits`: the price of one unlock length in a situation (`PriceContext`).
    package var price: LuaFunction

    /// pricing.lua's plain values (no functions).
    package struct Knobs: Decodable, Sendable, Equatable {
        package var creditCosts: [CreditCost]
        package var rolloverCap: Int
        package var focus: Focus
        package var habits: Habits

        package init(creditCosts: [CreditCost], rolloverCap: Int, focus: Focus, habits: Habits) {
            self.creditCosts = creditCosts
            self.rolloverCap = rolloverCap
            self.focus = focus
            self.habits = habits
        }

        enum CodingKeys: String, CodingKey {
            case creditCosts = "credit_costs"
            case rolloverCap = "rollover_cap"
            case focus, habits
        }
    }

    package struct CreditCost: Codable, Sendable, Hashable {
        package var minutes: Int
        package var credits: Int
        package init(minutes: Int, credits: Int) {
            self.minutes = minutes
            self.credits = credits
        }
    }

    package struct Focus: Decodable, Sendable, Equatable {
        package var presetMinutes: [Int]
        package var minMinutesToQualify: Int
        package var minutesPerCredit: Int
        package init(presetMinutes: [Int], minMinutesToQualify: Int, minutesPerCredit: Int) {
            self.presetMinutes = presetMinutes
            self.minMinutesToQualify = minMinutesToQualify
            self.minutesPerCredit = minutesPerCredit
        }
        enum CodingKeys: String, CodingKey {
            case presetMinutes = "preset_minutes"
            case minMinutesToQualify = "min_minutes_to_qualify"
            case minutesPerCredit = "minutes_per_credit"
        }
    }

    package struct Habits: Decodable, Sendable, Equatable {
        package var defaultRewardCredits: Int
        package var suspension: Suspension
        package init(defaultRewardCredits: Int, suspension: Suspension) {
            self.defaultRewardCredits = defaultRewardCredits
            self.suspension = suspension
        }
        package struct Suspension: Decodable, Sendable, Equatable {
            package var maxCompletions: Int
            package var windowMinutes: Int
            package var suspendDays: Int
            package init(maxCompletions: Int, windowMinutes: Int, suspendDays: Int) {
                self.maxCompletions = maxCompletions
                self.windowMinutes = windowMinutes
                self.suspendDays = suspendDays
            }
            enum CodingKeys: String, CodingKey {
                case maxCompletions = "max_completions"
                case windowMinutes = "window_minutes"
                case suspendDays = "suspend_days"
            }
        }
        enum CodingKeys: String, CodingKey {
            case defaultRewardCredits = "default_reward_credits"
            case suspension
        }
    }

    enum CodingKeys: String, CodingKey {
        case declaredParams = "params"
        case focusCredits = "focus_credits"
        case carriedCredits = "carried_credits"
        case habitAward = "habit_award"
        case price
    }

    /// Decoded in the order of the file's fields: the params, the knobs, then the functions.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        declaredParams = try container.decodeIfPresent(RuleParams.self, forKey: .declaredParams)
        knobs = try Knobs(from: decoder)
        focusCredits = try container.decode(LuaFunction.self, forKey: .focusCredits)
        carriedCredits = try container.decode(LuaFunction.self, forKey: .carriedCredits)
        habitAward = try container.decode(LuaFunction.self, forKey: .habitAward)
        price = try container.decode(LuaFunction.self, forKey: .price)
    }

    func parameterProblems(in file: RuleFile) -> [RuleProblem] {
        var problems: [RuleProblem] = []
        func require(_ ok: Bool, _ path: String, _ message: @autoclosure () -> String) {
            if !ok { problems.append(file.problem(at: path, "\(path): \(message())")) }
        }
        require(!creditCosts.isEmpty, "credit_costs", "needs at least one unlock length")
        for (i, cost) in creditCosts.enumerated() {
            let path = "credit_costs[\(i + 1)]"
            require((1...24 * 60).contains(cost.minutes), "\(path).minutes", "must be between 1 and 1440, found \(cost.minutes)")
            require(
                (1...1_000_000).contains(cost.credits), "\(path).credits", "must be a positive number of credits, found \(cost.credits)")
            if i > 0 {
                let previous = creditCosts[i - 1]
                require(
                    cost.minutes > previous.minutes, "\(path).minutes",
                    "must be longer than the previous unlock (\(previous.minutes)), found \(cost.minutes)")
                // A4.1: "credit costs must be strictly increasing".
                require(
                    cost.credits > previous.credits, "\(path).credits",
                    "must be greater than the \(previous.minutes)-minute unlock's \(previous.credits) (credit costs must be strictly increasing), found \(cost.credits)"
                )
            }
        }
        require(
            (0...1_000_000).contains(rolloverCap), "rollover_cap",
            "must be between 0 and 1000000 (economy_state CHECK rollover_cap >= 0), found \(rolloverCap)")
        require(
            !focus.presetMinutes.isEmpty && focus.presetMinutes.allSatisfy { (1...24 * 60).contains($0) }, "focus.preset_minutes",
            "must list session lengths between 1 and 1440 minutes, found \(focus.presetMinutes)")
        require(
            (1...24 * 60).contains(focus.minMinutesToQualify), "focus.min_minutes_to_qualify",
            "must be between 1 and 1440, found \(focus.minMinutesToQualify)")
        require(
            (1...24 * 60).contains(focus.minutesPerCredit), "focus.minutes_per_credit",
            "must be between 1 and 1440, found \(focus.minutesPerCredit)")
        require(
            (0...100).contains(habits.defaultRewardCredits), "habits.default_reward_credits",
            "must be between 0 and 100 (habit.reward_credits CHECK), found \(habits.defaultRewardCredits)")
        require(
            habits.suspension.maxCompletions >= 1, "habits.suspension.max_completions",
            "must be at least 1, found \(habits.suspension.maxCompletions)")
        require(
            (1...24 * 60).contains(habits.suspension.windowMinutes), "habits.suspension.window_minutes",
            "must be between 1 and 1440, found \(habits.suspension.windowMinutes)")
        require(
            (1...366).contains(habits.suspension.suspendDays), "habits.suspension.suspend_days",
            "must be between 1 and 366, found \(habits.suspension.suspendDays)")
        return problems
    }
}
