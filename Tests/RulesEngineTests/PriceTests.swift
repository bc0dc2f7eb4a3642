import Foundation
import LuaHost
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// pricing.lua's `price(ctx)` at the unlock gate (issue 17): the context it receives, the prices
/// the snapshot records and the choice is charged, and the host's checks of every answer.
@Suite struct PriceTests {
    static let insta = "android:com.instagram.android", ios = "iosToken:AbCDeF"

    /// A user in Vancouver with 200 credits and a STRICT mode "work" every day 09:00–18:00.
    static let setUp = [
        #"{"at": "2026-02-02T08:00:00-08:00", "type": "settings", "timezone": "America/Vancouver"}"#,
        #"{"at": "2026-02-02T08:00:10-08:00", "type": "distracting_apps", "apps": ["android:com.instagram.android", "iosToken:AbCDeF"]}"#,
        #"{"at": "2026-02-02T08:00:20-08:00", "type": "mode", "mode": "work", "strictness": "STRICT", "priority": 1, "windows": [{"days": [1, 2, 3, 4, 5, 6, 7], "start": "09:00", "end": "18:00"}]}"#,
        #"{"at": "2026-02-02T08:00:40-08:00", "type": "earned_habit", "habit": "run", "reward_credits": 100}"#,
        #"{"at": "2026-02-02T08:00:50-08:00", "type": "earned_habit", "habit": "read", "reward_credits": 100}"#,
        #"{"at": "2026-02-02T08:05:00-08:00", "type": "earned_habit_completion", "habit": "run"}"#,
        #"{"at": "2026-02-02T08:06:00-08:00", "type": "earned_habit_completion", "habit": "read"}"#,
    ]

    static func open(_ time: String, _ app: String) -> String {
        #"{"at": "2026-02-02T\#(time)-08:00", "type": "unlock_open", "app": "\#(app)"}"#
    }
    static func choose(_ time: String, _ app: String, minutes: Int) -> String {
        #"{"at": "2026-02-02T\#(time)-08:00", "type": "unlock_choose", "app": "\#(app)", "option": "CREDITS_UNLOCK", "minutes": \#(minutes)}"#
    }

    func prices(_ out: JSONValue) -> [Int] {
        (out.at("decisions", "unlock_gate", "available_options", "options")?.array?.first?.at("durations")?.array ?? [])
            .compactMap { $0.at("cost_credits")?.int }
    }

    @Test func priceReceivesTheSituationWhenTheGateOpens() throws {
        let rules = MisbehavingRules()
        let h = try ReplayHarness(rules: rules)
        h.run(
            Self.setUp + [
                Self.open("09:00:00", Self.insta), Self.choose("09:00:10", Self.insta, minutes: 5),
                Self.open("10:30:00", Self.ios),
            ])
        let last = try #require(rules.pricesAsked.last)
        #expect(rules.pricesAsked.suffix(3).map(\.minutes) == [5, 15, 30])
        #expect(last.app.rawValue == Self.ios)
        #expect(last.unlocksToday == 1 && last.unlocksTodayApp == 0)
        #expect(last.hour == 10 && last.minute == 30 && last.weekday == 1)  // Monday, local time
        #expect(last.mode == "work" && last.strictness == .strict)
        #expect(last.balance == 190 && last.streak == 1)
        // The first gate of the day: no unlock yet.
        #expect(rules.pricesAsked.first?.unlocksToday == 0)
    }

    /// A4.2's snapshot: a CREDITS choice is charged the price the gate showed, even when `price`
    /// would answer differently at the choice (another unlock was granted in between).
    @Test func theChoiceIsChargedThePriceItsGateShowed() throws {
        let rules = MisbehavingRules()
        rules.priceOf = { ctx in [5: 10, 15: 25, 30: 45][ctx.minutes]! * (1 + ctx.unlocksToday) }
        let h = try ReplayHarness(rules: rules)
        let outs = h.run(
            Self.setUp + [
                Self.open("11:00:00", Self.insta), Self.open("11:00:05", Self.ios),
                Self.choose("11:00:10", Self.ios, minutes: 5), Self.choose("11:00:20", Self.insta, minutes: 15),
            ])
        let n = Self.setUp.count
        #expect(prices(outs[n]) == [10, 25, 45])
        #expect(outs[n + 2].at("decisions", "unlock", "cost_credits") == .int(10))
        // Priced now it would be 50 (one unlock granted since); the gate showed 25.
        #expect(outs[n + 3].at("decisions", "unlock", "cost_credits") == .int(25))
        #expect(outs[n + 3].at("state", "earned", "credit_balance") == .int(200 - 10 - 25))
        // The next gate sees both unlocks.
        let next = h.one(Self.open("11:30:00", Self.insta))
        #expect(prices(next) == [30, 75, 135])
    }

