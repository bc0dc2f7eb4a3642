/// When a ``BundleFetcher`` polls next: every `interval` while the fetches succeed (a new bundle or
/// "not modified"), and after each failure in a row twice as long as after the one before, from
/// `interval` up to `maxBackoff`, each such wait shortened by up to `jitter` of itself so that apps
/// that failed together do not come back together. A server's `Retry-After` (on 429 or 503) is
/// waited for instead, never less (at most ``maxRetryAfter``). A success starts over.
///
/// A value, changed only by ``succeeded()`` and ``failed(retryAfter:)``: the same seed gives the
/// same waits (docs/bundles.md#fetching).
public struct BundlePollSchedule: Sendable, Equatable {
    /// The wait after a success, and after the first failure.
    public var interval: Duration
    /// The longest wait after failures (a `Retry-After` may ask for longer).
    public var maxBackoff: Duration
    /// The share (0 to 1) by which a wait after a failure is shortened at most; 0: none.
    public var jitter: Double
    /// The seed of the jitter: each failure's share is drawn from it and the failure's number.
    public var seed: UInt64
    /// Failures in a row since the last success.
    public private(set) var failures = 0
    /// The wait before the next poll (zero before the first: poll at once).
    public private(set) var nextDelay: Duration = .zero

    /// The longest `Retry-After` honoured, so that a wrong header cannot stop the polls for good.
    public static let maxRetryAfter: Duration = .seconds(24 * 3600)

    public init(
        interval: Duration = .seconds(300), maxBackoff: Duration = .seconds(3600), jitter: Double = 0.1,
        seed: UInt64 = .random(in: .min ... .max)
    ) {
        self.interval = max(interval, .seconds(1))
        self.maxBackoff = max(maxBackoff, self.interval)
        self.jitter = min(max(jitter, 0), 1)
        self.seed = seed
    }

    /// A fetch succeeded: the next poll is one interval away.
    @discardableResult
    public mutating func succeeded() -> Duration {
        failures = 0
        nextDelay = interval
        return nextDelay
    }

    /// A fetch failed: the next poll is after the `Retry-After` the server gave (and up to
    /// `jitter` of it more), else after the backoff of this many failures in a row.
    @discardableResult
    public mutating func failed(retryAfter: Duration? = nil) -> Duration {
        failures += 1
        let share = Self.unit(seed: seed, draw: UInt64(failures))
        if let retryAfter {
            let asked = min(max(retryAfter, .zero), Self.maxRetryAfter)
            nextDelay = asked + asked * (jitter * share)
        } else {
            // interval × 2^(failures − 1), no more than maxBackoff (the doubling stops there).
            var backoff = interval
            for _ in 1..<failures where backoff < maxBackoff { backoff *= 2 }
            backoff = min(backoff, maxBackoff)
            nextDelay = backoff - backoff * (jitter * share)
        }
        return nextDelay
    }

    /// A number in [0, 1) drawn from `seed` and `draw` (SplitMix64).
    static func unit(seed: UInt64, draw: UInt64) -> Double {
        var z = seed &+ draw &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(UInt64(1) << 53)
    }
}
