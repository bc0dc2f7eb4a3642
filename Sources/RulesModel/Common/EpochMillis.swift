/// A UTC timestamp in milliseconds since 1970-01-01T00:00:00Z, the seeds' `*_ts_utc_ms`.
public typealias EpochMillis = Int64

/// Milliseconds in common periods, for retention windows and day arithmetic.
public enum Millis {
    public static let second: Int64 = 1_000
    public static let minute: Int64 = 60_000
    public static let hour: Int64 = 3_600_000
    public static let day: Int64 = 86_400_000
}