    @Test(arguments: [
        (
            { (c: PriceContext) in c.minutes == 30 ? 10_001 : 10 * c.minutes } as @Sendable (PriceContext) -> Int,
            "price returned 10001 credits for 30 minutes, outside 0…10000"
        ),
        (
            { (c: PriceContext) in c.minutes == 5 ? -1 : c.minutes } as @Sendable (PriceContext) -> Int,
            "price returned -1 credits for 5 minutes, outside 0…10000"
        ),
        (
            { (c: PriceContext) in c.minutes == 15 ? 10 : c.minutes * 2 } as @Sendable (PriceContext) -> Int,
            "price returned 10 credits for 15 minutes, not more than the 10 for 5 minutes: prices must be strictly increasing with the length"
        ),
    ])
    func aBrokenPriceIsARuleViolationThatChangesNothing(price: @escaping @Sendable (PriceContext) -> Int, message: String) throws {
        let rules = MisbehavingRules()
        let h = try ReplayHarness(rules: rules)
        h.run(Self.setUp + [Self.open("09:00:00", Self.insta)])
        let before = try h.engine.store!.dump()
        rules.priceOf = price
        // The waiting attempt would expire and a new one open: neither happens.
        let refused = h.one(Self.open("09:05:00", Self.insta))
        #expect(refused.at("error", "code") == .string("RULE_VIOLATION"))
        let text = refused.at("error", "message")?.string ?? ""
        #expect(text.contains(message), "\(text)")
        #expect(
            text.contains(
                "app android:com.instagram.android, 0 unlocks today (0 of this app), Monday 09:05, mode work STRICT, streak 1, balance 200"),
            "\(text)")
        #expect(try h.engine.store!.dump() == before)
        // The attempt opened before still waits, at its own prices.
        rules.priceOf = nil
        let chosen = h.one(Self.choose("09:05:10", Self.insta, minutes: 5))
        #expect(chosen.at("decisions", "unlock", "cost_credits") == .int(10))
    }

    /// The default rule is the table, in Lua and in the native reference, whatever the situation.
    @Test func theDefaultPriceIsTheTableInEverySituation() throws {
        let lua = try RuleSet.load(RuleFixture.rulesFolder.path), native = NativeReference()
        let app = try #require(AppID(rawValue: Self.insta))
        for today in [0, 1, 5, 40] {
            for hour in [0, 9, 23] {
                for (mode, strictness) in [(nil, Strictness.gentle), ("work", .hard)] {
                    for cost in NativeReference.pricing.creditCosts {
                        let ctx = PriceContext(
                            minutes: cost.minutes, app: app, unlocksToday: today, unlocksTodayApp: today / 2, hour: hour,
                            minute: 15, weekday: 3, mode: mode, strictness: strictness, streak: today, balance: 7)
                        #expect(try lua.price(ctx) == cost.credits)
                        #expect(try native.price(ctx) == cost.credits)
                    }
                }
            }
        }
    }

    /// Every situation of a day for `app` (each quarter hour, four balances, with and without a
    /// mode), at every length.
    static func situations(_ app: AppID) -> [PriceContext] {
        var all: [PriceContext] = []
        for hour in 0..<24 {
            for minute in [0, 15, 30, 45] {
                for balance in [0, 50, 100, 500] {
                    for (mode, strictness) in [(nil, Strictness.gentle), ("work", .hard)] {
                        all.append(
                            PriceContext(
                                minutes: 0, app: app, unlocksToday: hour / 3, unlocksTodayApp: hour / 6, hour: hour, minute: minute,
                                weekday: 1 + hour % 7, mode: mode, strictness: strictness, streak: minute / 15, balance: balance))
                    }
                }
            }
        }
        return all
    }

    /// A price is remembered by the fields of its context the rule read: the default rule reads the
    /// length only, so a user's gates ask it once per length, and a rule that reads the hour (and,
    /// at night, the balance) gets each situation's own price, remembered or not.
    @Test func aPriceIsRememberedByTheFieldsItsRuleRead() throws {
        let app = try #require(AppID(rawValue: Self.insta))
        let counting = MisbehavingRules(base: try RuleSet.load(RuleFixture.rulesFolder.path))
        counting.forwardsPriceReads = true
        let remembered = counting.remembering()
        for situation in Self.situations(app) {
            #expect(try remembered.prices(in: situation).map(\.credits) == [10, 25, 45])
        }
        #expect(counting.pricesAsked.map(\.minutes) == [5, 15, 30])

        let night = try RuleFixture.edited(
            [
                (
                    "  error(\"no unlock of \" .. ctx.minutes .. \" minutes in credit_costs\")",
                    "  error(\"no unlock of \" .. ctx.minutes .. \" minutes in credit_costs\")\nend\nlocal base = M.price\nfunction M.price(ctx)\n  local credits = base(ctx)\n  if ctx.hour >= 22 and ctx.balance >= 100 then return credits * 2 end\n  return credits"
                )
            ], in: "pricing.lua")
        let rules = try RuleSet.load(try RuleFixture.folder(replacing: "pricing.lua", with: night).path)
        let nightCounting = MisbehavingRules(base: rules)
        nightCounting.forwardsPriceReads = true
        let nightRemembered = nightCounting.remembering()
        var doubled = 0
        for situation in Self.situations(app) {
            let prices = try nightRemembered.prices(in: situation).map(\.credits)
            #expect(prices == (try rules.prices(in: situation).map(\.credits)))
            if prices == [20, 50, 90] { doubled += 1 }
        }
        #expect(doubled == 2 * 4 * 2 * 2)  // 22:00 and 23:00, four quarters, two balances, two modes
        // Asked once per length for each hour, and at night once more per balance read.
        #expect(nightCounting.pricesAsked.count == 3 * (22 + 2 * 4))
    }
}
