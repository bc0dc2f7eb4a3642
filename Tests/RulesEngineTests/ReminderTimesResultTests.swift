import Foundation
import LuaHost
import RulesEngine
import RulesModel
import Testing

/// What `RuleSet.reminderTimes` makes of what `reminder_times` returns: the check-in window it
/// passes, the times of a list of strings, and a message naming the function's line for anything
/// else. The proofs at load cover tiers 0…3 only, so tiers from 7 up answer oddly here.
@Suite struct ReminderTimesResultTests {
    static let odd = #"""
        function M.reminder_times(tier, window)
          if tier == 7 then return 5 end
          if tier == 8 then return { "10:00", "25:00" } end
          if tier == 9 then return { "10:00", 3 } end
          if tier == 10 then return { "10:00", x = 1 } end
          if tier == 11 then return { "\xFF" } end
          if tier == 12 then return { "10:00" }, 1 end
          if tier == 13 then return {} end
          if tier == 14 then
            return { window.open, window.close, string.format("%02d:%02d", window.open_minutes // 60 + 1, window.close_minutes % 60) }
          end
        """#

    static func rules() throws -> RuleSet {
        let source = try RuleFixture.edited([("function M.reminder_times(tier, window)\n", odd)])
        let dir = try RuleFixture.folder(with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try RuleSet.load(dir.path)
    }

    static let line = 96

    func failure(_ rules: RuleSet, tier: Int) -> LuaError? {
        do {
            _ = try rules.reminderTimes(tier: tier, open: LocalTime(minutes: 9 * 60)!, close: LocalTime(minutes: 22 * 60)!)
            return nil
        } catch {
            return error as? LuaError
        }
    }

    @Test func theFunctionIsWhereTheFixtureSaysItIs() throws {
        #expect(try RuleFixture.line(of: "function M.reminder_times(") == Self.line)
    }

    @Test func aValueThatIsNotAList() throws {
        let rules = try Self.rules()
        let five = try #require(failure(rules, tier: 7))
        #expect(five.file == "escalation.lua" && five.line == Self.line && five.path == nil)
        #expect(five.message == #"reminder_times returned integer 5, expected a list of "HH:MM" times"#)
        let keyed = try #require(failure(rules, tier: 10))
        #expect(keyed.message == #"reminder_times returned a table, expected a list of "HH:MM" times"#)
    }

    @Test func anItemThatIsNotATime() throws {
        let rules = try Self.rules()
        let late = try #require(failure(rules, tier: 8))
        #expect(late.file == "escalation.lua" && late.line == Self.line && late.path == "[2]")
        #expect(late.message == #"expected a time "HH:MM", found string "25:00""#)
        let number = try #require(failure(rules, tier: 9))
        #expect(number.path == "[2]" && number.message == #"expected a time "HH:MM", found integer 3"#)
        let bytes = try #require(failure(rules, tier: 11))
        #expect(bytes.line == Self.line && bytes.path == "[1]")
        #expect(bytes.message.hasPrefix("in the table returned by the function at line \(Self.line): expected UTF-8 text"), "\(bytes)")
    }

    @Test func theWindowAndTheTimes() throws {
        let rules = try Self.rules()
        #expect(try rules.reminderTimes(tier: 12, open: LocalTime(minutes: 0)!, close: LocalTime(minutes: 60)!).map(\.text) == ["10:00"])
        #expect(try rules.reminderTimes(tier: 13, open: LocalTime(minutes: 0)!, close: LocalTime(minutes: 60)!).isEmpty)
        let first = try rules.reminderTimes(tier: 14, open: LocalTime("08:30"), close: LocalTime("21:45"))
        #expect(first.map(\.text) == ["08:30", "21:45", "09:45"])
        let second = try rules.reminderTimes(tier: 14, open: LocalTime("06:00"), close: LocalTime("23:59"))
        #expect(second.map(\.text) == ["06:00", "23:59", "07:59"])
        #expect(
            try rules.reminderTimes(tier: 2, open: LocalTime("09:00"), close: LocalTime("22:00")).map(\.text) == [
                "15:30", "20:00", "21:30",
            ])
    }
}
