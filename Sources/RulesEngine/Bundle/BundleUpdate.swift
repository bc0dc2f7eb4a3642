/// What one ``BundledEngine/update(from:isolation:)`` did.
public enum BundleUpdate: Sendable, Equatable {
    /// No new bundle: a 304, or the same bytes as the last body fetched or as the active bundle.
    case notModified
    /// A new bundle passed every check: its rules are in force.
    case activated(revision: Int)
    /// A new bundle was refused: the active rules stay in force, and `status.lastError` says why.
    case refused(BundleError)
    /// The fetch failed: nothing changed; the fetcher backs off.
    case fetchFailed(BundleFetchError)
}

extension BundledEngine {
    /// Fetches the bundle (``BundleFetcher/fetch()``, the HTTP part, off the caller's task) and
    /// activates a new one (``activate(_:source:)``, every check) on the caller's actor, where the
    /// engine is used: `BundledEngine` is not `Sendable`. Then wait ``BundleFetcher/nextPoll``.
    ///
    /// A body with the active bundle's bytes is not activated again (a host that gives no ETag, or
    /// the first fetch after a start). A refused body's ETag is remembered like any other's: it is
    /// not downloaded again while the server's ETag for it stays the same (and without an ETag, the
    /// same bytes are not offered again), so `status.lastError` keeps saying why it was refused.
    public func update(from fetcher: BundleFetcher, isolation: isolated (any Actor)? = #isolation) async -> BundleUpdate {
        let bytes: [UInt8]
        do {
            guard case .new(let body, _) = try await fetcher.fetch() else { return .notModified }
            bytes = body
        } catch {
            return .fetchFailed(error)
        }
        if bytes == active.bytes {
            log.debug("the bundle at \(fetcher.url.absoluteString) is the active one (revision \(status.activeRevision))")
            return .notModified
        }
        do {
            return .activated(revision: try activate(bytes, source: fetcher.url.absoluteString).activeRevision)
        } catch {
            return .refused(error)
        }
    }
}
