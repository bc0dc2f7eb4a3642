import Crypto
import Foundation
import Logging
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches the bundle at one URL (http or https; any static file host), apart from activating it
/// (``BundledEngine/update(from:isolation:)`` does both; docs/bundles.md#fetching):
///
/// - `fetch()` makes one GET, with `If-None-Match` set to the ETag of the last body it returned,
///   and returns ``Outcome/notModified`` (a 304, or a body with the same SHA-256 as the last one it
///   returned) or ``Outcome/new(bytes:etag:)``; or it throws a ``BundleFetchError``: another
///   status, a connection that failed, no whole answer within `timeout`, a body over `maxBytes`
///   (refused on its Content-Length before it is read, else stopped as it passes the limit: a body
///   is never held past it), a body shorter than its Content-Length, a redirect refused.
/// - It follows at most ``maxRedirects`` redirects that keep the scheme (or go from http to https).
/// - ``nextPoll`` is when to fetch again (``BundlePollSchedule``): the interval after a success,
///   a growing backoff after failures, or what a 429's or 503's `Retry-After` asked for.
///
/// No cache and no cookies. `Sendable`: fetch from any task.
public final class BundleFetcher: Sendable {
    /// What a fetch brought.
    public enum Outcome: Sendable, Equatable {
        /// The bundle did not change since the last body returned (304, or the same bytes).
        case notModified
        /// A body to activate, with its ETag (nil: the server gave none).
        case new(bytes: [UInt8], etag: String?)
    }

    public let url: URL
    /// The longest a fetch may take, from its start to its body's last byte.
    public let timeout: Duration
    /// The largest body read (a bundle's limit).
    public let maxBytes: Int
    /// The most redirects followed for one fetch.
    public static let maxRedirects = 5

    private struct State {
        var schedule: BundlePollSchedule
        var etag: String?
        /// The SHA-256 of the last body returned.
        var digest: [UInt8]?
        var lastError: BundleFetchError?
    }

    private let state: Mutex<State>
    private let log = Logger(label: "rulesrun.bundles")

    /// A fetcher of the bundle at `url` (http or https). `maxBytes` is at most ``RuleBundle/maxBytes``.
    public init(
        url: URL, timeout: Duration = .seconds(30), maxBytes: Int = RuleBundle.maxBytes,
        schedule: BundlePollSchedule = BundlePollSchedule()
    ) throws(BundleFetchError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw BundleFetchError(url.absoluteString, .transport, "expected an http or https URL with a host")
        }
        self.url = url
        self.timeout = max(timeout, .milliseconds(100))
        self.maxBytes = min(max(maxBytes, 0), RuleBundle.maxBytes)
        state = Mutex(State(schedule: schedule))
    }

    /// The schedule, after the last fetch.
    public var schedule: BundlePollSchedule { state.withLock { $0.schedule } }
    /// How long to wait before the next fetch (zero before the first).
    public var nextPoll: Duration { state.withLock { $0.schedule.nextDelay } }
    /// The ETag of the last body returned (sent as `If-None-Match`).
    public var etag: String? { state.withLock { $0.etag } }
    /// The last fetch's error (nil after a success).
    public var lastError: BundleFetchError? { state.withLock { $0.lastError } }

    /// One GET of the URL: see the type's documentation. A cancelled task's fetch throws
    /// ``BundleFetchError/Kind/cancelled`` and leaves the schedule as it was.
    public func fetch() async throws(BundleFetchError) -> Outcome {
        let etag = state.withLock { $0.etag }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.seconds(timeout))
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        switch await Download.run(request, ifNoneMatch: etag, timeout: timeout, maxBytes: maxBytes) {
        case .failure(let error):
            if error.kind != .cancelled {
                let wait = state.withLock {
                    $0.lastError = error
                    return $0.schedule.failed(retryAfter: error.retryAfter)
                }
                log.warning("bundle fetch failed: \(error.description); next poll in \(Self.text(wait))")
            }
            throw error
        case .success(let answer):
            let digest = answer.status == 304 ? nil : Array(SHA256.hash(data: answer.body))
            let same = state.withLock { state in
                state.schedule.succeeded()
                state.lastError = nil
                guard let digest else { return true }
                defer { (state.digest, state.etag) = (digest, answer.etag) }
                return state.digest == digest
            }
            if same {
                log.debug("bundle at \(url.absoluteString) not modified (\(answer.status == 304 ? "304" : "the same bytes"))")
                return .notModified
            }
            log.info("fetched a bundle of \(answer.body.count) bytes from \(url.absoluteString)")
            return .new(bytes: answer.body, etag: answer.etag)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `30 s`, `1.5 s`.
    static func text(_ duration: Duration) -> String {
        let value = seconds(duration)
        return value == value.rounded() ? "\(Int(value)) s" : "\((value * 1000).rounded() / 1000) s"
    }
}

