import Foundation
import LuaHost
import RulesModel
import Testing

@testable import RulesSim

/// Personas' responses to the rules' decisions: declared, checked, switchable, and each a
/// function whose probabilities follow the formula the docs give.
@Suite struct ResponsesTests {
    /// A habit tracker persona with `responses` (a line of its table).
    private func load(_ responses: String) throws -> Result<Persona, InputFileError> {
        try SimTestSupport.loadPersona(
            """
            return {
              description = "x",
              habits = { { task = "read", rate = 0.5 } },
            \(responses)
            }
            """)
    }

    @Test func aPersonaHasTheDefaultsUnlessItSwitchesResponsesOff() throws {
        #expect(try load("").get().spec.responses == Responses())
        #expect(try load("responses = false,").get().spec.responses == .none)
        #expect(try load("responses = true,").get().spec.responses == Responses())
        #expect(try load("responses = { price = false },").get().spec.responses.price == nil)
        let set = try load("responses = { price = { sensitivity = 0.1 } },").get().spec.responses.price
        #expect(set?.sensitivity == 0.1 && set?.reference == Responses.Price().reference && set?.balance == Responses.Price().balance)
    }

    @Test func aBadResponseIsRefusedAtItsLine() throws {
        guard case .failure(let error) = try load("responses = {\n  price = { sensitivity = 2, refrence = 1 },\n},") else {
            Issue.record("accepted")
            return
        }
        let lines = error.problems.map { "\($0.line ?? 0): \($0.message)" }
        #expect(lines.contains("5: responses.price.sensitivity: expected 0…1, found 2.0"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("5: responses.price.refrence: unknown field") && $0.contains("'reference'") }, "\(lines)")
        guard case .failure(let other) = try load("responses = { prize = false },") else {
            Issue.record("accepted")
            return
        }
        #expect(other.problems.contains { $0.message.contains("prize") }, "\(other.problems)")
    }

    @Test func thePriceFactorIsTheDocumentedFormula() {
        let price = Responses.Price()
        // At the reference price, with a balance far above it: no change but the balance's share.
        let atReference = price.factor(price: 25, minutes: 15, held: 1_000_000)
        #expect(abs(atReference - exp(-0.5 * 25 / 1_000_000)) < 1e-12)
        // Doubling the price divides the odds by e (and by the larger share of the balance).
        let doubled = price.factor(price: 50, minutes: 15, held: 100)
        #expect(abs(doubled - exp(-0.04 * (50 - 25.0) - 0.5 * 0.5)) < 1e-12)
    }

    /// A higher price means fewer who want credits, more quests and give-ups; off, the price changes nothing.
    @Test func theWishToPayFallsWithThePrice() {
        var gate = EarnedPersona.Gate()
        (gate.credits, gate.quest, gate.emergency, gate.creditMinutes, gate.questTypes) = (0.5, 0.3, 0.05, [15], ["BREATHING"])
        func shares(_ cost: Int, _ response: Responses.Price?) -> (credits: Double, quest: Double, none: Double) {
            let options = AvailableOptions(
                generatedAt: 0, modeID: nil, modeStrictness: .strict, appID: AppID(rawValue: "android:a")!,
                options: [
                    .credits(enabled: true, disabledReason: nil, durations: [.init(minutes: 15, costCredits: cost, enabled: true)]),
                    .quest(enabled: true, disabledReason: nil, questTypes: [.init(questType: .breathing, enabled: true)]),
                ])
            var random = SimRandom(seed: 7, user: 1)
            var counts = (credits: 0, quest: 0, none: 0)
            let n = 20_000
            for _ in 0..<n {
                switch gate.choose(GateOptions(options), mayInsist: true, price: response, held: 200, &random) {
                case .credits?: counts.credits += 1
                case .quest?: counts.quest += 1
                default: counts.none += 1
                }
            }
            return (Double(counts.credits) / Double(n), Double(counts.quest) / Double(n), Double(counts.none) / Double(n))
        }
        let cheap = shares(10, Responses.Price()), dear = shares(60, Responses.Price())
        #expect(cheap.credits > dear.credits + 0.15 && cheap.quest < dear.quest && cheap.none < dear.none, "\(cheap) \(dear)")
        // The share the formula gives: credits' weight × factor over the weights' sum.
        let factor = Responses.Price().factor(price: 60, minutes: 15, held: 200)
        let expected = 0.5 * factor / (0.5 * factor + 0.3 + 0.05 + 0.15)
        #expect(abs(dear.credits - expected) < 0.015, "\(dear.credits) vs \(expected)")
        let off10 = shares(10, nil), off60 = shares(60, nil)
        #expect(off10 == off60)
    }

