import GRDB
import RulesModel

/// Row ⇄ model conversions of Pressure's tables.
package enum PressureRows {
    static func commitment(_ row: Row) throws -> Commitment {
        let r = RowReader(row, "pressure_commitment")
        return Commitment(
            id: try r.uuid("commitment_id"), userID: try r.user(), day: try r.day("day_id"), text: try r.string("text"),
            lockedAt: try r.optional("locked_at_ts_utc_ms"), status: try r.enumValue("status"),
            checkedInAt: try r.optional("checked_in_at_ts_utc_ms"),
            escalationTierSnapshot: try r.optional("escalation_tier_snap", Int.self).map {
                try EscalationTier.parse($0, entity: "pressure_commitment", field: "escalation_tier_snap")
            },
            shieldUsed: try r.bool("shield_used"))
    }

    package static func commitmentArguments(_ c: Commitment) -> StatementArguments { ArgumentValues.of { commitment(c, into: &$0) } }

    static func commitment<V: RowValues>(_ c: Commitment, into v: inout V) {
        v.add(c.id); v.add(c.userID.rawValue); v.add(c.day.rawValue); v.add(c.text); v.add(c.lockedAt); v.add(c.status.rawValue)
        v.add(c.checkedInAt); v.add(c.escalationTierSnapshot?.rawValue); v.add(c.shieldUsed)
    }

    static let insertCommitmentSQL = """
        INSERT INTO pressure_commitment(commitment_id, user_id, day_id, text, locked_at_ts_utc_ms, status,
          checked_in_at_ts_utc_ms, escalation_tier_snap, shield_used) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static func settings(_ row: Row) throws -> UserSettings {
        let r = RowReader(row, "pressure_settings")
        return UserSettings(
            personalityMode: try r.enumValue("personality_mode"), commitmentDeadline: try r.time("commitment_deadline"),
            checkinWindowClose: try r.time("checkin_window_close"), timezoneIdentifier: try r.string("timezone_identifier"),
            notificationsEnabled: try r.bool("notifications_enabled"), onboardingCompleted: try r.bool("onboarding_completed"),
            subscriptionTier: try r.enumValue("subscription_tier"),
            subscriptionExpiry: try r.optional("subscription_expiry_ts_utc_ms"))
    }

    static let updateSettingsSQL = """
        UPDATE pressure_settings SET personality_mode = ?, commitment_deadline = ?, checkin_window_close = ?,
          timezone_identifier = ?, notifications_enabled = ?, onboarding_completed = ?, subscription_tier = ?,
          subscription_expiry_ts_utc_ms = ?, updated_ts_utc_ms = ? WHERE user_id = ?
        """

    static func settingsArguments(_ s: UserSettings, user: UserID, now: EpochMillis) -> StatementArguments {
        ArgumentValues.of { settings(s, user: user, now: now, into: &$0) }
    }

    static func settings<V: RowValues>(_ s: UserSettings, user: UserID, now: EpochMillis, into v: inout V) {
        v.add(s.personalityMode.rawValue); v.add(s.commitmentDeadline.text); v.add(s.checkinWindowClose.text); v.add(s.timezoneIdentifier)
        v.add(s.notificationsEnabled); v.add(s.onboardingCompleted); v.add(s.subscriptionTier.rawValue); v.add(s.subscriptionExpiry)
        v.add(now); v.add(user.rawValue)
    }

    static func escalation(_ row: Row) throws -> EscalationState {
        let r = RowReader(row, "pressure_escalation_state")
        return EscalationState(
            currentTier: try EscalationTier.parse(try r.int("current_tier"), entity: "pressure_escalation_state", field: "current_tier"),
            consecutiveMisses: try r.int("consecutive_misses"), consecutiveSuccesses: try r.int("consecutive_successes"),
            currentStreak: try r.int("current_streak"), longestStreak: try r.int("longest_streak"),
            restartShieldsRemaining: try r.int("restart_shields_remaining"),
            shieldResetDate: try r.optionalDay("shield_reset_day_id"))
    }

    package static let updateEscalationSQL = """
        UPDATE pressure_escalation_state SET current_tier = ?, consecutive_misses = ?, consecutive_successes = ?,
          current_streak = ?, longest_streak = ?, restart_shields_remaining = ?, shield_reset_day_id = ?, updated_ts_utc_ms = ?
        WHERE user_id = ?
        """

    package static func escalationArguments(_ s: EscalationState, user: UserID, now: EpochMillis) -> StatementArguments {
        ArgumentValues.of { escalation(s, user: user, now: now, into: &$0) }
    }

    static func escalation<V: RowValues>(_ s: EscalationState, user: UserID, now: EpochMillis, into v: inout V) {
        v.add(s.currentTier.rawValue); v.add(s.consecutiveMisses); v.add(s.consecutiveSuccesses); v.add(s.currentStreak)
        v.add(s.longestStreak); v.add(s.restartShieldsRemaining); v.add(s.shieldResetDate?.rawValue); v.add(now); v.add(user.rawValue)
    }

    static func notification(_ row: Row) throws -> NotificationLogEntry {
        let r = RowReader(row, "pressure_notification")
        return NotificationLogEntry(
            id: try r.uuid("notification_id"), userID: try r.user(), scheduledFor: try r.int64("scheduled_for_ts_utc_ms"),
            tier: try EscalationTier.parse(try r.int("tier"), entity: "pressure_notification", field: "tier"),
            personality: try r.enumValue("personality"), delivered: try r.bool("delivered"), tapped: try r.bool("tapped"))
    }

    package static let insertNotificationSQL = """
        INSERT INTO pressure_notification(notification_id, user_id, scheduled_for_ts_utc_ms, tier, personality, delivered, tapped)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    package static func notificationArguments(_ n: NotificationLogEntry) -> StatementArguments {
        ArgumentValues.of { notification(n, into: &$0) }
    }

    static func notification<V: RowValues>(_ n: NotificationLogEntry, into v: inout V) {
        v.add(n.id); v.add(n.userID.rawValue); v.add(n.scheduledFor); v.add(n.tier.rawValue); v.add(n.personality.rawValue)
        v.add(n.delivered); v.add(n.tapped)
    }
}