/// One GET through a URLSession of its own, whose delegate sees each part of the answer as it
/// comes: the status and headers (a Content-Length over the limit ends it there), each piece of
/// the body (past the limit ends it), redirects; a deadline ends it after the timeout.
private final class Download: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Answer: Sendable {
        var status: Int
        var etag: String?
        var body: [UInt8]
    }

    typealias Completion = CheckedContinuation<Result<Answer, BundleFetchError>, Never>

    private struct Progress {
        var continuation: Completion?
        var result: Result<Answer, BundleFetchError>?
        var task: URLSessionTask?
        var status: Int?
        var etag: String?
        var expected: Int64 = -1
        var body: [UInt8] = []
        var redirects = 0
    }

    // The delegate's calls come on the session's queue, the deadline's and a cancellation from elsewhere.
    private let progress = Mutex(Progress())
    private let url: String
    private let scheme: String
    private let ifNoneMatch: String?
    private let timeout: Duration
    private let maxBytes: Int

    private init(url: URL, ifNoneMatch: String?, timeout: Duration, maxBytes: Int) {
        self.url = url.absoluteString
        scheme = url.scheme?.lowercased() ?? ""
        self.ifNoneMatch = ifNoneMatch
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    static func run(
        _ request: URLRequest, ifNoneMatch: String?, timeout: Duration, maxBytes: Int
    ) async -> Result<Answer, BundleFetchError> {
        let download = Download(url: request.url!, ifNoneMatch: ifNoneMatch, timeout: timeout, maxBytes: maxBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = BundleFetcher.seconds(timeout)
        configuration.timeoutIntervalForResource = BundleFetcher.seconds(timeout)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: queue)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in download.start(task, continuation) }
        } onCancel: {
            download.finish(.failure(download.error(.cancelled, "the fetch was cancelled")))
        }
    }

    private func start(_ task: URLSessionTask, _ continuation: Completion) {
        let done: Result<Answer, BundleFetchError>? = progress.withLock {
            if let result = $0.result { return result }
            ($0.continuation, $0.task) = (continuation, task)
            return nil
        }
        if let done { return continuation.resume(returning: done) }
        DispatchQueue.global().asyncAfter(deadline: .now() + BundleFetcher.seconds(timeout)) { [weak self] in
            self?.timedOut()
        }
        task.resume()
    }

    private func timedOut() {
        finish(.failure(error(.timeout, "no whole answer within \(BundleFetcher.text(timeout)) (the fetcher's timeout)")))
    }

    /// The first result found ends the download: it resumes the fetch and cancels the task.
    ///
    /// FoundationNetworking (Linux) stops the process when a task is cancelled while it waits for
    /// the answer to a redirect: the task is cancelled under the lock, which the redirect's
    /// delegate holds while it answers, and a redirect is not answered once there is a result.
    fileprivate func finish(_ result: Result<Answer, BundleFetchError>) {
        let continuation: Completion? = progress.withLock { progress in
            guard progress.result == nil else { return nil }
            progress.result = result
            progress.task?.cancel()
            defer { (progress.continuation, progress.task) = (nil, nil) }
            return progress.continuation
        }
        continuation?.resume(returning: result)
    }

    fileprivate func error(_ kind: BundleFetchError.Kind, _ message: String, retryAfter: Duration? = nil) -> BundleFetchError {
        BundleFetchError(url, kind, message, retryAfter: retryAfter)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return finish(.failure(error(.transport, "not an HTTP response")))
        }
        let status = http.statusCode, length = http.expectedContentLength
        if status == 200, length > maxBytes {
            completionHandler(.cancel)
            let message = "Content-Length \(length), more than the \(maxBytes) bytes a bundle may have; not downloaded"
            return finish(.failure(error(.tooLarge, message)))
        }
        guard status == 200 || (status == 304 && ifNoneMatch != nil) else {
            let retryAfter = status == 429 || status == 503 ? Self.retryAfter(http.value(forHTTPHeaderField: "Retry-After")) : nil
            let asked = retryAfter.map { " (Retry-After: \(BundleFetcher.text($0)))" } ?? ""
            completionHandler(.cancel)
            let message = "HTTP \(status)\(asked), expected 200 (or 304 when the bundle is not modified)"
            return finish(.failure(error(.status(status), message, retryAfter: retryAfter)))
        }
        progress.withLock { ($0.status, $0.etag, $0.expected) = (status, http.value(forHTTPHeaderField: "ETag"), length) }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = progress.withLock {
            guard $0.result == nil else { return false }
            $0.body.append(contentsOf: data)
            return $0.body.count > maxBytes
        }
        if over {
            finish(.failure(error(.tooLarge, "more than the \(maxBytes) bytes a bundle may have; the download was stopped there")))
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let target = request.url?.absoluteString ?? "?"
        let targetScheme = request.url?.scheme?.lowercased() ?? ""
        let refusal: String? = progress.withLock { progress in
            // Finished (cancelled): no answer, see finish(_:).
            guard progress.result == nil else { return nil }
            progress.redirects += 1
            var refusal: String?
            if progress.redirects > BundleFetcher.maxRedirects {
                refusal = "more than \(BundleFetcher.maxRedirects) redirects (the last to \(target))"
            } else if targetScheme != scheme, scheme != "http" || targetScheme != "https" {
                refusal = "redirected to \(target): a redirect keeps the scheme (or goes from http to https)"
            }
            // The new request keeps the headers (If-None-Match).
            completionHandler(refusal == nil ? request : nil)
            return refusal
        }
        if let refusal { finish(.failure(error(.redirect, refusal))) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError failure: (any Error)?) {
        let (status, etag, expected, body) = progress.withLock { ($0.status, $0.etag, $0.expected, $0.body) }
        let cut =
            expected >= 0
            ? "after \(body.count) of the \(expected) bytes its Content-Length announced" : "after \(body.count) bytes, before its end"
        if let failure {
            let code = (failure as? URLError)?.code
            if code == .timedOut {
                timedOut()
            } else if code == .cancelled {
                finish(.failure(error(.cancelled, "the fetch was cancelled")))
            } else if status == 200 {
                finish(.failure(error(.truncated, "the body ended \(cut)")))
            } else {
                finish(.failure(error(.transport, "cannot fetch it: \(failure.localizedDescription)")))
            }
        } else if let status {
            if status == 200, expected >= 0, body.count != expected {
                finish(.failure(error(.truncated, "the body ended \(cut)")))
            } else {
                finish(.success(Answer(status: status, etag: etag, body: status == 200 ? body : [])))
            }
        } else {
            finish(.failure(error(.transport, "no HTTP response")))
        }
    }

    /// `Retry-After` in seconds (an HTTP date is not read: the backoff applies).
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
