/// A UTC timestamp in milliseconds since 1970-01-01T00:00:00Z, the seeds' `*_ts_utc_ms`.
public typealias EpochMillis = Int64

/// Milliseconds in common periods, for retention windows and day arithmetic.
public enum Millis {
    public static let second: Int64 = 1_000
    public static let minute: Int64 = 60_000
    public static let hour: Int64 = 3_600_000
    public static let day: Int64 = 86_400_000

    /// The instants the model accepts: 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z.
    /// Keeping timestamps in this range also keeps every sum of a timestamp and a duration of the
    /// model far from `Int64` overflow.
    public static let supportedRange: ClosedRange<EpochMillis> = 0...253_402_300_799_999

    /// Throws a ``ModelValidationError`` naming `entity` and `field` unless `value` is in ``supportedRange``.
    public static func check(_ value: EpochMillis, entity: String, field: String) throws {
        try FieldCheck(entity).timestamp(field, value)
    }
}
