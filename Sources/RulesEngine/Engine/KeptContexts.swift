import RulesStore

/// Outside a batch, the contexts that the last events applied on their own left (committed), by
/// user, with the store's ``Store/ChangeStamp`` after the last of them. An event whose user is
/// kept starts from its context instead of reading the user again, with its cache: a habit task's
/// streak is asked of the rules again only when the task changed or its day did, whatever other
/// users' events came between (a replay's file may interleave its users).
///
/// Why a kept context is still right: an event writes only its own user's rows, and every event
/// compares the stamp at its start with the one kept. Any write but this engine's own committed
/// events (another connection's, a refused event's rolled-back changes, events inside a caller's
/// transaction, which may still roll back) leaves another stamp, and then every context is dropped.
struct KeptContexts {
    /// The most users kept; past it, the least recently used is dropped.
    static let maxUsers = 256

    private var contexts: [String: (context: UserContext, use: Int)] = [:]
    private var uses = 0
    /// The stamp after this engine's last committed event (nil: nothing kept).
    private var stamp: Store.ChangeStamp?

    /// The context kept for `user`, when the store's stamp is still `current` (read at the start of
    /// the event's transaction); when it is not, every context is dropped.
    mutating func context(of user: String, current: Store.ChangeStamp) -> UserContext? {
        guard stamp == current else {
            removeAll()
            return nil
        }
        return contexts[user]?.context
    }

    /// Keeps `context` as its event (committed) left it, `stamp` being the store's after it.
    mutating func keep(_ context: UserContext, stamp: Store.ChangeStamp) {
        uses += 1
        if contexts[context.name] == nil, contexts.count >= Self.maxUsers,
            let oldest = contexts.min(by: { $0.value.use < $1.value.use })?.key
        {
            contexts[oldest] = nil
        }
        contexts[context.name] = (context, uses)
        self.stamp = stamp
    }

    /// Another engine on the same store (an arm of a ``BundledEngine``'s experiment) committed an
    /// event of `user` that moved the store's stamp from `from` to `to`: when nothing else wrote
    /// since this engine's last event (its stamp is `from`), what it keeps of its other users still
    /// holds (an event writes only its own user's rows); the context of `user`, if any, does not.
    mutating func anotherEngineCommitted(_ event: CommittedEvent) {
        guard stamp == event.from else { return }
        contexts[event.user] = nil
        stamp = event.to
    }

    /// An event committed on its own (not inside a caller's transaction): its user, and the
    /// store's stamps at the start of its transaction and after its writes.
    struct CommittedEvent: Equatable {
        var user: String
        var from: Store.ChangeStamp
        var to: Store.ChangeStamp
    }

    /// Forgets every context (the rules changed: their caches hold what the old rules shaped).
    mutating func removeAll() {
        contexts = [:]
        stamp = nil
    }
}
