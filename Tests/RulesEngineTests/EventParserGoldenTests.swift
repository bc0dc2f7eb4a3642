import Foundation
import RulesEngine
import Testing

/// The event parser's verdict on a few thousand lines (every type with each of its fields
/// dropped, misspelt, alone or given values of every kind, unknown fields, other types' fields),
/// recorded from the parser before its field checking was derived from the event declarations:
/// each line reads back as the same event line or is refused with the same message, byte for byte.
@Suite struct EventParserGoldenTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/event-lines.golden.jsonl")

    static func verdict(_ line: String) -> String {
        do {
            return "ok " + (try EngineEvent.parse(line)).jsonLine
        } catch {
            return "error " + error.description
        }
    }

    @Test func everyLineGetsTheVerdictRecorded() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        var count = 0, wrong = 0
        for record in text.split(separator: "\n") {
            let pair = try #require(try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String])
            count += 1
            let found = Self.verdict(pair[0])
            if found != pair[1] {
                wrong += 1
                if wrong <= 20 { Issue.record("\(pair[0])\nexpected: \(pair[1])\nfound:    \(found)") }
            }
        }
        #expect(count > 2_500)
        #expect(wrong == 0)
    }
}
