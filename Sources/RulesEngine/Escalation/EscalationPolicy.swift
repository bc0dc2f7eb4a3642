import LuaHost
import RulesModel

/// escalation.lua, typed: Pressure's escalation parameters and the rule functions.
package struct EscalationPolicy: Decodable {
    /// The params the file declares for its own functions (``RuleParams``); none when it has no `params`.
    package var params: RuleParams { declaredParams ?? RuleParams() }
    var declaredParams: RuleParams?
    /// The file's plain values (no functions): what the engine applies itself (`PolicyRules.escalationKnobs`).
    package var knobs: Knobs
    package var tierForMisses: [Int] { knobs.tierForMisses }
    package var recoverAfter: [Int] { knobs.recoverAfter }
    package var maxTier: Int { knobs.maxTier }
    package var reminders: [Int: [ReminderAnchor]] { knobs.reminders }
    package var persistentBadgeFromTier: Int { knobs.persistentBadgeFromTier }
    package var maxRemindersPerDay: Int { knobs.maxRemindersPerDay }
    package var minReminderSpacingMinutes: Int { knobs.minReminderSpacingMinutes }
    package var shield: ShieldPolicy { knobs.shield }
    package var noCommitmentCountsAs: CommitmentStatus { knobs.noCommitmentCountsAs }
    /// `transition(state, check_in) -> state`.
    package var transition: LuaFunction
    /// `reminder_times(tier, window) -> { "HH:MM", … }`.
    package var reminderTimes: LuaFunction

    /// escalation.lua's plain values (no functions).
    package struct Knobs: Decodable, Sendable, Equatable {
        /// Consecutive misses that set tier 1, 2, 3 (`tier_for_misses`).
        package var tierForMisses: [Int]
        /// Consecutive YES days needed to leave tier 1, 2, 3 (`recover_after`).
        package var recoverAfter: [Int]
        package var maxTier: Int
        /// Reminders of each tier, relative to the check-in window.
        package var reminders: [Int: [ReminderAnchor]]
        package var persistentBadgeFromTier: Int
        package var maxRemindersPerDay: Int
        package var minReminderSpacingMinutes: Int
        package var shield: ShieldPolicy
        /// What a day with no commitment by the deadline counts as.
        package var noCommitmentCountsAs: CommitmentStatus

        package init(
            tierForMisses: [Int], recoverAfter: [Int], maxTier: Int, reminders: [Int: [ReminderAnchor]],
            persistentBadgeFromTier: Int, maxRemindersPerDay: Int, minReminderSpacingMinutes: Int, shield: ShieldPolicy,
            noCommitmentCountsAs: CommitmentStatus
        ) {
            self.tierForMisses = tierForMisses
            self.recoverAfter = recoverAfter
            self.maxTier = maxTier
            self.reminders = reminders
            self.persistentBadgeFromTier = persistentBadgeFromTier
            self.maxRemindersPerDay = maxRemindersPerDay
            self.minReminderSpacingMinutes = minReminderSpacingMinutes
            self.shield = shield
            self.noCommitmentCountsAs = noCommitmentCountsAs
        }

        enum CodingKeys: String, CodingKey {
            case tierForMisses = "tier_for_misses"
            case recoverAfter = "recover_after"
            case maxTier = "max_tier"
            case reminders
            case persistentBadgeFromTier = "persistent_badge_from_tier"
            case maxRemindersPerDay = "max_reminders_per_day"
            case minReminderSpacingMinutes = "min_reminder_spacing_minutes"
            case shield
            case noCommitmentCountsAs = "no_commitment_counts_as"
        }
    }

    enum CodingKeys: String, CodingKey {
        case declaredParams = "params"
        case transition
        case reminderTimes = "reminder_times"
    }

    /// Decoded in the order of the file's fields: the params, the knobs, then the functions.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        declaredParams = try container.decodeIfPresent(RuleParams.self, forKey: .declaredParams)
        knobs = try Knobs(from: decoder)
        transition = try container.decode(LuaFunction.self, forKey: .transition)
        reminderTimes = try container.decode(LuaFunction.self, forKey: .reminderTimes)
    }

    /// The restart shield (paid only).
    package struct ShieldPolicy: Decodable, Sendable, Equatable {
        package var perMonthPaid: Int
        package var perMonthFree: Int
        /// Minutes after the NO check-in (or the miss) during which the shield can be activated.
        package var activationWindowMinutes: Int

        package init(perMonthPaid: Int, perMonthFree: Int, activationWindowMinutes: Int) {
            self.perMonthPaid = perMonthPaid
            self.perMonthFree = perMonthFree
            self.activationWindowMinutes = activationWindowMinutes
        }

        enum CodingKeys: String, CodingKey {
            case perMonthPaid = "per_month_paid"
            case perMonthFree = "per_month_free"
            case activationWindowMinutes = "activation_window_minutes"
        }
    }

    /// The problems of the parameters themselves (ranges, counts, the document's hard limits).
    func parameterProblems(in file: RuleFile) -> [RuleProblem] {
        var problems: [RuleProblem] = []
        func require(_ ok: Bool, _ path: String, _ message: @autoclosure () -> String) {
            if !ok { problems.append(file.problem(at: path, "\(path): \(message())")) }
        }
        let limit = PressureLimits.self
        require(
            (1...limit.maxTier).contains(maxTier), "max_tier",
            "must be between 1 and \(limit.maxTier) (the document's maximum tier), found \(maxTier)")
        let tiers = max(1, min(maxTier, limit.maxTier))
        require(
            tierForMisses.count == tiers, "tier_for_misses",
            "needs one entry per tier 1…\(tiers), found \(tierForMisses.count)")
        for (i, misses) in tierForMisses.enumerated() {
            require(misses >= 1, "tier_for_misses[\(i + 1)]", "must be at least 1, found \(misses)")
            if i > 0 {
                require(
                    misses > tierForMisses[i - 1], "tier_for_misses[\(i + 1)]",
                    "must be greater than tier \(i)'s \(tierForMisses[i - 1]), found \(misses)")
            }
        }
        require(recoverAfter.count == tiers, "recover_after", "needs one entry per tier 1…\(tiers), found \(recoverAfter.count)")
        for (i, days) in recoverAfter.enumerated() {
            require(days >= 1, "recover_after[\(i + 1)]", "must be at least 1 YES day, found \(days)")
        }
        require(
            (1...limit.maxRemindersPerDay).contains(maxRemindersPerDay), "max_reminders_per_day",
            "must be between 1 and \(limit.maxRemindersPerDay) (\"Max notifications per day: 3\"), found \(maxRemindersPerDay)")
        require(
            minReminderSpacingMinutes >= limit.minReminderSpacingMinutes && minReminderSpacingMinutes <= 24 * 60,
            "min_reminder_spacing_minutes",
            "must be at least \(limit.minReminderSpacingMinutes) (\"Min notification spacing: 30 min\"), found \(minReminderSpacingMinutes)"
        )
        let expectedTiers = Set(0...tiers)
        let missing = expectedTiers.subtracting(reminders.keys).sorted()
        let extra = Set(reminders.keys).subtracting(expectedTiers).sorted()
        require(
            missing.isEmpty, "reminders",
            "needs an entry for every tier 0…\(tiers); missing \(missing.map { "[\($0)]" }.joined(separator: ", "))")
        require(extra.isEmpty, "reminders", "has entries for tiers that do not exist: \(extra.map { "[\($0)]" }.joined(separator: ", "))")
        for (tier, anchors) in reminders.sorted(by: { $0.key < $1.key }) {
            let cap = min(maxRemindersPerDay, limit.maxRemindersPerDay)
            require(anchors.count <= cap, "reminders[\(tier)]", "has \(anchors.count) reminders, more than the \(cap) allowed a day")
        }
        require(
            (0...tiers).contains(persistentBadgeFromTier), "persistent_badge_from_tier",
            "must be a tier between 0 and \(tiers), found \(persistentBadgeFromTier)")
        require(
            (0...limit.shieldsPerMonthPaid).contains(shield.perMonthPaid), "shield.per_month_paid",
            "must be between 0 and \(limit.shieldsPerMonthPaid) (\"Restart shields per month (paid): 1\"), found \(shield.perMonthPaid)")
        require(
            shield.perMonthFree == limit.shieldsPerMonthFree, "shield.per_month_free",
            "must be \(limit.shieldsPerMonthFree) (\"Restart shields (free): 0\"), found \(shield.perMonthFree)")
        require(
            (1...24 * 60).contains(shield.activationWindowMinutes), "shield.activation_window_minutes",
            "must be between 1 and 1440 minutes, found \(shield.activationWindowMinutes)")
        require(
            noCommitmentCountsAs == .missed || noCommitmentCountsAs == .no, "no_commitment_counts_as",
            "must be \"MISSED\" or \"NO\", found \"\(noCommitmentCountsAs.rawValue)\"")
        return problems
    }
}
