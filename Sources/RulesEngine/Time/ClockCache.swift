import RulesModel

/// The clocks an engine has made, by time zone and day boundary: each keeps the time-zone offsets
/// it has looked up (see `LocalClock`), so users of the same zone share them. One engine, one thread.
final class ClockCache {
    private struct Key: Hashable {
        var zone: String
        var dayStart: Int
    }

    private var clocks: [Key: LocalClock] = [:]

    func clock(_ zone: String, dayStartsAt: LocalTime) throws -> LocalClock {
        let key = Key(zone: zone, dayStart: dayStartsAt.minutes)
        if let clock = clocks[key] { return clock }
        let clock = try LocalClock(timeZoneID: zone, dayStartsAt: dayStartsAt)
        clocks[key] = clock
        return clock
    }
}
