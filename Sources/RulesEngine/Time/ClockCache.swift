import RulesModel

/// The clocks an engine has made, by time zone and day boundary: each keeps the time-zone offsets
/// it has looked up (see `LocalClock`), so users of the same zone share them. One engine, one thread.
final class ClockCache {
    private struct Key: Hashable {
        var zone: String
        var dayStart: Int
    }

    private var clocks: [Key: LocalClock] = [:]
    /// The clock asked for last, found again by comparing its key instead of hashing it (an
    /// event asks for the same clock several times).
    private var latest: (key: Key, clock: LocalClock)?

    func clock(_ zone: String, dayStartsAt: LocalTime) throws -> LocalClock {
        let key = Key(zone: zone, dayStart: dayStartsAt.minutes)
        if let latest, latest.key == key { return latest.clock }
        let clock: LocalClock
        if let known = clocks[key] {
            clock = known
        } else {
            clock = try LocalClock(timeZoneID: zone, dayStartsAt: dayStartsAt)
            clocks[key] = clock
        }
        latest = (key, clock)
        return clock
    }
}
