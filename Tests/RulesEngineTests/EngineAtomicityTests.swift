import LuaHost
import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Rules that misbehave at run time, for the engine's own checks.
final class MisbehavingRules: PolicyRules {
    /// The rules answering what is not changed (the native reference, or a Lua rule set).
    let base: any PolicyRules
    init(base: any PolicyRules = NativeReference()) { self.base = base }
    /// The transition's tier after a NO (out of range when > 3).
    var tierAfterNo = 5
    var failReminders = false

    var escalationKnobs: EscalationPolicy.Knobs { base.escalationKnobs }
    var streakKnobs: StreakPolicy.Knobs { base.streakKnobs }
    var streakParams: RuleParams { base.streakParams }
    var priceParams: RuleParams { base.priceParams }
    func transition(_ state: EscalationCounters, _ result: CommitmentStatus) throws -> EscalationCounters {
        var next = try base.transition(state, result)
        if result == .no { next.tier = tierAfterNo }
        return next
    }
    func reminderTimes(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime] {
        if failReminders { return [open, LocalTime(minutes: open.minutes + 5)!] }  // 5 minutes apart
        return try base.reminderTimes(tier: tier, open: open, close: close)
    }
    func pressureStreak(_ streak: PressureStreak, day: PressureDay) throws -> PressureStreak { try base.pressureStreak(streak, day: day) }
    /// What habit.streak returns instead of the reference's answer.
    var habitStreakAnswer: HabitStreak?
    /// What habit.streak was last asked.
    var habitStreakAsked: (periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord)?
    func habitStreak(_ periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord) throws -> HabitStreak {
        habitStreakAsked = (periods, task, user)
        return try habitStreakAnswer ?? base.habitStreak(periods, task: task, user: user)
    }
    func migaStreak(_ exitsPerDay: [Int]) throws -> Int { try base.migaStreak(exitsPerDay) }
    func earnedQualification(focusMinutes: Int, habitCompletions: Int) throws -> StreakQualificationMethod? {
        try base.earnedQualification(focusMinutes: focusMinutes, habitCompletions: habitCompletions)
    }
    func earnedBonus(streakCount: Int) throws -> Int { try base.earnedBonus(streakCount: streakCount) }
    /// What earned.day_ends returns instead of the reference's answer.
    var dayEndsAnswer: ((EarnedDayEnd) -> EarnedStreak)?
    func earnedDayEnds(_ day: EarnedDayEnd) throws -> EarnedStreak { try dayEndsAnswer?(day) ?? base.earnedDayEnds(day) }

    /// Credits carried over the rollover beyond the balance.
    var carryExtra = 0
    /// Quests offered in HARD mode.
    var questsInHard = false
    var pricingKnobs: PricingPolicy.Knobs { base.pricingKnobs }
    var questKnobs: QuestPolicy.Knobs { base.questKnobs }
    func questBlocked(_ gate: QuestGate) throws -> UnlockDenialReason? {
        if questsInHard && gate.strictness == .hard { return nil }
        return try base.questBlocked(gate)
    }
    func emergencyBlocked(_ gate: EmergencyGate) throws -> UnlockDenialReason? { try base.emergencyBlocked(gate) }
    /// Prices in place of the table's, when set.
    var priceOf: ((PriceContext) -> Int)?
    /// The situations `price` was asked about, in order.
    var pricesAsked: [PriceContext] = []
    func price(_ context: PriceContext) throws -> Int {
        pricesAsked.append(context)
        return try priceOf?(context) ?? base.price(context)
    }
    /// When set (and `priceOf` is not), a price comes with the fields the base rules read, as
    /// theirs do; otherwise with all of them.
    var forwardsPriceReads = false
    func readingPrice(_ context: PriceContext) throws -> (credits: Int, read: LuaFieldReads) {
        guard forwardsPriceReads, priceOf == nil else { return (try price(context), .all) }
        pricesAsked.append(context)
        return try base.readingPrice(context)
    }
    func focusCredits(_ session: FocusOutcome) throws -> Int { try base.focusCredits(session) }
    func carriedCredits(balance: Int) throws -> Int { try base.carriedCredits(balance: balance) + carryExtra }
    func habitAward(rewardCredits: Int, completionsInWindow: Int) throws -> HabitAward {
        try base.habitAward(rewardCredits: rewardCredits, completionsInWindow: completionsInWindow)
    }
    func effectiveMode(_ modes: [ModeCandidate], at now: LocalMoment) throws -> Int? { try base.effectiveMode(modes, at: now) }
}

