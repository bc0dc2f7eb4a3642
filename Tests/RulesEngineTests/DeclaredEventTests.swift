import Foundation
import RulesModel
import RulesStore
import Testing

@testable import RulesEngine

/// An event type added by its declaration and payload alone (`EngineEvent.Kind.declared`): read,
/// written and applied through them, with no case of its own.
@Suite struct DeclaredEventTests {
    /// A tiny type: a note of 1–20 characters, which the engine answers with a decision naming it.
    struct Note: DeclaredEventPayload, Equatable {
        var text: String

        static let text = EventField.required(
            "text",
            EventFieldType<String>.string.checked { text, field throws(EngineError) in
                guard (1...20).contains(text.count) else {
                    throw EngineError(.invalidEvent, "\(field): expected 1–20 characters, found \(text.count)")
                }
            })
        static let declaration = EventDeclaration(
            "note", app: .pressure, doc: "a note", fields: [text], make: { v in .declared(DeclaredEvent(Note(text: v[text]))) },
            values: { kind in
                guard case .declared(let event) = kind, let note = event.payload as? Note else { return [] }
                return [text.with(note.text)]
            })

        func apply(in engine: Engine, _ context: inout UserContext, at now: EpochMillis, _ decisions: inout Decisions) throws {
            decisions.set(.other(key: "note", .object([("text", .string(text))])))
        }
    }

    static func fields(_ json: String) throws -> EventObject {
        try #require(EventObject(try JSONLine.parse(json)))
    }

    @Test func aDeclaredTypeIsReadWrittenAndAppliedByItsDeclaration() throws {
        let kind = try Note.declaration.parse(try Self.fields(#"{"text": "water plants"}"#))
        #expect(kind == .declared(DeclaredEvent(Note(text: "water plants"))))
        #expect(kind != .declared(DeclaredEvent(Note(text: "other"))))
        let event = EngineEvent(at: try #require(Timestamp("2026-03-02T08:30:00Z")), user: "u2", kind: kind)
        #expect(kind.typeName == "note")
        #expect(event.jsonLine == #"{"at":"2026-03-02T08:30:00Z","user":"u2","type":"note","text":"water plants"}"#)
        // The field checks of the declaration: the type's own, then the decoder's.
        #expect(throws: EngineError(.invalidEvent, "text: expected 1–20 characters, found 21")) {
            try Note.declaration.parse(try Self.fields(#"{"text": "\#(String(repeating: "x", count: 21))"}"#))
        }
        #expect(throws: EngineError(.invalidEvent, "txt: unknown field (did you mean 'text'?)")) {
            try Note.declaration.parse(try Self.fields(#"{"txt": "a"}"#))
        }
        let engine = try Engine(store: Store.inMemory(), ruleFolder: RuleFixture.rulesFolder.path)
        let outcome = try engine.apply(event)
        #expect(outcome.decisions["note"] == .object([("text", .string("water plants"))]))
    }
}
