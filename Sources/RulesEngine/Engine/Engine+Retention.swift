import RulesModel
import RulesStore

/// A8's cleanup, run as the app runs it: "on app start (if last cleanup > 24h)". The engine has no
/// app starts, so the first event of an Earned user more than `retention.cleanup_every_hours`
/// (quests.lua; 24) after the user's last cleanup counts as one, and runs it at that event's
/// instant, after time has passed up to it and before the event itself (so the event's own rows
/// are never pruned). The user's first Earned event counts as the first start (nothing to
/// delete). The cleanup is part of the event: a refused event keeps it from happening.
extension Engine {
    func cleanUpIfDue(_ context: inout UserContext, at now: EpochMillis) throws {
        // Read in place through the optional (a mutating accessor), not copied out of it with its
        // dictionaries: this runs for every event.
        guard let last = context.book.earned?.lastCleanup() else { return }
        let policy = retention
        guard policy.isDue(last: last, now: now) else { return }
        try context.storage.applyEarnedRetention(context.userID, now: now, policy: policy)
        let whole = max(policy.eventCutoff(now), policy.unlockCutoff(now), context.book.earned?.cleanup?.wholeFrom ?? 0)
        context.book.earned?.cleanup = EarnedBook.Cleanup(at: now, wholeFrom: whole)
    }
}
