import Foundation
import RulesModel

/// The offsets of one time zone already looked up, as spans of constant offset: from an instant
/// asked to the zone's next transition. Foundation's lookup is slow, and the engine asks about the
/// same few days over and over.
final class ZoneOffsets: @unchecked Sendable {
    private struct Span {
        var from: EpochMillis
        var to: EpochMillis
        var offset: Int64
    }

    private static let capacity = 8
    private let lock = NSLock()
    private var spans: [Span] = []
    /// Where the next new span goes once `capacity` is reached (the oldest).
    private var oldest = 0

    /// The offset from UTC at `instant` in `zone` (always the same zone), in milliseconds.
    func offset(at instant: EpochMillis, in zone: TimeZone) -> Int64 { span(at: instant, in: zone).offset }

    /// The offset at `instant` and the instant until which it holds at least (the next change of
    /// offset, or the end of what this cache knows).
    func span(at instant: EpochMillis, in zone: TimeZone) -> (offset: Int64, until: EpochMillis) {
        lock.lock()
        defer { lock.unlock() }
        for span in spans where span.from <= instant && instant < span.to { return (span.offset, span.to) }
        let date = Date(timeIntervalSince1970: Double(instant) / 1000)
        let offset = Int64(zone.secondsFromGMT(for: date)) * 1000
        // The offset holds up to the next transition (any change of offset, daylight saving or not).
        let next = zone.nextDaylightSavingTimeTransition(after: date).flatMap {
            EpochMillis(exactly: ($0.timeIntervalSince1970 * 1000).rounded(.down))
        }
        let span = Span(from: instant, to: next ?? .max, offset: offset)
        if spans.count < ZoneOffsets.capacity {
            spans.append(span)
        } else {
            spans[oldest] = span
            oldest = (oldest + 1) % ZoneOffsets.capacity
        }
        return (offset, span.to)
    }
}
