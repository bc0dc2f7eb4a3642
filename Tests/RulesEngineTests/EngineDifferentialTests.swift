import Foundation
import PropertyBased
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// The whole engine (time passing, store, output) under the Lua default rules and under the
/// native reference of the seeds gives the same output, line for line, on random histories.
@Suite struct EngineDifferentialTests {
    static let historiesPerRun = 30

    /// Replay lines for a history: a paid user with notifications on; each day a commitment, then
    /// YES/NO ten minutes after the deadline or nothing (MISSED at the close); a shield five
    /// minutes after the NO or the close when the history uses one; window changes the day before.
    static func events(_ history: PressureHistory) -> [String] {
        func at(_ day: Int, _ minutes: Int, _ fields: String) -> String {
            let date = try! DayID("2026-03-01").adding(days: day)!
            let instant = date.utcStartMillis + Int64(minutes) * Millis.minute
            return "{\"at\": \"\(Timestamp(millis: instant))\", \(fields)}"
        }
        var lines = [at(0, 23 * 60, "\"type\": \"subscription\", \"tier\": \"PAID\""),
                     at(0, 23 * 60 + 1, "\"type\": \"settings\", \"notifications_enabled\": true")]
        var window = (open: HistoryGenerator.defaultOpen, close: HistoryGenerator.defaultClose)
        for (i, day) in history.days.enumerated() {
            let d = i + 1
            if (day.open, day.close) != window {
                // Applies from the next day, so it is sent the day before.
                lines.append(at(d - 1, 5 * 60, "\"type\": \"settings\", \"commitment_deadline\": \"\(day.open)\", \"checkin_window_close\": \"\(day.close)\""))
                window = (day.open, day.close)
            }
            lines.append(at(d, 5 * 60 + 30, "\"type\": \"commitment\", \"text\": \"day \(d)\""))
            var shieldAt: Int?
            switch day.result {
            case .yes, .no:
                let checkIn = day.open.minutes + 10
                lines.append(at(d, checkIn, "\"type\": \"check_in\", \"result\": \"\(day.result.rawValue)\""))
                shieldAt = checkIn + 5
            default:
                shieldAt = day.close.minutes + 5
            }
            if day.shieldUsed, let shieldAt { lines.append(at(d, shieldAt, "\"type\": \"shield\"")) }
        }
        lines.append(at(history.days.count + 1, 12 * 60, "\"type\": \"tick\""))
        return lines
    }

    @Test func luaAndNativeEnginesAgreeOnRandomHistories() async throws {
        let luaRules = try RuleSet.load(RuleFixture.rulesFolder.path)
        await propertyCheck(count: Self.historiesPerRun, input: HistoryGenerator.histories(seed: 0xE1_61E0, days: 20...60)) { history in
            do {
                let lua = Replay(engine: Engine(store: try Store.inMemory(), rules: luaRules))
                let native = Replay(engine: Engine(store: try Store.inMemory(), rules: NativeReference()))
                for (i, line) in Self.events(history).enumerated() {
                    let a = lua.output(forLine: line, number: i + 1), b = native.output(forLine: line, number: i + 1)
                    if a != b {
                        Issue.record("line \(i + 1) differs:\n  event:  \(line)\n  Lua:    \(a)\n  native: \(b)\n\(history)")
                        return
                    }
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
