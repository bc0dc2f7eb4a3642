import RulesModel
import RulesStore

/// Exposures to the arms of experiments (`exposure` events): one per user, experiment and arm,
/// the first kept, for analysis by arm.
extension Engine {
    /// Records the user's exposure to the event's arm, unless one is recorded already (then
    /// nothing changes). Decision `exposure`: `{experiment, arm, revision, first}`, `revision` the
    /// recorded exposure's (the first's), `first` whether this event recorded it.
    func recordExposure(
        _ event: ExposureEvent, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions
    ) throws {
        try event.check()
        let kept = try context.storage.exposure(context.userID, experiment: event.experiment, arm: event.arm)
        if kept == nil {
            try context.storage.addExposure(
                ExperimentExposure(
                    userID: context.userID, experiment: event.experiment, arm: event.arm, revision: event.revision,
                    exposedAt: now))
            (context.cache.exposures, context.cache.exposuresState) = (nil, nil)
        }
        decisions.set(
            .other(
                key: "exposure",
                .object([
                    ("experiment", .string(event.experiment)), ("arm", .string(event.arm)),
                    ("revision", .int(kept?.revision ?? event.revision)), ("first", .bool(kept == nil)),
                ])))
    }

    /// The state's `exposures`, nil when the user has none: each one's experiment, arm, revision
    /// and local time (`at`), in the order they happened. The state lists them after every event of
    /// a user in an experiment: read and made once, kept in the context's cache.
    func exposuresState(_ context: inout UserContext) throws -> JSONValue? {
        if let made = context.cache.exposuresState { return made }
        let exposures = try context.cache.exposures ?? context.storage.exposures(context.userID)
        context.cache.exposures = exposures
        guard !exposures.isEmpty else { return nil }
        let clock = try clock(context)
        let state = JSONValue.array(
            exposures.map { exposure in
                .object([
                    ("experiment", .string(exposure.experiment)), ("arm", .string(exposure.arm)),
                    ("revision", .int(exposure.revision)), ("at", .string(clock.describe(exposure.exposedAt))),
                ])
            })
        context.cache.exposuresState = state
        return state
    }

    /// The exposure of the user named `name` to `arm` of `experiment` as recorded (the first), nil
    /// when there is none or no event created the user; without applying an event: in a batch,
    /// from the batch's own rows; else a read of the user's id and of the exposure's key.
    package func exposure(ofUser name: String, experiment: String, arm: String) throws -> ExperimentExposure? {
        func read(_ store: Store) throws -> ExperimentExposure? {
            try store.read { snapshot in
                guard let row = try snapshot.engineState(named: name) else { return nil }
                return try snapshot.exposure(row.userID, experiment: experiment, arm: arm)
            }
        }
        switch mode {
        case .single(let store): return try read(store)
        case .batch(let batch):
            guard let context = batch.contexts[name] else { return try read(batch.store) }
            return try context.storage.exposure(context.userID, experiment: experiment, arm: arm)
        case .recording(let batch):
            guard let user = batch.user(named: name) else { return nil }
            return try user.records.exposure(user.context.userID, experiment: experiment, arm: arm)
        case .recordingOnly: return nil
        }
    }
}
