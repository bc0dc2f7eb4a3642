import RulesModel
import RulesStore

/// `exposure`: the user got a decision under an arm of an experiment (a signed bundle's staged
/// rollout), from the bundle of that revision. Declared with its payload: no case of its own in
/// `EngineEvent.Kind` (`Kind.exposure(experiment:arm:revision:)` makes one).
struct ExposureEvent: DeclaredEventPayload, Equatable {
    var experiment: String
    var arm: String
    var revision: Int

    /// A name of a bundle's manifest, checked as it is read (`ExperimentExposure.nameRule`).
    static let name = EventFieldType<String>.string.schema(
        .object([("type", .string("string")), ("pattern", .string("^[a-z0-9._-]{1,40}$"))])
    ).checked { text, field throws(EngineError) in
        guard ExperimentExposure.isName(text) else {
            let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
            throw EngineError(.invalidEvent, "\(field): expected a name (\(ExperimentExposure.nameRule)), found \"\(shown)\"")
        }
    }
    static let experiment = EventField.required("experiment", name, doc: "a name: \(ExperimentExposure.nameRule)")
    static let arm = EventField.required("arm", name, doc: "a name, as `experiment`'s")
    static let revision = EventField.required(
        "revision",
        EventFieldType.integer.schema(
            .object([
                ("type", .string("integer")), ("minimum", .int(1)), ("maximum", .int(ExperimentExposure.revisions.upperBound)),
            ])
        ).checked { revision, field throws(EngineError) in
            guard ExperimentExposure.revisions.contains(revision) else {
                throw EngineError(
                    .invalidEvent,
                    "\(field): expected a bundle's revision (1–\(ExperimentExposure.revisions.upperBound)), found \(revision)")
            }
        }, "the bundle's revision", doc: "the bundle's, 1–\(ExperimentExposure.revisions.upperBound)")

    static let declaration = EventDeclaration(
        "exposure", app: .pressure,
        doc: """
            the user's exposure to an arm of an experiment (written by the app's engine after the first decision under the \
            arm): the first exposure to each arm is kept (a repeat changes nothing), another arm of the experiment is \
            recorded too; it is not an open of the app and changes nothing else; decision `{experiment, arm, revision, \
            first}` (`revision` the first exposure's)
            """,
        fields: [experiment, arm, revision],
        make: { v in .exposure(experiment: v[experiment], arm: v[arm], revision: v[revision]) },
        values: { kind in
            guard case .declared(let event) = kind, let exposure = event.payload as? ExposureEvent else { return [] }
            return [experiment.with(exposure.experiment), arm.with(exposure.arm), revision.with(exposure.revision)]
        })

    /// Written by the host, not sent by the user.
    static var opensApp: Bool { false }

    /// The fields' checks, for an event made in code (`Kind.exposure`) rather than read from a line.
    func check() throws(EngineError) {
        let values: EventValues = [Self.experiment.with(experiment), Self.arm.with(arm), Self.revision.with(revision)]
        for field in Self.declaration.fields { try field.check(values) }
    }

    func apply(in engine: Engine, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
        try engine.recordExposure(self, &context, at: now, &decisions)
    }
}

extension EventDeclaration {
    static var exposure: EventDeclaration { ExposureEvent.declaration }
}

extension EngineEvent.Kind {
    /// An `exposure` event's kind.
    package static func exposure(experiment: String, arm: String, revision: Int) -> Self {
        .declared(DeclaredEvent(ExposureEvent(experiment: experiment, arm: arm, revision: revision)))
    }
}

extension EngineEvent {
    /// An `exposure` event of `user` at `at`.
    package static func exposure(user: String, at: Timestamp, experiment: String, arm: String, revision: Int) -> EngineEvent {
        EngineEvent(at: at, user: user, kind: .exposure(experiment: experiment, arm: arm, revision: revision))
    }
}

extension EngineEvent.Kind {
    /// An `exposure` event's experiment, arm and revision; nil for any other event.
    package var exposure: (experiment: String, arm: String, revision: Int)? {
        guard case .declared(let event) = self, let exposure = event.payload as? ExposureEvent else { return nil }
        return (exposure.experiment, exposure.arm, exposure.revision)
    }
}
