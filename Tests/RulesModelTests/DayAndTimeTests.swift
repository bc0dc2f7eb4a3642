import Foundation
import PropertyBased
import RulesModel
import Testing

@Suite struct DayAndTimeTests {
    @Test func dayIDRoundTripsThroughItsText() async {
        await propertyCheck(input: Gen.int(in: 0...2_932_896)) { ordinal in
            let day = DayID(ordinal: ordinal)!
            let parsed = try? DayID(day.rawValue)
            #expect(parsed == day)
            #expect(parsed?.ordinal == ordinal)
            #expect(day.adding(days: 1).map { day.days(to: $0) } ?? 1 == 1)
        }
    }

    @Test func dayArithmeticNeverTraps() async {
        await propertyCheck(input: Gen.int(in: 0...2_932_896), Gen.int(in: Int.min...Int.max)) { ordinal, offset in
            let day = DayID(ordinal: ordinal)!
            if let moved = day.adding(days: offset) {
                #expect(day.days(to: moved) == offset)
            }
            #expect(DayID(utcMillis: Int64(truncatingIfNeeded: offset)).ordinal >= 0)
        }
    }

    @Test func calendarRules() throws {
        #expect(throws: ModelValidationError.self) { try DayID("2026-02-29") }
        #expect(try DayID("2024-02-29").adding(days: 1)?.rawValue == "2024-03-01")
        #expect(throws: ModelValidationError.self) { try DayID("1900-02-29") }
        #expect(throws: ModelValidationError.self) { try DayID("2026-2-1") }
        #expect(throws: ModelValidationError.self) { try DayID("２０２６-02-01") }
        #expect(try DayID("2026-02-02").isoWeekday == 1)
        #expect(try DayID("1970-01-01").isoWeekday == 4)
        #expect(DayID(utcMillis: 1_769_904_000_000).rawValue == "2026-02-01")
        #expect(try LocalTime("23:59").minutes == 1439)
        for bad in ["24:00", "9:00", "12:60", "ab:cd", ""] {
            #expect(throws: ModelValidationError.self, "\(bad)") { try LocalTime(bad) }
        }
    }

    @Test func commitmentTextValidityDependsOnlyOnItsLength() async {
        await propertyCheck(input: Gen.letterOrNumber.string(of: 0...400)) { text in
            let commitment = Commitment(userID: UserID(1), day: DayID(ordinal: 20_000)!, text: text)
            let valid = (try? commitment.validate()) != nil
            #expect(valid == (1...280).contains(text.count))
        }
    }

    @Test func settingsCostsMustIncrease() async {
        await propertyCheck(input: Gen.int(in: 1...100), Gen.int(in: 1...100), Gen.int(in: 1...100)) { a, b, c in
            let settings = EarnedSettings(creditCosts: .init(minutes5: a, minutes15: b, minutes30: c))
            #expect(((try? settings.validate()) != nil) == (a < b && b < c))
        }
    }
}
