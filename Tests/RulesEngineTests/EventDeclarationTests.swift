import Foundation
import RulesEngine
import Testing

/// The event declarations (Sources/RulesEngine/Events/EventTypes): what is derived from them
/// besides the parser, the event line and the schema (EventParserGoldenTests, EventLineTests,
/// SchemaCommandTests).
@Suite struct EventDeclarationTests {
    static let replayDoc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/replay.md")

    /// The tables of docs/replay.md that start with the event types' header, as written.
    static func tables(in text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        var tables: [String] = []
        for (i, line) in lines.enumerated() where line == "| `type` | fields | what it does |" {
            tables.append(lines[i...].prefix { $0.hasPrefix("|") }.joined(separator: "\n"))
        }
        return tables
    }

    @Test func docsTablesOfEventTypesAreTheDeclarations() throws {
        let found = Self.tables(in: try String(contentsOf: Self.replayDoc, encoding: .utf8))
        let expected = [
            EventDeclaration.docsTable(of: [.pressure, .habitTracker, .miga]), EventDeclaration.docsTable(of: [.earned]),
        ]
        #expect(found.count == 2, "docs/replay.md has \(found.count) tables of event types")
        for (table, wanted) in zip(found, expected) where table != wanted {
            Issue.record("docs/replay.md drifted from the event declarations; the table is:\nBEGIN TABLE\n\(wanted)\nEND TABLE")
        }
    }

    @Test func aMisspeltExpectIsSuggestedOnEveryType() {
        for (type, fields) in [("commitment", #""text": "Ship it", "#), ("tick", ""), ("qr_key", #""value": "k", "#)] {
            let line = #"{"at": "2026-03-02T08:30:00+01:00", "type": "\#(type)", \#(fields)"expcet": {"ok": true}}"#
            #expect(throws: EngineError(.invalidEvent, "expcet: unknown field (did you mean 'expect'?)")) { try EngineEvent.parse(line) }
        }
        // A misspelt field of the type is still suggested as that field.
        #expect(throws: EngineError(.invalidEvent, "txt: unknown field (did you mean 'text'?)")) {
            try EngineEvent.parse(#"{"at": "2026-03-02T08:30:00+01:00", "type": "commitment", "txt": "Ship it", "expect": {}}"#)
        }
    }
}
