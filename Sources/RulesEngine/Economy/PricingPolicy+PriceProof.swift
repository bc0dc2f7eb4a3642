import LuaHost
import RulesModel

/// `price(ctx)` proved over a bounded domain of situations (issue 17, design §4): every answer is
/// an integer, 0…10,000, and strictly increasing with the length in the same situation.
extension PricingPolicy {
    /// The sampled values of the fields the domain does not enumerate.
    static let proofModes: [(mode: String?, strictness: Strictness)] = [
        (nil, .gentle), ("Focus", .gentle), ("Focus", .strict), ("Focus", .hard),
    ]
    static let proofStreaks = [0, 1, 7, 30, 365]
    static let proofBalances = [0, 10, 45, 100, 1000]
    /// Unlocks today 0…maxUnlocks, of which 0…all for the app.
    static let proofMaxUnlocks = 6
    /// At params other than the defaults, the proof tries one situation in this many.
    static let proofParamsStride = 16

    /// The situations tried, in order: every unlock count × hour × weekday with the other fields
    /// cycling through their samples (the app through `AppID.shapes` weekday by weekday), then for
    /// each app id shape, every unlock count × every sample of the other fields (Monday 12:00).
    /// `params` is empty: the proof and the generators set it.
    package static func proofSituations() -> [PriceContext] {
        let apps = AppID.shapes
        var counts: [(Int, Int)] = []
        for today in 0...proofMaxUnlocks { for ofApp in 0...today { counts.append((today, ofApp)) } }
        var others: [(String?, Strictness, Int, Int)] = []
        for m in proofModes { for s in proofStreaks { for b in proofBalances { others.append((m.mode, m.strictness, s, b)) } } }
        var situations: [PriceContext] = []
        var i = 0
        for (today, ofApp) in counts {
            for weekday in 1...7 {
                for hour in 0...23 {
                    let o = others[(i * 37) % others.count]
                    let app = apps[(i / 24) % apps.count]
                    i += 1
                    situations.append(
                        PriceContext(
                            minutes: 0, app: app, unlocksToday: today, unlocksTodayApp: ofApp, hour: hour, minute: 0,
                            weekday: weekday, mode: o.0, strictness: o.1, streak: o.2, balance: o.3))
                }
            }
        }
        for app in apps {
            for (today, ofApp) in counts {
                for o in others {
                    situations.append(
                        PriceContext(
                            minutes: 0, app: app, unlocksToday: today, unlocksTodayApp: ofApp, hour: 12, minute: 0,
                            weekday: 1, mode: o.0, strictness: o.1, streak: o.2, balance: o.3))
                }
            }
        }
        return situations
    }

    func provePrice(in file: RuleFile, host: LuaHost) -> Counterexamples {
        var proof = Counterexamples(function: price, name: "price", file: file)
        proof.unproved =
            "more than \(Self.proofMaxUnlocks) unlocks today, minutes other than :00, streaks other than "
            + "\(Self.proofStreaks.map(String.init).joined(separator: ", ")), balances other than "
            + "\(Self.proofBalances.map(String.init).joined(separator: ", ")), mode names other than "
            + "\(Set(Self.proofModes.compactMap(\.mode)).sorted().joined(separator: ", ")), "
            + "and some combinations of these with the app, mode, hour and weekday"
        let domain = params.domain()
        if domain.combinations.count > 1 {
            proof.unproved! += ", and params other than the defaults in situations other than one in \(Self.proofParamsStride)"
        }
        if let unproved = domain.unproved { proof.unproved! += ", and " + unproved }
        // Every situation at the params' defaults (the first combination); one in
        // `proofParamsStride` at each other combination, so that a file with many params stays
        // within the validation budget (256 combinations × every situation would be millions of calls).
        let all = Self.proofSituations()
        let stride = Swift.stride(from: 0, to: all.count, by: Self.proofParamsStride).map { all[$0] }
        let situations = domain.combinations.enumerated().flatMap { n, combination in
            (n == 0 ? all : stride).map { situation in
                var situation = situation
                situation.params = combination
                return situation
            }
        }
        for situation in situations {
            if proof.isFinished(host) { break }
            proof.inputs += 1
            var context = situation
            var prices: [CreditCost] = []
            do {
                for cost in creditCosts {
                    context.minutes = cost.minutes
                    prices.append(
                        CreditCost(minutes: cost.minutes, credits: try Counterexamples.integer(host.call(price, Pooled(context), returning: [LuaValue].self).first)))
                }
            } catch {
                proof.record(error, calling: "price(\(context.minutes) minutes; \(situation.situation))")
                continue
            }
            if let problem = PriceBounds.problem(prices, in: situation) {
                proof.record(kind: problem.contains("outside") ? "range" : "monotone", problem)
            }
        }
        return proof
    }
}
