import Foundation
import RulesEngine
import RulesStore
import TestSupport
import Testing

/// Bundles fetched over HTTP from a real server on 127.0.0.1 (docs/bundles.md#fetching): ETag and
/// 304, a new revision activated, a failing server's backoff and Retry-After, a truncated, slow,
/// huge or tampered answer refused with the active rules left in force, redirects.
@Suite struct BundleFetcherTests {
    static let one = try! BundledEngineTests.bundle(1)
    static let two = try! BundledEngineTests.bundle(2, edits: [("M.tier_for_misses = { 1, 2, 3 }", "M.tier_for_misses = { 2, 3, 4 }")])
    static let three = try! BundledEngineTests.bundle(3)

    /// An engine on bundle 1 in a folder of its own (removed by `body`'s end).
    func withEngine(_ body: (BundledEngine) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = try BundledEngine(
            store: try Store.inMemory(), folder: dir, trustedKeys: [BundledEngineTests.key.publicKey], initial: Self.one)
        try await body(engine)
    }

    /// Polls every 10 s, backs off up to 60 s, without jitter.
    static let schedule = BundlePollSchedule(interval: .seconds(10), maxBackoff: .seconds(60), jitter: 0, seed: 1)

    func fetcher(_ url: URL, timeout: Duration = .seconds(30), maxBytes: Int = RuleBundle.maxBytes) throws -> BundleFetcher {
        try BundleFetcher(url: url, timeout: timeout, maxBytes: maxBytes, schedule: Self.schedule)
    }

    func failure(_ update: BundleUpdate) -> BundleFetchError? { if case .fetchFailed(let error) = update { error } else { nil } }

    @Test func theScheduleDoublesUpToTheCapHonoursRetryAfterAndStartsOverOnSuccess() {
        var schedule = Self.schedule
        #expect(schedule.nextDelay == .zero)
        #expect((1...6).map { _ in schedule.failed() } == [10, 20, 40, 60, 60, 60].map { .seconds($0) })
        #expect(schedule.failures == 6)
        #expect(schedule.succeeded() == .seconds(10) && schedule.failures == 0)
        #expect(schedule.failed(retryAfter: .seconds(120)) == .seconds(120))
        #expect(schedule.failed() == .seconds(20))  // the second failure in a row
        #expect(schedule.failed(retryAfter: .seconds(10 * 24 * 3600)) == BundlePollSchedule.maxRetryAfter)
        // Jitter: each wait shortened by at most its share, the same for the same seed, another for another.
        func waits(_ seed: UInt64) -> [Duration] {
            var jittered = BundlePollSchedule(interval: .seconds(10), maxBackoff: .seconds(60), jitter: 0.5, seed: seed)
            return (1...6).map { _ in jittered.failed() }
        }
        let a = waits(7)
        #expect(a == waits(7) && a != waits(8))
        for (wait, base) in zip(a, [10, 20, 40, 60, 60, 60]) {
            #expect(wait > .seconds(base) / 2 && wait <= .seconds(base))
        }
        var retry = BundlePollSchedule(interval: .seconds(10), jitter: 0.5, seed: 7)
        let asked = retry.failed(retryAfter: .seconds(100))
        #expect(asked >= .seconds(100) && asked < .seconds(150))
    }

    @Test func aNewRevisionIsActivatedThenA304ChangesNothing() async throws {
        let host = StaticHost(Self.two, etag: "\"r2\"")
        let server = try LoopbackHTTPServer(host.respond)
        defer { server.stop() }
        try await withEngine { engine in
            let fetcher = try fetcher(server.url())
            #expect(await engine.update(from: fetcher) == .activated(revision: 2))
            #expect(fetcher.etag == "\"r2\"" && fetcher.nextPoll == .seconds(10))
            #expect(await engine.update(from: fetcher) == .notModified)
            #expect(server.requests.map { $0.header("If-None-Match") } == [nil, "\"r2\""])
            server.waitUntilIdle()
            #expect(server.bodyBytesSent(1) == 0)
            #expect(engine.status.activeRevision == 2 && engine.status.lastError == nil)
            host.serve(Self.three, etag: "\"r3\"")
            #expect(await engine.update(from: fetcher) == .activated(revision: 3))
            #expect(engine.status.activeRevision == 3 && fetcher.etag == "\"r3\"")
        }
    }

