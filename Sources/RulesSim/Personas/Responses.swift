import Foundation
import RulesEngine

/// How a persona's users respond to what the rules just decided and to their own state: each
/// response is an explicit function with declared parameters, so that the probability of each
/// choice a user makes can be computed from what the engine reports and the parameters (what
/// fitting them to a team's logs needs). A persona without `responses` has the defaults below;
/// `responses = { price = false }` switches one off, `responses = false` all of them
/// (docs/simulate.md#responses).
package struct Responses: Decodable, Sendable, Equatable {
    /// At the unlock gate: the wish to pay credits falls with the price and with the share of the
    /// balance it takes (nil: off, the persona's gate weights alone).
    package var price: Price? = Price()
    /// Pressure's reminders: the chance that a reminder gets an answer falls with the reminders
    /// the user received recently (nil: off, `reminder_response` alone).
    package var fatigue: Fatigue? = Fatigue()
    /// Leaving: a daily hazard of leaving for good, from the day's friction and engagement (nil:
    /// off, nobody leaves).
    package var leaving: Leaving? = Leaving()
    /// The habit tracker: the chance of completing a task moves with its current streak (nil:
    /// off, the task's `rate` alone).
    package var streak: Streak? = Streak()
    /// Earned: the wish to earn rises when the balance is short of what the user wants to hold
    /// (nil: off, the persona's focus sessions and habit rates alone).
    package var earning: Earning? = Earning()

    package init() {}

    /// Every response off.
    package static let none: Responses = {
        var r = Responses()
        r.price = nil
        r.fatigue = nil
        r.leaving = nil
        r.streak = nil
        r.earning = nil
        return r
    }()

    /// The price response, a conditional logit (McFadden 1974) over what the user wants at the
    /// gate: the persona's `gate` weights are the odds of credits, a quest, an emergency unlock and
    /// giving up when a credit unlock costs `reference` credits a minute and takes a negligible
    /// share of the balance; the weight of credits is multiplied by
    /// `exp(−sensitivity × (price − reference × minutes) − balance × price / balance held)`, the
    /// price being that of the user's preferred length the gate offers.
    package struct Price: Decodable, Sendable, Equatable {
        /// Change of the log-odds of wanting credits per credit of price above the reference.
        /// Decision (no published value for a focus app's unlocks): 0.04, so that doubling the
        /// 15-minute price of the seeds (25 → 50 credits) divides the odds by e ≈ 2.7.
        package var sensitivity = 0.04
        /// Credits a minute at which the gate weights hold. Decision: the seeds' 15-minute price,
        /// 25 credits (A4.1 `credit_costs`).
        package var reference = 25.0 / 15.0
        /// Change of the log-odds per share of the balance the price takes. Decision: 0.5 (paying
        /// the whole balance divides the odds by e^0.5 ≈ 1.6).
        package var balance = 0.5

        package init() {}
        enum CodingKeys: String, CodingKey { case sensitivity, reference, balance }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            sensitivity = try c.decodeIfPresent(Double.self, forKey: .sensitivity) ?? sensitivity
            reference = try c.decodeIfPresent(Double.self, forKey: .reference) ?? reference
            balance = try c.decodeIfPresent(Double.self, forKey: .balance) ?? balance
        }

        /// The factor on the weight of wanting credits, for a preferred length of `minutes` at `price`
        /// credits, with `held` credits.
        func factor(price: Int, minutes: Int, held: Int) -> Double {
            let p = Double(price)
            let aboveReference: Double = sensitivity * (p - reference * Double(minutes))
            let shareOfBalance: Double = balance * p / Double(max(held, 1))
            return exp(-aboveReference - shareOfBalance)
        }
    }

    /// The fatigue response: the log-odds of answering a reminder (`reminder_response` by tier)
    /// fall by `per_reminder` for each reminder the user received over the last `days` days,
    /// today's so far included (this one too).
    package struct Fatigue: Decodable, Sendable, Equatable {
        /// Change of the log-odds per reminder received. Decision (studies of notification
        /// fatigue report falling engagement with volume but no logit slope to copy): 0.1, so
        /// that 7 reminders in a week halve the odds (e^−0.7 ≈ 0.5).
        package var perReminder = 0.1
        /// The window, in days. Decision: a week, the period of the seeds' escalation.
        package var days = 7

        package init() {}
        enum CodingKeys: String, CodingKey { case perReminder = "per_reminder", days }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            perReminder = try c.decodeIfPresent(Double.self, forKey: .perReminder) ?? perReminder
            days = try c.decodeIfPresent(Int.self, forKey: .days) ?? days
        }

        /// The chance of answering a reminder whose base chance is `p`, after `received` reminders.
        func chance(_ p: Double, received: Int) -> Double { Responses.shift(p, by: -perReminder * Double(received)) }
    }

    /// The leaving response: at the end of each day the user leaves for good (it sends no more
    /// events) with the probability whose log-odds are `logit(base)` plus `denied` per unlock the
    /// gate denied it that day, `high_tier` when Pressure's tier is 2 or more after the day, plus
    /// `reminders` per reminder received that day, plus `engaged` when it did something for itself
    /// that day (a commitment, a YES check-in, a habit completion, an Earned habit or a focus
    /// session started).
    package struct Leaving: Decodable, Sendable, Equatable {
        /// The daily chance of leaving of a user without friction nor engagement. Decision (app
        /// retention benchmarks measure installs, not users who set the app up): 0.01 a day.
        package var base = 0.01
        /// Log-odds per denied unlock. Decision: 0.2.
        package var denied = 0.2
        /// Log-odds on a day that ends at tier 2 or 3. Decision: 0.7 (the odds about double).
        package var highTier = 0.7
        /// Log-odds per reminder received that day. Decision: 0.1.
        package var reminders = 0.1
        /// Log-odds on a day of engagement. Decision: −1 (the odds divided by e).
        package var engaged = -1.0

        package init() {}
        enum CodingKeys: String, CodingKey { case base, denied, highTier = "high_tier", reminders, engaged }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            base = try c.decodeIfPresent(Double.self, forKey: .base) ?? base
            denied = try c.decodeIfPresent(Double.self, forKey: .denied) ?? denied
            highTier = try c.decodeIfPresent(Double.self, forKey: .highTier) ?? highTier
            reminders = try c.decodeIfPresent(Double.self, forKey: .reminders) ?? reminders
            engaged = try c.decodeIfPresent(Double.self, forKey: .engaged) ?? engaged
        }

        /// Whether an applied event of this kind is one of engagement (the user did something for
        /// itself): a commitment, a YES, a habit completion, an Earned habit, a focus session.
        package static func engages(_ kind: EngineEvent.Kind) -> Bool {
            switch kind {
            case .commitment, .checkIn(.yes), .habitCompletion, .earned(.habitCompletion), .earned(.focusStart): true
            default: false
            }
        }

        /// The chance of leaving at the end of a day with this friction and engagement.
        func chance(denied d: Int, tier: Int, reminders r: Int, engaged e: Bool) -> Double {
            let delta: Double = denied * Double(d) + (tier >= 2 ? highTier : 0) + reminders * Double(r) + (e ? engaged : 0)
            return Responses.shift(base, by: delta)
        }
    }

    /// The streak response: the log-odds of each of a due task's completions (its `rate`) move by
    /// `gradient × ln(1 + streak)` (the goal gradient: the longer the streak, the likelier the next
    /// day), plus `at_stake` when the streak is at least `at_risk` days and the user holds no freeze
    /// for the task (loss aversion: a freeze insures it), plus `after_break` on the `break_days` days
    /// after such a streak broke. The streak is the rule set's current streak at the start of the day.
    package struct Streak: Decodable, Sendable, Equatable {
        /// Log-odds per unit of ln(1 + streak). Decision: 0.2 (a 7-day streak adds 0.42).
        package var gradient = 0.2
        /// Log-odds when a streak of `at_risk` days or more is at stake. Decision: 0.4.
        package var atStake = 0.4
        /// The shortest streak whose loss counts. Decision: 3 days.
        package var atRisk = 3
        /// Log-odds on the days after such a streak broke. Decision: −0.5 (the drop after a break).
        package var afterBreak = -0.5
        /// How many days that lasts. Decision: 3.
        package var breakDays = 3

        package init() {}
        enum CodingKeys: String, CodingKey {
            case gradient, atStake = "at_stake", atRisk = "at_risk", afterBreak = "after_break", breakDays = "break_days"
        }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            gradient = try c.decodeIfPresent(Double.self, forKey: .gradient) ?? gradient
            atStake = try c.decodeIfPresent(Double.self, forKey: .atStake) ?? atStake
            atRisk = try c.decodeIfPresent(Int.self, forKey: .atRisk) ?? atRisk
            afterBreak = try c.decodeIfPresent(Double.self, forKey: .afterBreak) ?? afterBreak
            breakDays = try c.decodeIfPresent(Int.self, forKey: .breakDays) ?? breakDays
        }

        /// The chance of a completion whose base chance is `p`, with a current `streak`, a freeze
        /// held or not, `sinceBroken` days after a streak at stake broke (nil: none did).
        func chance(_ p: Double, streak: Int, insured: Bool, sinceBroken: Int?) -> Double {
            var delta: Double = gradient * log(1 + Double(streak))
            if streak >= atRisk, !insured { delta += atStake }
            if let sinceBroken, sinceBroken < breakDays { delta += afterBreak }
            return Responses.shift(p, by: delta)
        }
    }

    /// The earning response: with `shortfall = max(0, target − balance) / target` at the start of
    /// the day (the balance the user holds as it plans its day), Earned's focus sessions a day are
    /// multiplied by `1 + boost × shortfall` and the log-odds of each Earned habit's completion move
    /// by `boost × shortfall`.
    package struct Earning: Decodable, Sendable, Equatable {
        /// The credits the user wants to hold. Decision: 50, two 15-minute unlocks at the seeds' price.
        package var target = 50
        /// The effect of an empty balance. Decision: 0.5 (half as many focus sessions again; the
        /// odds of a habit × e^0.5 ≈ 1.6).
        package var boost = 0.5

        package init() {}
        enum CodingKeys: String, CodingKey { case target, boost }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            target = try c.decodeIfPresent(Int.self, forKey: .target) ?? target
            boost = try c.decodeIfPresent(Double.self, forKey: .boost) ?? boost
        }

        /// How far `balance` is short of the target, 0…1.
        func shortfall(_ balance: Int) -> Double { target <= 0 ? 0 : Double(max(0, target - balance)) / Double(target) }
    }

    /// `p` with its log-odds moved by `delta` (0 and 1 stay as they are, and `p` exactly when `delta` is 0).
    static func shift(_ p: Double, by delta: Double) -> Double {
        guard delta != 0, p > 0, p < 1 else { return p }
        return 1 / (1 + exp(-(log(p / (1 - p)) + delta)))
    }

    enum CodingKeys: String, CodingKey { case price, fatigue, leaving, streak, earning }

    /// The fields `responses` may have.
    static let fieldNames = ["price", "fatigue", "leaving", "streak", "earning"]

    package init(from decoder: any Decoder) throws {
        if let on = Self.switched(decoder) {
            self = on ? Responses() : .none
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        price = try Self.response(Price.self, c, .price, default: Price())
        fatigue = try Self.response(Fatigue.self, c, .fatigue, default: Fatigue())
        leaving = try Self.response(Leaving.self, c, .leaving, default: Leaving())
        streak = try Self.response(Streak.self, c, .streak, default: Streak())
        earning = try Self.response(Earning.self, c, .earning, default: Earning())
    }

    /// `true` or `false` in place of the table, nil for a table (or anything else).
    private static func switched(_ decoder: any Decoder) -> Bool? {
        guard let single = try? decoder.singleValueContainer() else { return nil }
        return try? single.decode(Bool.self)
    }

    /// A response: its default when absent or `true`, nil when `false`, else the table's values.
    private static func response<T: Decodable>(_ type: T.Type, _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, default: T)
        throws -> T?
    {
        guard let value = try c.decodeIfPresent(Switchable<T>.self, forKey: key) else { return `default` }
        switch value {
        case .on: return `default`
        case .off: return nil
        case .set(let set): return set
        }
    }

    /// `true`, `false` or a table of parameters (read in the field's own decoder, so that a table
    /// is not first reported as "expected a boolean").
    private enum Switchable<T: Decodable>: Decodable {
        case on, off, set(T)
        init(from decoder: any Decoder) throws {
            if let on = Responses.switched(decoder) {
                self = on ? .on : .off
            } else {
                self = .set(try T(from: decoder))
            }
        }
    }
}
