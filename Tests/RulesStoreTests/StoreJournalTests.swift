import Foundation
import GRDB
import Testing

@testable import RulesModel
@testable import RulesStore

/// Which writes of a window the writer leaves out (``StoreJournal/needless(_:)``): a row set whole
/// and set again later, by the same user, with none of the user's store operations between.
@Suite struct StoreJournalTests {
    /// Entries: `s<kind><user>` sets a row, `w<user>` writes rows, `o<user>` is a store operation.
    static func entries(_ script: String) -> [StoreJournal.Entry] {
        let journal = StoreJournal()
        for (line, word) in script.split(separator: " ").enumerated() {
            journal.line = line + 1
            let user = UserID(Int64(String(word.last!))!)
            switch word.first! {
            case "e": journal.addWrite(user: user, row: .init(.economy)) { _ in }
            case "d": journal.addWrite(user: user, row: .init(.daySummary, key: "1")) { _ in }
            case "D": journal.addWrite(user: user, row: .init(.daySummary, key: "2")) { _ in }
            case "w": journal.addWrite(user: user) { _ in }
            case "o": journal.add(user: user) { _ in }
            default: Issue.record("unknown entry \(word)")
            }
        }
        return journal.take()
    }

    @Test(arguments: [
        // The last set of each row is kept; a write between changes nothing.
        ("e1 e1 w1 e1", "x x . ."),
        // Another row (another key, another user) is another row.
        ("d1 D1 d2 d1 D1", "x x . . ."),
        // A store operation of the user may read the row: what it read is kept.
        ("e1 o1 e1 e1", ". . x ."),
        // … but not another user's.
        ("e1 o2 e1", "x . ."),
    ])
    func aRowSetAgainLaterIsWrittenOnce(script: String, expected: String) {
        let needless = StoreJournal.needless(Self.entries(script))
        #expect(needless.map { $0 ? "x" : "." }.joined(separator: " ") == expected, "\(script)")
    }
}
