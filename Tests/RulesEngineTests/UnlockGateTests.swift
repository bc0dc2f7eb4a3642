import Foundation
import RulesEngine
import RulesModel
import Testing

/// The unlock gate's options snapshot (earned-data-model-v1.1.md A4.2).
@Suite struct UnlockGateTests {
    let rules: RuleSet
    init() throws { rules = try RuleSet.load(RuleFixture.rulesFolder.path) }

    /// The document's own example, in HARD mode with a balance between 10 and 24 credits.
    static let documentExample = """
        {
          "generated_ts_utc_ms": 1738440000000,
          "mode_id": "mode_123",
          "mode_strictness": "HARD",
          "app_id": "iosToken:AbCDeF",
          "options": [
            {
              "type": "CREDITS_UNLOCK",
              "enabled": true,
              "disabled_reason": null,
              "durations": [
                { "minutes": 5, "cost_credits": 10, "enabled": true, "disabled_reason": null },
                { "minutes": 15, "cost_credits": 25, "enabled": false, "disabled_reason": "INSUFFICIENT_CREDITS" },
                { "minutes": 30, "cost_credits": 45, "enabled": false, "disabled_reason": "INSUFFICIENT_CREDITS" }
              ]
            },
            {
              "type": "QUEST_UNLOCK",
              "enabled": false,
              "disabled_reason": "DISALLOWED_IN_HARD_MODE",
              "quest_types": [
                { "quest_type": "BREATHING", "enabled": false, "disabled_reason": "DISALLOWED_IN_HARD_MODE" },
                { "quest_type": "COPY_TEXT", "enabled": false, "disabled_reason": "DISALLOWED_IN_HARD_MODE" },
                { "quest_type": "QR_SCAN", "enabled": false, "disabled_reason": "DISALLOWED_IN_HARD_MODE" }
              ]
            },
            {
              "type": "EMERGENCY_UNLOCK",
              "enabled": true,
              "disabled_reason": null,
              "delay_seconds": 60,
              "unlock_minutes": 5
            }
          ]
        }
        """

    func json(_ options: AvailableOptions) throws -> NSDictionary {
        let data = try JSONEncoder().encode(options)
        return try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test func theDocumentsExampleIsReproducedExactly() throws {
        let gate = UnlockGateInput(
            generatedAt: 1_738_440_000_000, modeID: "mode_123", strictness: .hard,
            appID: try #require(AppID(rawValue: "iosToken:AbCDeF")), creditBalance: 17)
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(Self.documentExample.utf8)) as? NSDictionary)
        #expect(try json(rules.unlockOptions(gate)) == expected)
    }

    @Test func everyDisabledReasonOfTheDocument() throws {
        let app = try #require(AppID(rawValue: "android:com.instagram.android"))
        func options(
            _ strictness: Strictness = .strict, balance: Int = 100, quests: Int = 0, since: Int? = nil, key: Bool = true,
            emergencies: Int = 0, sameApp: Bool = false
        ) throws -> AvailableOptions {
            try rules.unlockOptions(
                UnlockGateInput(
                    generatedAt: 1_738_440_000_000, modeID: nil, strictness: strictness, appID: app,
                    creditBalance: balance, questUnlocksToday: quests, minutesSinceLastQuestUnlock: since,
                    qrKeySet: key, emergencyUsedToday: emergencies, sameAppAsLastEmergency: sameApp))
        }
        #expect(try options(balance: 5).option(.creditsUnlock)?.disabledReason == .insufficientCredits)
        #expect(try options(quests: 2).option(.questUnlock)?.disabledReason == .dailyLimitReached)
        #expect(try options(quests: 1, since: 14).option(.questUnlock)?.disabledReason == .cooldownActive)
        #expect(try options(quests: 1, since: 15).option(.questUnlock)?.enabled == true)
        let noKey = try options(key: false)
        guard case .quest(let enabled, _, let types) = try #require(noKey.option(.questUnlock)) else {
            Issue.record("no quest option"); return
        }
        #expect(enabled)  // the other quest types stay available
        #expect(types.first { $0.questType == .qrScan }?.disabledReason == .qrKeyNotSet)
        #expect(try options(.hard).option(.questUnlock)?.disabledReason == .disallowedInHardMode)
        #expect(try options(.gentle).option(.questUnlock)?.enabled == true)
        #expect(try options(emergencies: 1).option(.emergencyUnlock)?.disabledReason == .dailyLimitReached)
        #expect(try options(sameApp: true).option(.emergencyUnlock)?.disabledReason == .sameAppConsecutiveBlocked)
    }

    @Test func theExampleEconomiesChangeWhatTheGateOffers() throws {
        let root = RuleFixture.rulesFolder.deletingLastPathComponent()
        let app = try #require(AppID(rawValue: "android:com.instagram.android"))
        let gate = UnlockGateInput(
            generatedAt: 1_738_440_000_000, modeID: nil, strictness: .strict, appID: app, creditBalance: 12,
            questUnlocksToday: 1, minutesSinceLastQuestUnlock: 30, qrKeySet: true)
        let gentle = try RuleSet.load(root.appendingPathComponent("examples/gentle-pricing").path).unlockOptions(gate)
        guard case .credits(_, _, let durations) = try #require(gentle.option(.creditsUnlock)) else { Issue.record("no credits"); return }
        #expect(durations.map(\.enabled) == [true, true, false])  // 5 and 12 credits affordable with 12
        #expect(try rules.unlockOptions(gate).option(.questUnlock)?.enabled == true)  // default: 2 a day, 15-minute cooldown
        let strict = try RuleSet.load(root.appendingPathComponent("examples/strict-quests").path)
        #expect(try strict.unlockOptions(gate).option(.questUnlock)?.disabledReason == .disallowedInHardMode)  // no quests in STRICT
        var gentleGate = gate
        gentleGate.strictness = .gentle
        #expect(try strict.unlockOptions(gentleGate).option(.questUnlock)?.disabledReason == .dailyLimitReached)
        #expect(strict.summary.contains("spec_version \"experimental\""))
    }
}
