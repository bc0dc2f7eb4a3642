import Foundation
import RulesEngine
import RulesModel

/// Earned's part of the report: per-day columns, summary lines, JSON and CSV. A run whose
/// personas do not use Earned prints none of it in the table.
extension SimulationReport {
    /// The table's Earned columns: credits spent, unlocks, median end-of-day balance.
    static let earnedHeader = ["spent", "unlocks", "bal p50"]

    static func earnedCells(_ d: DayTotals) -> [String] {
        [String(d.earned.creditsSpent), String(d.earned.unlocks.total), String(d.earned.balancePercentile(50))]
    }

    /// The summary lines about Earned.
    static func earnedLines(_ s: ReportSummary) -> String {
        let e = s.earned
        func per(_ n: Int) -> String { String(format: "%.2f", s.perEarnedUserDay(n)) }
        func counts<K>(_ c: CaseCounts<K>) -> String { c.entries.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ") }
        var out = "  Earned users                \(s.earnedUsers) (\(s.earnedUserDays) user-days)\n"
        out +=
            "  credits                     earned \(e.creditsEarned), spent \(e.creditsSpent), forfeited at rollover \(e.creditsForfeited); "
            + "per user-day \(per(e.creditsEarned)) / \(per(e.creditsSpent)) / \(per(e.creditsForfeited))\n"
        out +=
            "  end-of-day balance          p50 \(e.balancePercentile(50)), p90 \(e.balancePercentile(90)), max \(e.maxBalance); "
            + "last day p50 \(s.finalEarned.balancePercentile(50)), p90 \(s.finalEarned.balancePercentile(90))\n"
        out +=
            "  urges                       \(e.urges): the gate opened \(e.gateOpens) times (retries included), "
            + "the app was not blocked \(e.unblockedOpens), already unlocked \(e.openedWhileUnlocked)\n"
        out +=
            "  unlocks                     \(counts(e.unlocks)); \(per(e.unlocks.total)) per user-day, "
            + String(format: "%.1f", s.creditsPerCreditUnlock)
            + " credits per credit unlock; gave up \(e.gaveUp), attempts expired \(e.attemptsExpired)\n"
        out +=
            "  denials                     \(e.denials.total) of \(e.choices) choices (\(percent(e.denialShare))): \(counts(e.denials))\n"
        out += "  quests                      \(e.questsStarted) started: \(counts(e.quests))\n"
        out += "  emergency uses              \(e.unlocks[.emergency])\n"
        out += "  focus sessions              \(e.focusCompleted) completed, \(e.focusEndedEarly) ended early\n"
        out +=
            "  Earned habits               \(e.habitsDone) of \(e.habitsPlanned) done (\(percent(e.habitsPlanned == 0 ? 0 : Double(e.habitsDone) / Double(e.habitsPlanned)))), "
            + "\(e.habitAwardsSuspended) with the award suspended; \(e.qualifiedDays) days qualified for the streak\n"
        let last = s.finalStreaks
        out +=
            "  qualifying-day streak       p50 \(last.earnedStreakPercentile(50)), p90 \(last.earnedStreakPercentile(90)), "
            + "max \(max(0, last.earnedStreaks.count - 1)) at the end (qualifying days in a row, as the rules carry them over)\n"
        return out
    }

    /// The summary's `earned` object.
    static func earnedSummaryJSON(_ s: ReportSummary) -> JSONValue {
        let e = s.earned
        func perDay(_ n: Int) -> JSONValue { rounded(s.perEarnedUserDay(n)) }
        return .object([
            ("users", .int(s.earnedUsers)), ("user_days", .int(s.earnedUserDays)),
            (
                "credits",
                .object([
                    ("earned", .int(e.creditsEarned)), ("spent", .int(e.creditsSpent)), ("forfeited", .int(e.creditsForfeited)),
                    ("earned_per_user_day", perDay(e.creditsEarned)), ("spent_per_user_day", perDay(e.creditsSpent)),
                    ("forfeited_per_user_day", perDay(e.creditsForfeited)),
                    ("per_credit_unlock", rounded(s.creditsPerCreditUnlock)),
                ])
            ),
            (
                "balance",
                .object([
                    ("p50", .int(e.balancePercentile(50))), ("p90", .int(e.balancePercentile(90))), ("max", .int(e.maxBalance)),
                    ("last_day_p50", .int(s.finalEarned.balancePercentile(50))),
                    ("last_day_p90", .int(s.finalEarned.balancePercentile(90))),
                ])
            ),
            ("urges", .int(e.urges)), ("gate_opens", .int(e.gateOpens)), ("unblocked_opens", .int(e.unblockedOpens)),
            ("opened_while_unlocked", .int(e.openedWhileUnlocked)),
            ("unlocks", counts(e.unlocks)), ("unlocks_per_user_day", perDay(e.unlocks.total)),
            ("choices", .int(e.choices)), ("denials", counts(e.denials)), ("denial_share", rounded(e.denialShare)),
            ("gave_up", .int(e.gaveUp)), ("attempts_expired", .int(e.attemptsExpired)),
            ("quests_started", .int(e.questsStarted)), ("quests", counts(e.quests)), ("emergency_uses", .int(e.unlocks[.emergency])),
            ("focus", .object([("completed", .int(e.focusCompleted)), ("ended_early", .int(e.focusEndedEarly))])),
            (
                "habits",
                .object([
                    ("planned", .int(e.habitsPlanned)), ("done", .int(e.habitsDone)),
                    ("awards_suspended", .int(e.habitAwardsSuspended)),
                ])
            ),
            ("qualified_days", .int(e.qualifiedDays)),
            (
                "final_streak",
                .object([
                    ("p50", .int(s.finalStreaks.earnedStreakPercentile(50))), ("p90", .int(s.finalStreaks.earnedStreakPercentile(90))),
                    ("max", .int(max(0, s.finalStreaks.earnedStreaks.count - 1))),
                ])
            ),
        ])
    }

    /// A day's `earned` object: the raw counts (`EconomyTotals`' coding keys, which `merge` reads
    /// back), then the balance percentiles.
    static func earnedDayJSON(_ e: EconomyTotals) -> JSONValue {
        typealias K = EconomyTotals.CodingKeys
        let fields: [(K, JSONValue)] = [
            (.creditsEarned, .int(e.creditsEarned)), (.creditsSpent, .int(e.creditsSpent)), (.creditsForfeited, .int(e.creditsForfeited)),
            (.urges, .int(e.urges)), (.gateOpens, .int(e.gateOpens)), (.unblockedOpens, .int(e.unblockedOpens)),
            (.openedWhileUnlocked, .int(e.openedWhileUnlocked)), (.choices, .int(e.choices)), (.gaveUp, .int(e.gaveUp)),
            (.attemptsExpired, .int(e.attemptsExpired)), (.unlocks, counts(e.unlocks)), (.denials, counts(e.denials)),
            (.questsStarted, .int(e.questsStarted)), (.quests, counts(e.quests)), (.focusCompleted, .int(e.focusCompleted)),
            (.focusEndedEarly, .int(e.focusEndedEarly)), (.habitsPlanned, .int(e.habitsPlanned)), (.habitsDone, .int(e.habitsDone)),
            (.habitAwardsSuspended, .int(e.habitAwardsSuspended)), (.qualifiedDays, .int(e.qualifiedDays)),
            (.balances, .array(e.balances.map { .int($0) })),
        ]
        return .object(
            fields.map { ($0.0.rawValue, $0.1) }
                + [("balance_p50", .int(e.balancePercentile(50))), ("balance_p90", .int(e.balancePercentile(90)))])
    }

    static func counts<K>(_ c: CaseCounts<K>) -> JSONValue { .object(c.entries.map { ($0.0.rawValue, .int($0.1)) }) }

    /// The CSV's Earned columns.
    static let earnedCSVHeader =
        [
            "earned_users", "credits_earned", "credits_spent", "credits_forfeited", "balance_p50", "balance_p90", "urges",
            "gate_opens", "unblocked_opens", "opened_while_unlocked", "choices", "gave_up", "attempts_expired",
        ]
        + UnlockGrantMethod.allCases.map { "unlocks_\($0.rawValue.lowercased())" }
        + UnlockDenialReason.allCases.map { "denied_\($0.rawValue.lowercased())" }
        + ["quests_started"] + QuestOutcome.allCases.map { "quests_\($0.rawValue.lowercased())" }
        + [
            "focus_completed", "focus_ended_early", "earned_habits_planned", "earned_habits_done", "habit_awards_suspended",
            "qualified_days",
        ]

    static func earnedCSVFields(_ e: EconomyTotals) -> [String] {
        ([
            e.users, e.creditsEarned, e.creditsSpent, e.creditsForfeited, e.balancePercentile(50), e.balancePercentile(90), e.urges,
            e.gateOpens, e.unblockedOpens, e.openedWhileUnlocked, e.choices, e.gaveUp, e.attemptsExpired,
        ]
            + e.unlocks.entries.map(\.1) + e.denials.entries.map(\.1) + [e.questsStarted] + e.quests.entries.map(\.1)
            + [e.focusCompleted, e.focusEndedEarly, e.habitsPlanned, e.habitsDone, e.habitAwardsSuspended, e.qualifiedDays]).map(
                String.init)
    }
}
