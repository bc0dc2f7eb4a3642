import RulesModel

/// An event of a type added by its declaration alone, without a case of its own in
/// `EngineEvent.Kind` (docs/layout.md, "Adding an event type"): its payload names the declaration
/// that reads and writes it, and applies it (the type's handler).
package struct DeclaredEvent: Sendable, Equatable {
    let payload: any DeclaredEventPayload

    init(_ payload: any DeclaredEventPayload) { self.payload = payload }

    /// The event's type, as its declaration names it.
    package var typeName: String { type(of: payload).declaration.name }

    package static func == (a: DeclaredEvent, b: DeclaredEvent) -> Bool { a.payload.isEqual(to: b.payload) }
}

/// The payload of an event type declared with it: its fields' values.
protocol DeclaredEventPayload: Sendable {
    /// The declaration of the type (listed in `EventDeclaration.all`).
    static var declaration: EventDeclaration { get }
    /// Whether the user sent the event, which makes it an open of the app that day (true unless
    /// the type says otherwise): false for what the host writes (an exposure).
    static var opensApp: Bool { get }
    /// Applies the event to the user of `context`, adding what it decided to `decisions`.
    func apply(in engine: Engine, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws
    func isEqual(to other: any DeclaredEventPayload) -> Bool
}

extension DeclaredEventPayload {
    static var opensApp: Bool { true }
}

extension DeclaredEventPayload where Self: Equatable {
    func isEqual(to other: any DeclaredEventPayload) -> Bool { (other as? Self) == self }
}