    /// The engine (not Sendable) owned by the main actor and updated from it, as an app's poll
    /// loop does (docs/embedding.md): only the fetch leaves the actor.
    @MainActor final class App {
        let rules: BundledEngine

        init(folder: URL) throws {
            rules = try BundledEngine(
                store: try Store.inMemory(), folder: folder, trustedKeys: [BundledEngineTests.key.publicKey],
                initial: BundleFetcherTests.one)
        }

        func poll(_ fetcher: BundleFetcher, times: Int) async -> [BundleUpdate] {
            var updates: [BundleUpdate] = []
            for _ in 0..<times { updates.append(await rules.update(from: fetcher)) }
            return updates
        }
    }

    @MainActor @Test func anAppPollsFromItsOwnActor() async throws {
        let server = try LoopbackHTTPServer(StaticHost(Self.two, etag: "\"r2\"").respond)
        defer { server.stop() }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try App(folder: dir)
        #expect(await app.poll(try fetcher(server.url()), times: 2) == [.activated(revision: 2), .notModified])
        #expect(app.rules.status.activeRevision == 2)
    }

    /// Without ETags, the bytes tell: the active bundle is not activated again, nor the last body.
    @Test func withoutAnETagTheSameBytesAreNotActivatedAgain() async throws {
        let host = StaticHost(Self.one, etag: nil)
        let server = try LoopbackHTTPServer(host.respond)
        defer { server.stop() }
        try await withEngine { engine in
            let fetcher = try fetcher(server.url())
            #expect(await engine.update(from: fetcher) == .notModified)
            #expect(engine.status.activeRevision == 1 && engine.status.lastError == nil)
            host.serve(Self.two, etag: nil)
            #expect(await engine.update(from: fetcher) == .activated(revision: 2))
            #expect(await engine.update(from: fetcher) == .notModified)
            #expect(engine.status.lastError == nil)
            #expect(server.requests.map { $0.header("If-None-Match") } == [nil, nil, nil])
        }
    }

    @Test func aFailingServerIsBackedOffFromDoublingUpToTheCap() async throws {
        let host = StaticHost(Self.two, etag: "\"r2\"")
        let server = try LoopbackHTTPServer { $0.index < 5 ? .status(500) : host.respond($0) }
        defer { server.stop() }
        try await withEngine { engine in
            let fetcher = try fetcher(server.url())
            var waits: [Duration] = []
            for _ in 0..<5 {
                let error = failure(await engine.update(from: fetcher))
                #expect(error?.kind == .status(500))
                #expect(error?.description == "\(server.url()): HTTP 500, expected 200 (or 304 when the bundle is not modified)")
                waits.append(fetcher.nextPoll)
            }
            #expect(waits == [10, 20, 40, 60, 60].map { .seconds($0) })
            #expect(engine.status.activeRevision == 1 && fetcher.lastError?.kind == .status(500))
            #expect(await engine.update(from: fetcher) == .activated(revision: 2))
            #expect(fetcher.nextPoll == .seconds(10) && fetcher.schedule.failures == 0 && fetcher.lastError == nil)
        }
        // No server at all: the connection fails.
        let gone = try LoopbackHTTPServer { _ in .status(200) }
        gone.stop()
        let error = await #expect(throws: BundleFetchError.self) { try await fetcher(gone.url()).fetch() }
        #expect(error?.kind == .transport && error?.message.hasPrefix("cannot fetch it: ") == true)
    }

