import RulesModel

private func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

/// An instant written as ISO-8601 with an offset: `2026-03-02T08:30:00+01:00`, `…Z`, with optional
/// seconds and milliseconds. Keeps the offset it was written with, to echo it back.
public struct Timestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let millis: EpochMillis
    /// The offset it was written with, in minutes east of UTC.
    public let offsetMinutes: Int

    public init(millis: EpochMillis, offsetMinutes: Int = 0) {
        self.millis = millis
        self.offsetMinutes = offsetMinutes
    }

    /// Parses `text`, or returns nil.
    public init?(_ text: String) {
        let b = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var n = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard b.count >= 17, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
            b[13] == UInt8(ascii: ":"),
            let hour = digits(11..<13), let minute = digits(14..<16), hour < 24, minute < 60,
            let day = try? DayID(String(decoding: b[0..<10], as: UTF8.self))
        else { return nil }
        var i = 16
        var second = 0, millis = 0
        if i < b.count, b[i] == UInt8(ascii: ":") {
            guard let s = digits(i + 1..<i + 3), s < 60 else { return nil }
            second = s
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") {
                var j = i + 1, scale = 100
                while j < b.count, b[j] >= 0x30, b[j] <= 0x39 {
                    millis += Int(b[j] - 0x30) * scale
                    scale /= 10
                    j += 1
                }
                guard j > i + 1 else { return nil }
                i = j
            }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") && i + 1 == b.count {
            offset = 0
        } else if (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")), i + 6 == b.count, b[i + 3] == UInt8(ascii: ":"),
            let oh = digits(i + 1..<i + 3), let om = digits(i + 4..<i + 6), oh <= 18, om < 60
        {
            offset = (oh * 60 + om) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let local =
            day.utcStartMillis + Int64(hour) * Millis.hour + Int64(minute) * Millis.minute + Int64(second) * Millis.second + Int64(millis)
        self.init(millis: local - Int64(offset) * Millis.minute, offsetMinutes: offset)
    }

    /// ISO-8601 with the offset it was written with (seconds always, milliseconds when present).
    public var description: String {
        let local = millis + Int64(offsetMinutes) * Millis.minute
        let day = DayID(utcMillis: local)
        var rest = Int(local - day.utcStartMillis)
        let ms = rest % 1000; rest /= 1000
        let s = rest % 60; rest /= 60
        var text = "\(day)T" + pad(rest / 60, 2) + ":" + pad(rest % 60, 2) + ":" + pad(s, 2)
        if ms != 0 { text += "." + pad(ms, 3) }
        if offsetMinutes == 0 { return text + "Z" }
        let sign = offsetMinutes < 0 ? "-" : "+"
        return text + sign + pad(abs(offsetMinutes) / 60, 2) + ":" + pad(abs(offsetMinutes) % 60, 2)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.millis < b.millis }

    /// The instants an event may name (`at`, `expires_at`, `until`): from 1971-01-01T00:00:00Z up
    /// to, not including, 2998-01-01T00:00:00Z. In every time zone their local days stay within
    /// what the engine computes around a day (90 days of MIGA history back; up to 366 days ahead
    /// for a habit-award suspension, the first of the next month) and within the years the store's
    /// day columns hold (1000–2999).
    package static let engineRange: Range<EpochMillis> = 31_536_000_000..<32_440_608_000_000

    /// Throws `INVALID_EVENT` naming `field` and the allowed range unless the instant is in
    /// ``engineRange``; `text` is the value as the event wrote it.
    func checkInEngineRange(_ field: String, written text: String? = nil) throws(EngineError) {
        guard !Timestamp.engineRange.contains(millis) else { return }
        // `description` writes local dates of 1970…9999 only.
        let offset = Int64(offsetMinutes).multipliedReportingOverflow(by: Millis.minute)
        let local = millis.addingReportingOverflow(offset.partialValue)
        let found =
            text
            ?? (!offset.overflow && !local.overflow && Millis.supportedRange.contains(local.partialValue)
                ? description : "\(millis) ms since 1970")
        throw EngineError(
            .invalidEvent,
            "\(field): expected a time from \(Timestamp(millis: Timestamp.engineRange.lowerBound)) up to (not including) "
                + "\(Timestamp(millis: Timestamp.engineRange.upperBound)), found \"\(found)\"")
    }
}
