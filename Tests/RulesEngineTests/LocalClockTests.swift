import Foundation
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

    /// The instants from `from` to `to` at which Foundation says `zone`'s offset changes.
    func transitions(of zone: TimeZone, from: EpochMillis, to: EpochMillis) -> [EpochMillis] {
        var instants: [EpochMillis] = []
        var date = Date(timeIntervalSince1970: Double(from) / 1000)
        while let next = zone.nextDaylightSavingTimeTransition(after: date) {
            let t = EpochMillis(next.timeIntervalSince1970 * 1000)
            if t >= to { break }
            instants.append(t)
            date = next
        }
        return instants
    }

    @Test func localDaysFollowTheTimeZoneAndTheBoundary() throws {
        let paris = try LocalClock(timeZoneID: "Europe/Paris")
        #expect(paris.day(of: instant("2026-01-14T23:30Z")).rawValue == "2026-01-15")  // 00:30 in Paris
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

    /// The clock keeps the offsets it looked up as spans up to the zone's next transition: it must
    /// answer what Foundation answers, in any order of questions, across transitions too.
    /// Pacific/Apia skipped 2011-12-30 (it moved across the date line): that date is no day there,
    /// for Pressure (midnight) and for Earned (04:00); other dates follow each other.
    @Test func aDateTheZoneSkipsIsNoDay() throws {
        for dayStart in [LocalTime(hour: 0, minute: 0), LocalTime(hour: 4, minute: 0)] {
            let apia = try LocalClock(timeZoneID: "Pacific/Apia", dayStartsAt: dayStart)
            #expect(apia.day(after: try DayID("2011-12-29"))?.rawValue == "2011-12-31")
            #expect(apia.day(after: try DayID("2011-12-31"))?.rawValue == "2012-01-01")
        }
        let paris = try LocalClock(timeZoneID: "Europe/Paris")
        #expect(paris.day(after: try DayID("2026-03-28"))?.rawValue == "2026-03-29")  // a 23-hour day is a day
        #expect(paris.day(after: try DayID("9999-12-31")) == nil)
    }

    /// The engine goes from 29 to 31 December in Apia: no day, and no miss, for the 30th.
    @Test func theEngineSkipsADateTheZoneSkips() throws {
        let h = try ReplayHarness()
        let out = h.run([
            #"{"at": "2011-12-29T17:00:00Z", "type": "settings", "timezone": "Pacific/Apia"}"#,
            #"{"at": "2011-12-29T18:00:00Z", "type": "commitment", "text": "Day 29"}"#,
            #"{"at": "2011-12-29T22:00:00Z", "type": "check_in", "result": "YES"}"#,
            #"{"at": "2011-12-30T18:00:00Z", "type": "commitment", "text": "Day 31"}"#,
            #"{"at": "2011-12-30T22:00:00Z", "type": "check_in", "result": "YES"}"#,
            #"{"at": "2011-12-31T12:00:00Z", "type": "tick"}"#,
        ])
        let days = out.compactMap { $0.at("decisions", "days")?.array }.flatMap { $0 }
        #expect(days.map { $0["day"] } == [.string("2011-12-29"), .string("2011-12-31")], "\(days)")
        #expect(days.last?["current_streak"] == .int(2))
    }

    @Test func cachedOffsetsAreFoundationsInAnyOrder() throws {
        var generator = SystemRandomNumberGenerator()
        for zone in ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "UTC", "America/Sao_Paulo"] {
            let clock = try LocalClock(timeZoneID: zone)
            let foundation = TimeZone(identifier: zone)!
            let from = instant("2010-01-01T00:00Z"), to = instant("2030-01-01T00:00Z")
            // Every quarter of an hour around each transition, and random instants in random order.
            var instants = transitions(of: foundation, from: from, to: to).flatMap { t in
                (-8...8).map { t + EpochMillis($0) * 15 * Millis.minute }
            }
            instants += (0..<2000).map { _ in EpochMillis.random(in: from..<to, using: &generator) }
            instants.shuffle(using: &generator)
            for t in instants {
                let expected = Int64(foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t) / 1000))) * 1000
                #expect(clock.offset(at: t) == expected, "\(zone) at \(t)")
            }
        }
    }

    /// A local time maps to the earliest instant that shows it, or, in a gap, moves forward by the
    /// gap: checked against Foundation's offsets for wall times around every transition and at
    /// random, asked in random order (the clock's cache of offsets answers most in one lookup).
    @Test func localTimesMapToFoundationsInstantsInAnyOrder() throws {
        var generator = SystemRandomNumberGenerator()
        for zone in ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "UTC", "Pacific/Apia"] {
            let clock = try LocalClock(timeZoneID: zone)
            let foundation = TimeZone(identifier: zone)!
            func offset(_ t: EpochMillis) -> EpochMillis {
                EpochMillis(foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t) / 1000))) * 1000
            }
            let from = instant("2010-01-01T00:00Z"), to = instant("2030-01-01T00:00Z")
            var walls = transitions(of: foundation, from: from, to: to).flatMap { t in
                (-8...8).map { t + offset(t) + EpochMillis($0) * 15 * Millis.minute }
            }
            walls += (0..<2000).map { _ in EpochMillis.random(in: from..<to, using: &generator) / Millis.minute * Millis.minute }
            walls.shuffle(using: &generator)
            for wall in walls {
                let day = DayID(utcMillis: wall), minutes = Int((wall - DayID(utcMillis: wall).utcStartMillis) / Millis.minute)
                let shown = [wall - Millis.day, wall, wall + Millis.day].map { wall - offset($0) }.filter { $0 + offset($0) == wall }
                let expected = shown.min() ?? wall - offset(wall - Millis.day)
                #expect(clock.instant(on: day, at: minutes) == expected, "\(zone) at \(day) \(minutes)")
            }
        }
    }

    @Test func unknownTimeZonesAreRefused() {
        #expect(throws: ModelValidationError.self) { try LocalClock(timeZoneID: "Mars/Olympus") }
    }
}