    @Test func retryAfterIsHonouredOn503And429() async throws {
        let server = try LoopbackHTTPServer { request in
            request.index == 0 ? .status(503, [("Retry-After", "120")]) : .status(429, [("Retry-After", " 7 ")])
        }
        defer { server.stop() }
        let fetcher = try fetcher(server.url())
        let error = await #expect(throws: BundleFetchError.self) { try await fetcher.fetch() }
        #expect(error?.kind == .status(503) && error?.retryAfter == .seconds(120))
        #expect(error?.message == "HTTP 503 (Retry-After: 120 s), expected 200 (or 304 when the bundle is not modified)")
        #expect(fetcher.nextPoll == .seconds(120))
        await #expect(throws: BundleFetchError.self) { try await fetcher.fetch() }
        #expect(fetcher.nextPoll == .seconds(7) && fetcher.schedule.failures == 2)
    }

    /// A body cut short is not offered to the engine: the last good rules stay, and it is fetched again.
    @Test func aTruncatedBodyActivatesNothing() async throws {
        let whole = Self.two
        let server = try LoopbackHTTPServer { request in
            request.index == 0
                ? .init(status: 200, headers: [("ETag", "\"r2\"")], body: .cut(Array(whole[..<(whole.count / 2)]), announced: whole.count))
                : .ok(whole, etag: "\"r2\"")
        }
        defer { server.stop() }
        try await withEngine { engine in
            let fetcher = try fetcher(server.url())
            let error = failure(await engine.update(from: fetcher))
            #expect(error?.kind == .truncated)
            #expect(error?.message == "the body ended after \(whole.count / 2) of the \(whole.count) bytes its Content-Length announced")
            #expect(engine.status.activeRevision == 1 && engine.status.lastError == nil && fetcher.etag == nil)
            #expect(await engine.update(from: fetcher) == .activated(revision: 2))
            #expect(server.requests[1].header("If-None-Match") == nil)
        }
    }

