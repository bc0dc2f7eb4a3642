import RulesEngine
import RulesModel
import Testing

@Suite struct LocalClockTests {
    func instant(_ iso: String) -> EpochMillis {
        // "2026-03-08T10:00Z"
        let day = try! DayID(String(iso.prefix(10)))
        let time = try! LocalTime(String(iso.dropFirst(11).prefix(5)))
        return day.utcStartMillis + Int64(time.minutes) * Millis.minute
    }

    @Test func localDaysFollowTheTimeZoneAndTheBoundary() throws {
        let paris = try LocalClock(timeZoneID: "Europe/Paris")
        #expect(paris.day(of: instant("2026-01-14T23:30Z")).rawValue == "2026-01-15")   // 00:30 in Paris
        let earned = try LocalClock(timeZoneID: "Europe/Paris", dayStartsAt: LocalTime(hour: 4, minute: 0))
        #expect(earned.day(of: instant("2026-01-15T02:30Z")).rawValue == "2026-01-14")  // 03:30 local: still the 14th
        #expect(earned.day(of: instant("2026-01-15T03:00Z")).rawValue == "2026-01-15")  // 04:00 local
        #expect(earned.start(of: try DayID("2026-01-15")) == instant("2026-01-15T03:00Z"))
    }

    @Test func daylightSavingGapsAndOverlaps() throws {
        let ny = try LocalClock(timeZoneID: "America/New_York")
        // 2026-03-08: 02:00–03:00 does not exist in New York; 02:30 moves forward to 03:30 EDT (07:30Z).
        #expect(ny.instant(on: try DayID("2026-03-08"), at: 150) == instant("2026-03-08T07:30Z"))
        #expect(ny.instant(on: try DayID("2026-03-08"), at: 9 * 60) == instant("2026-03-08T13:00Z"))
        // 2026-11-01: 01:30 happens twice; the first is 05:30Z (EDT).
        #expect(ny.instant(on: try DayID("2026-11-01"), at: 90) == instant("2026-11-01T05:30Z"))
        #expect(ny.instant(on: try DayID("2026-11-01"), at: 9 * 60) == instant("2026-11-01T14:00Z"))
    }

    @Test func unknownTimeZonesAreRefused() {
        #expect(throws: ModelValidationError.self) { try LocalClock(timeZoneID: "Mars/Olympus") }
    }
}
