import Foundation
import Testing

@testable import RulesEngine

/// Earned's row ids are written from the UUID's bytes (`DeterministicID.text`): the same text as
/// Foundation's `uuidString`, lowercased, so that databases keep the ids they had.
@Suite struct DeterministicIDTests {
    @Test func textIsTheLowercasedUUIDString() {
        for parts in [["attempt", "u1", "0"], ["earned-habit-completion", "u42", "read", "2026-01-05"], ["mode", "u9", "ünïcode"], [""]] {
            let text = parts.count == 3 ? DeterministicID.text(parts[0], parts[1], parts[2]) : DeterministicID.text(parts[0])
            let uuid = parts.count == 3 ? DeterministicID.uuid(parts[0], parts[1], parts[2]) : DeterministicID.uuid(parts[0])
            #expect(text == uuid.uuidString.lowercased())
            #expect(text.utf8.count == 36)
        }
    }
}