    /// Headers, then nothing: the fetch gives up at its timeout (1 s here).
    @Test func aSlowServerTimesOut() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: .bytes(Self.two), stall: 20) }
        defer { server.stop() }
        try await withEngine { engine in
            let fetcher = try fetcher(server.url(), timeout: .seconds(1))
            let error = failure(await engine.update(from: fetcher))
            #expect(error?.kind == .timeout)
            #expect(error?.message == "no whole answer within 1 s (the fetcher's timeout)")
            #expect(engine.status.activeRevision == 1 && fetcher.nextPoll == .seconds(10))
        }
    }

    /// A Content-Length over the limit is refused before the body is read (the client closes the
    /// connection while the server waits to send it); a chunked body is stopped as it passes the
    /// limit, long before the server's 256 MiB.
    @Test func aHugeBodyIsRefusedWithoutReadingItAll() async throws {
        let server = try LoopbackHTTPServer { request in
            request.path == "/announced"
                ? .init(status: 200, body: .endless(announced: RuleBundle.maxBytes + 1), stall: 20)
                : .init(status: 200, body: .endless(announced: nil))
        }
        defer { server.stop() }
        let announced = await #expect(throws: BundleFetchError.self) { try await fetcher(server.url("/announced")).fetch() }
        #expect(announced?.kind == .tooLarge)
        #expect(announced?.message == "Content-Length 33554433, more than the 33554432 bytes a bundle may have; not downloaded")
        let chunked = await #expect(throws: BundleFetchError.self) { try await fetcher(server.url("/chunked"), maxBytes: 256 << 10).fetch() }
        #expect(chunked?.kind == .tooLarge)
        #expect(chunked?.message == "more than the 262144 bytes a bundle may have; the download was stopped there")
        server.waitUntilIdle()
        #expect(server.clientClosedInStall(0) && server.bodyBytesSent(0) == 0)
        #expect((server.bodyBytesSent(1) ?? .max) < 64 << 20)
    }

    /// A cancelled task's fetch ends at once and is not counted as a failure.
    @Test func aCancelledFetchEndsAndIsNotAFailure() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: .bytes(Self.two), stall: 60) }
        defer { server.stop() }
        // A timeout far beyond the wait for the request: on a busy machine the fetch must still be
        // running (not timed out) when it is cancelled.
        let fetcher = try fetcher(server.url(), timeout: .seconds(120))
        let task = Task { try await fetcher.fetch() }
        for _ in 0..<1000 where server.requests.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        let error = await #expect(throws: BundleFetchError.self) { try await task.value }
        #expect(error?.kind == .cancelled && fetcher.schedule.failures == 0 && fetcher.nextPoll == .zero)
        server.waitUntilIdle()
        #expect(server.clientClosedInStall(0))
    }

    /// The checks refuse it; the active revision stays, the status says why, and the same body
    /// (its ETag) is not downloaded again.
    @Test func aTamperedBundleIsRefusedAndNotDownloadedAgain() async throws {
        var tampered = Self.two
        tampered[tampered.count / 2] ^= 0x01
        let host = StaticHost(tampered, etag: "\"bad\"")
        let server = try LoopbackHTTPServer(host.respond)
        defer { server.stop() }
        try await withEngine { engine in
            let fetcher = try fetcher(server.url())
            guard case .refused(let error) = await engine.update(from: fetcher) else {
                Issue.record("the tampered bundle was not refused")
                return
            }
            #expect(error.file == server.url().absoluteString)
            #expect(engine.status.activeRevision == 1 && engine.status.lastError == error.description)
            #expect(await engine.update(from: fetcher) == .notModified)
            #expect(server.requests.map { $0.header("If-None-Match") } == [nil, "\"bad\""])
            #expect(engine.status.activeRevision == 1 && engine.status.lastError == error.description)
        }
    }

    /// A few redirects are followed (If-None-Match along); a loop is not, nor one to another
    /// scheme but from http to https.
    @Test func redirectsAreFollowedAtMostFiveTimesToTheSameScheme() async throws {
        let host = StaticHost(Self.two, etag: "\"r2\"")
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/old": .status(301, [("Location", "/rules.bundle")])
            case "/loop": .status(302, [("Location", "/loop")])
            case "/ftp": .status(302, [("Location", "ftp://127.0.0.1/rules.bundle")])
            case "/tls": .status(307, [("Location", "https://127.0.0.1:\(request.header("Host")!.split(separator: ":").last!)/")])
            default: host.respond(request)
            }
        }
        defer { server.stop() }
        try await withEngine { engine in
            let fetcher = try fetcher(server.url("/old"))
            #expect(await engine.update(from: fetcher) == .activated(revision: 2))
            #expect(await engine.update(from: fetcher) == .notModified)
            #expect(server.requests.map(\.path) == ["/old", "/rules.bundle", "/old", "/rules.bundle"])
            #expect(server.requests.map { $0.header("If-None-Match") } == [nil, nil, "\"r2\"", "\"r2\""])
        }
        let error = await #expect(throws: BundleFetchError.self) { try await fetcher(server.url("/loop")).fetch() }
        #expect(error?.kind == .redirect)
        #expect(error?.message == "more than 5 redirects (the last to \(server.url("/loop")))")
        let ftp = await #expect(throws: BundleFetchError.self) { try await fetcher(server.url("/ftp")).fetch() }
        #expect(ftp?.message == "redirected to ftp://127.0.0.1/rules.bundle: a redirect keeps the scheme (or goes from http to https)")
        // To https: followed (this server speaks no TLS, so the connection fails).
        let tls = await #expect(throws: BundleFetchError.self) { try await fetcher(server.url("/tls")).fetch() }
        #expect(tls?.kind == .transport)
        #expect(throws: BundleFetchError.self) { try BundleFetcher(url: URL(fileURLWithPath: "/tmp/rules.bundle")) }
    }
}