    @Test func remindersTireTheUserAsTheDocsSay() throws {
        let fatigue = Responses.Fatigue()
        #expect(fatigue.chance(0.6, received: 0) == 0.6)
        let tired = fatigue.chance(0.6, received: 7)
        #expect(abs(tired - 1 / (1 + exp(-(log(0.6 / 0.4) - 0.7)))) < 1e-12)
        #expect(fatigue.chance(1, received: 50) == 1 && fatigue.chance(0, received: 0) == 0)
        guard case .failure(let error) = try load("responses = { fatigue = { days = 0 } },") else {
            Issue.record("accepted")
            return
        }
        #expect(error.problems.map(\.message) == ["responses.fatigue.days: expected 1…90, found 0"])
    }

    @Test func theChanceOfLeavingIsTheDocumentedFormula() {
        let leaving = Responses.Leaving()
        #expect(abs(leaving.chance(denied: 0, tier: 0, reminders: 0, engaged: false) - 0.01) < 1e-15)
        let rough = leaving.chance(denied: 2, tier: 3, reminders: 3, engaged: true)
        let logit = log(0.01 / 0.99) + 0.2 * 2 + 0.7 + 0.1 * 3 - 1
        #expect(abs(rough - 1 / (1 + exp(-logit))) < 1e-12)
    }

