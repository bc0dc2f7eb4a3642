/// A fetch of a bundle's URL that did not bring a whole answer (`URL: message`): nothing was
/// returned, and nothing is activated; the fetcher backs off (``BundlePollSchedule``).
public struct BundleFetchError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// An HTTP status other than 200, or 304 when the bundle is not modified.
        case status(Int)
        /// The connection failed (refused, reset, DNS, TLS, …).
        case transport
        /// No whole answer within the fetcher's timeout.
        case timeout
        /// A body larger than the fetcher's limit: refused on its Content-Length before it is
        /// read, or stopped when it passes the limit.
        case tooLarge
        /// A body that ended before the Content-Length its response announced, or before its last chunk.
        case truncated
        /// Too many redirects, or a redirect to another scheme.
        case redirect
        /// The task that fetched was cancelled.
        case cancelled
    }

    /// The URL fetched.
    public var url: String
    public var kind: Kind
    /// What happened, and what was expected.
    public var message: String
    /// The wait the server asked for (`Retry-After` in seconds, on 429 or 503).
    public var retryAfter: Duration?

    public init(_ url: String, _ kind: Kind, _ message: String, retryAfter: Duration? = nil) {
        self.url = url
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { "\(url): \(message)" }
}
