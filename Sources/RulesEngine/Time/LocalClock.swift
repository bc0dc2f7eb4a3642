import Foundation
import LuaHost
import RulesModel

/// Local days and times of one user: an IANA time zone and a day boundary (midnight for Pressure,
/// 04:00 for Earned). Conversions are exact for every instant; a local time that does not exist
/// (skipped by a daylight-saving change) is moved forward by the length of the gap (02:30 on a
/// spring-forward night is 03:30), and one that happens twice maps to its first occurrence.
package struct LocalClock: Sendable, Equatable {
    package let timeZone: TimeZone
    /// Minutes after local midnight at which a day starts.
    package let dayStart: Int
    /// The offsets looked up so far (shared by the copies of this clock).
    private let offsets = ZoneOffsets()

    /// Fails for an unknown time zone identifier.
    package init(timeZoneID: String, dayStartsAt: LocalTime = LocalTime(hour: 0, minute: 0)) throws {
        guard let zone = TimeZone(identifier: timeZoneID) else {
            throw ModelValidationError(
                entity: "Settings", field: "timezone", rule: "an IANA time zone (e.g. Europe/Paris)",
                found: "\"\(SourceFile.excerpt(timeZoneID, limit: 80))\"")
        }
        self.timeZone = zone
        self.dayStart = dayStartsAt.minutes
    }

    package static func == (a: LocalClock, b: LocalClock) -> Bool { a.timeZone == b.timeZone && a.dayStart == b.dayStart }

    /// The offset from UTC at `instant`, in milliseconds.
    package func offset(at instant: EpochMillis) -> Int64 { offsets.offset(at: instant, in: timeZone) }

    /// The local calendar date and minute of day at `instant` (ignoring the day boundary); a local
    /// time outside 1970-01-01…9999-12-31 is clamped to the first or last minute of that range
    /// (the engine refuses such events: see `Timestamp.engineRange`).
    package func civil(_ instant: EpochMillis) -> (day: DayID, minutes: Int) {
        let range = Millis.supportedRange
        let clamped = min(max(instant, range.lowerBound - Millis.day), range.upperBound + Millis.day)
        let local = min(max(clamped + offset(at: clamped), range.lowerBound), range.upperBound)
        let day = DayID(utcMillis: local)
        return (day, Int((local - day.utcStartMillis) / Millis.minute))
    }

    /// The day (after the day boundary) that `instant` belongs to (1970-01-01 at the earliest).
    package func day(of instant: EpochMillis) -> DayID {
        let (date, minutes) = civil(instant)
        return minutes >= dayStart ? date : date.adding(days: -1) ?? date
    }

    /// The instant of local time `minutes` on calendar date `date`.
    package func instant(on date: DayID, at minutes: Int) -> EpochMillis {
        let wall = date.utcStartMillis + Int64(minutes) * Millis.minute
        // Most often one offset holds from a day before that wall time to a day after it (an offset
        // is less than a day): it maps the wall time to the only instant, found in one lookup.
        let (before, until) = offsets.span(at: wall - Millis.day, in: timeZone)
        if until > wall + Millis.day { return wall - before }
        // Else try the offsets in force around that wall time; keep the earliest that maps back to
        // it. (Three candidates compared in place, without a `Set` to hash them into, which cost
        // 0.8 % of an in-memory simulation.)
        var exact: EpochMillis?
        for candidate in [before, offset(at: wall), offset(at: wall + Millis.day)] {
            let instant = wall - candidate
            if civilWall(instant) == wall, instant < exact ?? .max { exact = instant }
        }
        // In a gap: read with the offset before it, which moves it forward by the gap's length.
        return exact ?? wall - before
    }

    /// The instant at which day `day` starts (its local boundary).
    package func start(of day: DayID) -> EpochMillis { instant(on: day, at: dayStart) }

    /// The day after `day` in this zone: a date the zone skips entirely (Pacific/Apia went from
    /// 2011-12-29 to 2011-12-31) starts where the next one does, and is no day at all. Nil past
    /// 9999-12-31.
    package func day(after day: DayID) -> DayID? {
        guard var next = day.adding(days: 1) else { return nil }
        while let after = next.adding(days: 1), start(of: after) <= start(of: next) { next = after }
        return next
    }

    /// The instant of local time `time` within day `day` (times before the boundary fall on the
    /// next date; on 9999-12-31, the last day there is, on that date).
    package func instant(in day: DayID, at time: LocalTime) -> EpochMillis {
        time.minutes >= dayStart ? instant(on: day, at: time.minutes) : instant(on: day.adding(days: 1) ?? day, at: time.minutes)
    }

    private func civilWall(_ instant: EpochMillis) -> EpochMillis { instant + offset(at: instant) }

    /// `YYYY-MM-DDTHH:MM` in local time, for messages.
    package func describe(_ instant: EpochMillis) -> String {
        let (day, minutes) = civil(instant)
        return "\(day)T\((LocalTime(minutes: minutes) ?? LocalTime(hour: 23, minute: 59)).text)"
    }
}