    /// Users leave for good: they send no more events, stay in the cohort's count, and the apps'
    /// figures are over the users still active; with responses off, nobody leaves.
    @Test func aUserWhoLeftSendsNoMoreEvents() throws {
        let dir = try SimTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("leaver.lua").path
        /// 20 Pressure and habit users of 10 days with these `responses`.
        func run(_ responses: String) throws -> SimulationReport {
            try """
            return {
              description = "Leaves soon",
              commit = 0.9,
              answer = { yes = 0.8, no = 0.1 },
              habits = { { task = "read", rate = 0.5 } },
              responses = \(responses),
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
            return try Simulation(config: try SimTestSupport.config(days: 10, users: 20, mix: path)).run()
        }
        let report = try run("{ leaving = { base = 0.3 } }")
        let active = report.days.map(\.active)
        #expect(active == active.sorted(by: >) && active.last! < 20 && active.first! == 20, "\(active)")
        for day in report.days {
            #expect(day.users == 20 && day.pressureUsers == day.active && day.habitUsers == day.active)
        }
        let s = ReportSummary(report)
        #expect(s.retained(onDay: 7) == Double(active[6]) / 20 && Metric.retainedDay30.value(s) == Double(active[9]) / 20)
        #expect(report.days.last!.events < report.days.first!.events)
        #expect(report.table().contains("  active users                \(active.last!) of 20 at the end"))

        let stays = try run("false")
        #expect(stays.days.allSatisfy { $0.active == 20 } && !stays.table().contains("active users"))
    }

    @Test func aStreakAtStakeIsKeptMoreAndABrokenOneLess() {
        let streak = Responses.Streak()
        let base = 0.5
        let none = streak.chance(base, streak: 0, insured: false, sinceBroken: nil)
        #expect(none == base)
        let week = streak.chance(base, streak: 7, insured: false, sinceBroken: nil)
        #expect(abs(week - 1 / (1 + exp(-(0.2 * log(8.0) + 0.4)))) < 1e-12)
        // A freeze held insures the streak: no loss aversion.
        #expect(streak.chance(base, streak: 7, insured: true, sinceBroken: nil) < week)
        // Just after a break, for `break_days` days.
        #expect(streak.chance(base, streak: 0, insured: false, sinceBroken: 0) < base)
        #expect(streak.chance(base, streak: 0, insured: false, sinceBroken: 3) == base)
    }

    /// The simulation reads each task's current streak at the end of the day: the metric, and
    /// what the next day's chance uses; with the response, streaks run longer.
    @Test func habitStreaksAreCountedAndTheResponseLengthensThem() throws {
        var config = try SimTestSupport.config(days: 21, users: 40, mix: "streak-keeper")
        let with = try Simulation(config: config).run()
        config.responses = false
        let without = try Simulation(config: config).run()
        for report in [with, without] {
            for day in report.days { #expect(day.habitStreaks.reduce(0, +) == day.habitUsers * 3, "3 tasks a user") }
        }
        let a = Metric.habitCompletionRate.value(ReportSummary(with)), b = Metric.habitCompletionRate.value(ReportSummary(without))
        #expect(a > b, "\(a) \(b)")
    }

    @Test func aShortBalanceMakesTheUserEarnMore() {
        let earning = Responses.Earning()
        #expect(earning.shortfall(0) == 1 && earning.shortfall(25) == 0.5 && earning.shortfall(80) == 0)
        #expect(Responses.shift(0.4, by: 0) == 0.4)
        #expect(abs(Responses.shift(0.4, by: earning.boost * earning.shortfall(0)) - 1 / (1 + exp(-(log(0.4 / 0.6) + 0.5)))) < 1e-12)
    }
}

/// What the responses are for: the knob being tuned moves what users do.
@Suite struct ResponsesEffectTests {
    /// A sweep of the focus users' preferred (15-minute) price: credit unlocks fall at each step,
    /// significantly from the cheapest to the dearest; without responses they barely move.
    @Test func aDearerUnlockSellsFewerUnlocksAtEachStep() throws {
        var config = try SimTestSupport.config(days: 5, users: 120, mix: "focus-user")
        config.jobs = 2
        let knob = try SweepKnob("pricing.credit_costs[2].credits=12,25,40")
        func unlocks(_ config: SimulationConfig) throws -> [Estimate] {
            let sweep = try Sweep(config: config, knobs: [knob], mode: .oneAtATime, metrics: [.creditUnlocksPerUserDay])
            // In the order of the price (the base's row may come first).
            let rows = try sweep.run().compactMap { row in row.estimates?.first.map { (row.variant.values[0].integerValue ?? 0, $0) } }
            return rows.sorted { $0.0 < $1.0 }.map(\.1)
        }
        let with = try unlocks(config)
        #expect(with.count == 3)
        #expect(with[0].mean > with[1].mean && with[1].mean > with[2].mean, "\(with)")
        #expect(with[0].low > with[2].high, "\(with)")
        config.responses = false
        let without = try unlocks(config)
        #expect(abs(without[0].mean - without[2].mean) < (with[0].mean - with[2].mean) / 2, "\(without.map(\.mean)) \(with.map(\.mean))")
    }
}

/// The responses are designed to be fitted: each choice's probability is a formula of what the
/// engine reported and the parameters. Here the price sensitivity is recovered, by maximum
/// likelihood, from choices made at gates of random prices and balances.
@Suite struct PriceSensitivityRecoveryTests {
    /// The log-likelihood's first and second derivatives in `sensitivity` of whether each gate
    /// ended in credits, the other parameters known.
    static func fit(_ gates: [(price: Int, held: Int, credits: Bool)], gate: EarnedPersona.Gate) -> (estimate: Double, se: Double) {
        var s = 0.0
        var info = 1.0
        for _ in 0..<50 {
            var (d1, d2) = (0.0, 0.0)
            var response = Responses.Price()
            response.sensitivity = s
            for g in gates {
                let weight = gate.credits * response.factor(price: g.price, minutes: 15, held: g.held)
                let rest = gate.quest + gate.emergency + (1 - gate.credits - gate.quest - gate.emergency)
                let p = weight / (weight + rest)
                // d log f / d s = −(price − reference × minutes); the logit's score and information.
                let x = -(Double(g.price) - response.reference * 15)
                d1 += ((g.credits ? 1 : 0) - p) * x
                d2 += p * (1 - p) * x * x
            }
            let step = d1 / d2
            s += step
            info = d2
            if abs(step) < 1e-10 { break }
        }
        return (s, 1 / info.squareRoot())
    }

    @Test func theDeclaredSensitivityIsWithinTheFitsInterval() {
        var gate = EarnedPersona.Gate()
        (gate.credits, gate.quest, gate.emergency, gate.creditMinutes, gate.questTypes) = (0.5, 0.3, 0.05, [15], ["BREATHING"])
        let truth = Responses.Price()
        var draws = SimRandom(seed: 3, user: 1)
        var covered = 0
        let fits = 40
        for f in 0..<fits {
            var random = SimRandom(seed: 100 + UInt64(f), user: 2)
            var gates: [(price: Int, held: Int, credits: Bool)] = []
            for _ in 0..<1_500 {
                let price = draws.int(5, 60), held = draws.int(60, 400)
                let options = AvailableOptions(
                    generatedAt: 0, modeID: nil, modeStrictness: .strict, appID: AppID(rawValue: "android:a")!,
                    options: [
                        .credits(enabled: true, disabledReason: nil, durations: [.init(minutes: 15, costCredits: price, enabled: true)]),
                        .quest(enabled: true, disabledReason: nil, questTypes: [.init(questType: .breathing, enabled: true)]),
                    ])
                let choice = gate.choose(GateOptions(options), mayInsist: false, price: truth, held: held, &random)
                if case .credits? = choice { gates.append((price, held, true)) } else { gates.append((price, held, false)) }
            }
            // (The balance's share is known here; the fit is of the sensitivity alone.)
            let (estimate, se) = Self.fit(gates, gate: gate)
            if abs(estimate - truth.sensitivity) <= 1.96 * se { covered += 1 }
        }
        // A 95% interval covers the truth in about 38 of 40 fits; fewer than 33 would be 3.5
        // standard errors of a binomial(40, 0.95) below.
        #expect(covered >= 33, "\(covered) of \(fits)")
    }
}