@Suite struct EngineAtomicityTests {
    @Test func aDecisionThatBreaksAnInvariantChangesNothing() throws {
        let rules = MisbehavingRules()
        let engine = Engine(store: try Store.inMemory(), rules: rules)
        let replay = Replay(engine: engine)
        #expect(replay.output(forLine: Ev.commit(2), number: 1)["ok"] == .bool(true))
        let before = try engine.store!.dump()
        let refused = replay.output(forLine: Ev.checkIn(2, "NO"), number: 2)
        #expect(refused.at("error", "code") == .string("RULE_VIOLATION"))
        #expect(refused.at("error", "message")?.string?.contains("returned tier 5, outside 0–3") == true)
        #expect(try engine.store!.dump() == before)
        // Fixed rules: the same event now goes through.
        rules.tierAfterNo = 1
        #expect(replay.output(forLine: Ev.checkIn(2, "NO"), number: 3).at("state", "current_tier") == .int(1))
    }

    /// Each host check of habit.streak's result refuses the completion, naming the task, and
    /// nothing is written nor counted: the same completion then goes through as the period's second.
    @Test(arguments: [
        (
            HabitStreak(current: -1),
            "habit.streak returned current -1, outside 0…1 (the number of periods) for the 1 periods of task \"read\""
        ),
        (HabitStreak(current: 1, best: []), "habit.streak returned no best streak while current is 1 for the 1 periods of task \"read\""),
        (HabitStreak(current: 1, score: .nan), "habit.streak returned score nan, outside 0…1 for the 1 periods of task \"read\""),
    ])
    func aHabitStreakTheHostRefusesChangesNothing(_ answer: HabitStreak, _ message: String) throws {
        let rules = MisbehavingRules()
        let engine = Engine(store: try Store.inMemory(), rules: rules)
        let replay = Replay(engine: engine)
        let completion = #"{"at": "2026-03-02T09:00:00Z", "type": "habit_completion", "task": "read"}"#
        #expect(
            replay.output(forLine: #"{"at": "2026-03-02T08:00:00Z", "type": "habit_task", "task": "read"}"#, number: 1)["ok"] == .bool(true)
        )
        #expect(replay.output(forLine: completion, number: 2)["ok"] == .bool(true))
        let before = try engine.store!.dump()
        rules.habitStreakAnswer = answer
        let refused = replay.output(forLine: completion, number: 3)
        #expect(refused.at("error", "code") == .string("RULE_VIOLATION"))
        #expect(refused.at("error", "message")?.string?.hasSuffix(message) == true, "\(refused)")
        #expect(try engine.store!.dump() == before)
        rules.habitStreakAnswer = nil
        let accepted = replay.output(forLine: completion, number: 4)
        #expect(accepted.at("decisions", "habit_completion", "completions_in_period") == .int(2), "\(accepted)")
    }

    @Test func timePassingIsPartOfTheSameTransaction() throws {
        let rules = MisbehavingRules()
        let engine = Engine(store: try Store.inMemory(), rules: rules)
        let replay = Replay(engine: engine)
        #expect(replay.output(forLine: Ev.commit(2), number: 1)["ok"] == .bool(true))
        let before = try engine.store!.dump()
        // The next day's schedule needs reminders; bad ones make the whole event (and the miss of
        // day 2 that the same time passing recorded) refused.
        rules.failReminders = true
        let refused = replay.output(forLine: Ev.tick(3, "10:00"), number: 2)
        #expect(refused.at("error", "code") == .string("RULE_VIOLATION"))
        #expect(try engine.store!.dump() == before)
        rules.failReminders = false
        let retried = replay.output(forLine: Ev.tick(3, "10:00"), number: 3)
        #expect(retried.at("decisions", "days")?.array?.count == 2)  // day 2 MISSED at its close, day 3 at its deadline
    }
}

/// An engine applying events on their own keeps the last event's context for the same user's next
/// event only while nothing else writes: what another engine wrote in between is read again.
@Suite struct EngineAtomicKeptContextTests {
    /// `first` commits day 2; `other` checks day 2 in (NO); `first`'s next events must see it.
    func checkInSeenBy(_ first: Engine, after other: Engine) {
        let a = Replay(engine: first), b = Replay(engine: other)
        #expect(a.output(forLine: Ev.commit(2), number: 1)["ok"] == .bool(true))
        let checked = b.output(forLine: Ev.checkIn(2, "NO"), number: 1)
        #expect(checked["ok"] == .bool(true), "\(checked)")
        // Nothing happens between 12:00 and 12:30: the state is the one the check-in left.
        let tick = a.output(forLine: Ev.tick(2, "12:30"), number: 2)
        #expect(tick["state"] == checked["state"], "\(tick)")
        let again = a.output(forLine: Ev.checkIn(2, "YES", "12:40"), number: 3)
        #expect(again.at("error", "code") == .string("ALREADY_CHECKED_IN"), "\(again)")
    }

