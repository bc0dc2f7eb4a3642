import RulesModel

/// Pressure's escalation state machine (pressure-escalation-engine.md), as `rules/escalation.lua`
/// implements it.
extension NativeReference {
    /// The counters after one day's final result, following the document's transition pseudo-code
    /// literally (`M.transition`):
    ///
    /// ```
    /// IF check-in result = NO or MISSED:
    ///     consecutive_misses += 1
    ///     consecutive_successes = 0
    ///     IF consecutive_misses >= 3: escalation_tier = 3
    ///     ELSE IF consecutive_misses == 2: escalation_tier = 2
    ///     ELSE IF consecutive_misses == 1: escalation_tier = 1
    ///
    /// IF check-in result = YES:
    ///     consecutive_successes += 1
    ///     consecutive_misses = 0
    ///     IF escalation_tier == 1 AND consecutive_successes >= 1: escalation_tier = 0, consecutive_successes = 0
    ///     ELSE IF escalation_tier == 2 AND consecutive_successes >= 2: (the same)
    ///     ELSE IF escalation_tier == 3 AND consecutive_successes >= 3: (the same)
    /// ```
    ///
    /// So recovery "goes straight to Tier 0 once the required consecutive successes are met", and
    /// the tier is recomputed from the misses on every NO or MISSED: at tier 2 or 3, one NO after a
    /// YES sets tier 1. A restart shield is not a transition: the engine leaves the counters as they
    /// are ("escalation_tier = unchanged, consecutive_misses = unchanged") and does not call this.
    ///
    /// As in the Lua, every result other than YES takes the NO/MISSED branch; the engine only passes
    /// final results.
    package func transition(_ state: EscalationCounters, _ result: CommitmentStatus) throws -> EscalationCounters {
        var tier = state.tier
        var misses = state.misses
        var successes = state.successes
        if result == .yes {
            successes += 1
            misses = 0
            // recover_after[tier]: none for tier 0 (nothing to leave) or a tier that does not exist.
            let needed = (1...Self.escalation.recoverAfter.count).contains(tier) ? Self.escalation.recoverAfter[tier - 1] : nil
            if tier > 0, let needed, successes >= needed {
                tier = 0
                successes = 0
            }
        } else {
            misses += 1
            successes = 0
            // The highest tier whose threshold the misses reach sets the tier.
            let thresholds = Self.escalation.tierForMisses
            if let reached = (1...thresholds.count).reversed().first(where: { misses >= thresholds[$0 - 1] }) {
                tier = min(reached, Self.escalation.maxTier)
            }
        }
        return EscalationCounters(tier: tier, misses: misses, successes: successes)
    }

    /// The local reminder times of a tier, in the order of the tier's anchors
    /// (`M.reminder_times`). "All notification times are relative to the user's check-in window":
    ///
    /// ```
    /// window_mid = window_open + (window_close - window_open) / 2
    /// TIER 0: [window_mid]
    /// TIER 1: [window_mid, window_close - 1hr]
    /// TIER 2: [window_mid, window_close - 2hr, window_close - 30min]
    /// TIER 3: [window_mid, window_close - 2hr, window_close - 30min]
    /// ```
    ///
    /// The midpoint is rounded down to the minute (Lua's `//`). A tier without reminders gets none.
    /// A time that falls outside the day is an error, as it is for the Lua rule (it cannot format a
    /// valid "HH:MM"). "Suppression rule: If the user checks in before a scheduled notification,
    /// all remaining notifications for that day are cancelled" is the engine's part.
    package func reminderTimes(tier: Int, open: LocalTime, close: LocalTime) throws -> [LocalTime] {
        try (Self.escalation.reminders[tier] ?? []).map { anchor in
            let minutes: Int
            switch anchor {
            case .midpoint: minutes = open.minutes + Self.floorHalf(close.minutes - open.minutes)
            case .beforeClose(let before): minutes = close.minutes - before
            case .afterOpen(let after): minutes = open.minutes + after
            }
            guard let time = LocalTime(minutes: minutes) else {
                throw ModelValidationError(
                    entity: "NativeReference", field: "reminders[\(tier)] \(anchor)",
                    rule: "a time of day 00:00–23:59 for the window \(open)–\(close)",
                    found: "\(minutes) minutes after midnight")
            }
            return time
        }
    }

    /// `n // 2` as Lua computes it: rounded towards minus infinity, also for a negative span.
    static func floorHalf(_ n: Int) -> Int {
        n >= 0 ? n / 2 : -((-n + 1) / 2)
    }
}
