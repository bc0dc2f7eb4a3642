import Synchronization

/// A static file host for a ``LoopbackHTTPServer``: the file it holds now, with its ETag or none;
/// 304 to a matching If-None-Match (`LoopbackHTTPServer(host.respond)`).
public final class StaticHost: Sendable {
    let file: Mutex<(bytes: [UInt8], etag: String?)>

    public init(_ bytes: [UInt8], etag: String?) { file = Mutex((bytes, etag)) }

    /// Replaces the file (a new bundle published).
    public func serve(_ bytes: [UInt8], etag: String?) { file.withLock { $0 = (bytes, etag) } }

    public func respond(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let (bytes, etag) = file.withLock { $0 }
        if let etag, request.header("If-None-Match") == etag { return .status(304, [("ETag", etag)]).withoutBody }
        return .ok(bytes, etag: etag)
    }
}

extension LoopbackHTTPServer.Response {
    /// The same response without a body (a 304's).
    public var withoutBody: Self {
        var response = self
        response.body = .bytes([])
        return response
    }
}