    @Test func aWriteThroughTheSameStoreIsSeen() throws {
        let store = try Store.inMemory()
        checkInSeenBy(Engine(store: store, rules: NativeReference()), after: Engine(store: store, rules: NativeReference()))
    }

    @Test func aWriteThroughAnotherConnectionIsSeen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let one = try Store.open(path: path), two = try Store.open(path: path)
        checkInSeenBy(Engine(store: one, rules: NativeReference()), after: Engine(store: two, rules: NativeReference()))
    }

    /// A refused event after a kept context changes nothing, and the next event starts from the store.
    @Test func aRefusedEventDropsTheKeptContext() throws {
        let rules = MisbehavingRules()
        let engine = Engine(store: try Store.inMemory(), rules: rules)
        let replay = Replay(engine: engine)
        for (n, line) in (Ev.day(2, "YES") + [Ev.commit(3)]).enumerated() {
            #expect(replay.output(forLine: line, number: n + 1)["ok"] == .bool(true))
        }
        let before = try engine.store!.dump()
        #expect(replay.output(forLine: Ev.checkIn(3, "NO"), number: 4).at("error", "code") == .string("RULE_VIOLATION"))
        #expect(try engine.store!.dump() == before)
        rules.tierAfterNo = 1
        let accepted = replay.output(forLine: Ev.checkIn(3, "NO"), number: 5)
        #expect(accepted.at("state", "current_tier") == .int(1), "\(accepted)")
    }
}

@Suite struct HostileEventTests {
    @Test func eventsFarApartAreRefusedInsteadOfWalkingMillionsOfDays() throws {
        let h = try ReplayHarness()
        h.run([Ev.commit(2)])
        let far = h.one(#"{"at": "2997-12-31T00:00:00Z", "type": "tick"}"#)
        #expect(far.at("error", "code") == .string("OUT_OF_ORDER"))
        #expect(far.at("error", "message")?.string?.contains("3 years") == true)
        let early = h.one(#"{"at": "1969-12-31T23:00:00Z", "type": "tick"}"#)
        #expect(early.at("error", "code") == .string("INVALID_EVENT"))
    }

    @Test func aSlowRuleSetStopsValidationWithinItsBudget() throws {
        // Every call burns ~1.5 million instructions: validation stops instead of running for minutes.
        let problems = try RuleFixture.problems(
            "  local result = check_in.result\n",
            "  local result = check_in.result\n  local x = 0\n  for i = 1, 300000 do x = x + i end\n")
        #expect(problems.contains { $0.message.contains("validation stopped after") }, "\(problems)")
        // Once, naming the functions it did not reach, not once per function.
        #expect(problems.filter { $0.message.contains("validation stopped after") }.count == 1, "\(problems)")
        #expect(problems.contains { $0.message.contains("not proved either: reminder_times, pressure.next") }, "\(problems)")
    }

    /// A rule that recurses for ever is one problem, at its line: validation stops trying that
    /// function at the first stack overflow or budget error (each takes a tenth of a second;
    /// validation went on for minutes) and proves the others.
    @Test(arguments: [
        "  local function f(n) return f(n + 1) + 1 end\n  f(1)\n",
        "  local function f(n) return f(n + 1) + 1 end\n  for i = 1, 1000 do pcall(f, 1) end\n",
    ])
    func aRuleThatRecursesForEverIsOneProblem(_ body: String) throws {
        let problems = try RuleFixture.problems("  local result = check_in.result\n", "  local result = check_in.result\n" + body)
        #expect(problems.count == 1, "\(problems)")
        // The stack and frames the recursion allocates are charged to the call: its budget may run out
        // in the recursion (the line of f) before the overflow is caught (the pcall's line).
        let line = try RuleFixture.line(of: "  local result = check_in.result\n") + 1
        #expect([line, line + 1].contains(problems.first?.line ?? 0), "\(problems)")
        #expect(problems.first?.message.contains("transition(tier 0, misses 0, successes 0, result YES)") == true, "\(problems)")
        #expect(
            problems.first.map { $0.message.contains("stack overflow") || $0.message.contains("instruction budget exceeded") } == true,
            "\(problems)")
    }
}
