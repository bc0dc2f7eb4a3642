/// A calendar day as `YYYY-MM-DD`, the seeds' `day_id` (Earned, local day with its 04:00
/// boundary) and Pressure's `date` (calendar date, no time component).
///
/// The type only guarantees a real proleptic-Gregorian date between 1970-01-01 and 9999-12-31;
/// which local day an instant belongs to is decided by the caller (the rules' day boundary).
/// Day arithmetic is pure integer arithmetic, without a calendar or a time zone.
public struct DayID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01 (the only stored value: a day is a plain integer to copy, hash and compare).
    public let ordinal: Int
    /// The `YYYY-MM-DD` text, as stored.
    public var rawValue: String {
        let (y, m, d) = DayID.civilFromDays(ordinal)
        return DayID.text(y, m, d)
    }

    /// Parses `YYYY-MM-DD`; throws a ``ModelValidationError`` naming `entity` and `field`.
    public init(_ text: String, entity: String = "DayID", field: String = "day_id") throws {
        var fail: ModelValidationError {
            ModelValidationError(entity: entity, field: field, rule: "a calendar date YYYY-MM-DD", found: quoted(text))
        }
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { throw fail }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard bytes[i] >= 0x30 && bytes[i] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10),
            (1970...9999).contains(y), (1...12).contains(m), d >= 1, d <= DayID.daysIn(month: m, year: y)
        else { throw fail }
        self.ordinal = DayID.daysFromCivil(y, m, d)
    }

    /// The day `ordinal` days after 1970-01-01 (0...2_932_896).
    public init?(ordinal: Int) {
        guard ordinal >= 0, ordinal <= DayID.daysFromCivil(9999, 12, 31) else { return nil }
        self.ordinal = ordinal
    }

    /// The UTC calendar day of a timestamp (for callers whose day boundary is UTC midnight),
    /// clamped to 1970-01-01…9999-12-31 for timestamps outside ``Millis/supportedRange``.
    public init(utcMillis: EpochMillis) {
        let clamped = min(max(utcMillis, Millis.supportedRange.lowerBound), Millis.supportedRange.upperBound)
        self.ordinal = Int(clamped / Millis.day)
    }

    public var year: Int { DayID.civilFromDays(ordinal).0 }
    public var month: Int { DayID.civilFromDays(ordinal).1 }
    public var day: Int { DayID.civilFromDays(ordinal).2 }
    /// ISO 8601 weekday, 1 = Monday … 7 = Sunday (1970-01-01 was a Thursday).
    public var isoWeekday: Int { ((ordinal + 3) % 7) + 1 }

    /// The day `n` days later (or earlier, for negative `n`); nil outside the supported range.
    public func adding(days n: Int) -> DayID? {
        let (sum, overflow) = ordinal.addingReportingOverflow(n)
        return overflow ? nil : DayID(ordinal: sum)
    }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: DayID) -> Int { other.ordinal - ordinal }

    /// UTC midnight at the start of this day, in epoch milliseconds.
    public var utcStartMillis: EpochMillis { Int64(ordinal) * Millis.day }

    public static func < (lhs: DayID, rhs: DayID) -> Bool { lhs.ordinal < rhs.ordinal }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text, field: decoder.codingPath.map(\.stringValue).joined(separator: "."))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD` (a year of 1970…9999), written in place: a small string, no intermediate ones.
    static func text(_ y: Int, _ m: Int, _ d: Int) -> String {
        String(unsafeUninitializedCapacity: 10) { bytes in
            write(y, m, d, into: bytes)
            return 10
        }
    }

    /// Calls `body` with the 10 bytes of the `YYYY-MM-DD` text, without making a string (a rule
    /// argument's date goes to Lua straight from them). Not generic: across modules a generic
    /// function runs unspecialized, which cost more than the string.
    public func withText(_ body: (UnsafeRawBufferPointer) -> Void) {
        let (y, m, d) = DayID.civilFromDays(ordinal)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { bytes in
            DayID.write(y, m, d, into: bytes)
            body(UnsafeRawBufferPointer(bytes))
        }
    }

    private static func write(_ y: Int, _ m: Int, _ d: Int, into bytes: UnsafeMutableBufferPointer<UInt8>) {
        bytes[0] = UInt8(0x30 + y / 1000 % 10); bytes[1] = UInt8(0x30 + y / 100 % 10)
        bytes[2] = UInt8(0x30 + y / 10 % 10); bytes[3] = UInt8(0x30 + y % 10)
        bytes[4] = 0x2D
        bytes[5] = UInt8(0x30 + m / 10); bytes[6] = UInt8(0x30 + m % 10)
        bytes[7] = 0x2D
        bytes[8] = UInt8(0x30 + d / 10); bytes[9] = UInt8(0x30 + d % 10)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
