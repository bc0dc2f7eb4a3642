import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue), sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM, sendFlags: Int32 = 0
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (never another address), on a port the system chose, for
/// tests that fetch over HTTP: a thread accepts connections, each request (its headers kept, in
/// ``requests``) is answered by `respond` with a scripted ``Response`` (status, headers, a body,
/// a body cut short, an endless body, a stall after the headers), then the connection is closed.
public final class LoopbackHTTPServer: Sendable {
    public struct Request: Sendable {
        /// Its place among the server's requests, from 0.
        public var index: Int
        public var method: String
        public var path: String
        public var headers: [(name: String, value: String)]

        /// The first header `name` (any case).
        public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    public struct Response: Sendable {
        public enum Body: Sendable {
            /// These bytes, with their Content-Length.
            case bytes([UInt8])
            /// These bytes after a Content-Length of `announced`; then the connection is closed.
            case cut([UInt8], announced: Int)
            /// Bytes without end until the client goes (64 KiB a millisecond at most, 256 MiB in
            /// all): after a Content-Length of `announced`, or chunked (nil).
            case endless(announced: Int?)
        }

        public var status: Int
        public var headers: [(String, String)]
        public var body: Body
        /// Seconds to wait after the headers (less when the client closes the connection first).
        public var stall: Double

        public init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([]), stall: Double = 0) {
            self.status = status
            self.headers = headers
            self.body = body
            self.stall = stall
        }

        public static func ok(_ body: [UInt8], etag: String? = nil) -> Response {
            Response(status: 200, headers: etag.map { [("ETag", $0)] } ?? [], body: .bytes(body))
        }

        public static func status(_ status: Int, _ headers: [(String, String)] = []) -> Response {
            Response(status: status, headers: headers, body: .bytes(Array("status \(status)\n".utf8)))
        }
    }

    private struct State {
        var requests: [Request] = []
        /// Body bytes sent, by request.
        var sent: [Int: Int] = [:]
        /// The requests whose client closed the connection during the stall.
        var closedInStall: Set<Int> = []
        var open = 0
        var stopped = false
    }

    public let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())
    private let respond: @Sendable (Request) -> Response

    public init(_ respond: @escaping @Sendable (Request) -> Response) throws {
        self.respond = respond
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` and `path`.
    public func url(_ path: String = "/rules.bundle") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    public var requests: [Request] { state.withLock { $0.requests } }

    /// The body bytes sent for request `index` (nil: not answered yet).
    public func bodyBytesSent(_ index: Int) -> Int? { state.withLock { $0.sent[index] } }

    /// Whether the client of request `index` closed the connection before the stall's end.
    public func clientClosedInStall(_ index: Int) -> Bool { state.withLock { $0.closedInStall.contains(index) } }

    /// Waits (at most 10 s) until every connection was answered and closed.
    public func waitUntilIdle() {
        for _ in 0..<1000 where state.withLock({ $0.open > 0 }) { usleep(10_000) }
    }

    public func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR, !state.withLock({ $0.stopped }) { continue }
                return
            }
            state.withLock { $0.open += 1 }
            #if canImport(Darwin)
                var one: Int32 = 1
                setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            Thread.detachNewThread { [self] in
                serve(client)
                close(client)
                state.withLock { $0.open -= 1 }
            }
        }
    }

    private func serve(_ client: Int32) {
        guard var request = readRequest(client) else { return }
        state.withLock {
            request.index = $0.requests.count
            $0.requests.append(request)
        }
        let response = respond(request)
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\nConnection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        switch response.body {
        case .bytes(let bytes): head += "Content-Length: \(bytes.count)\r\n"
        case .cut(_, let announced), .endless(announced: .some(let announced)): head += "Content-Length: \(announced)\r\n"
        case .endless(announced: nil): head += "Transfer-Encoding: chunked\r\n"
        }
        var sent = 0
        defer { state.withLock { $0.sent[request.index] = sent } }
        guard write(client, Array((head + "\r\n").utf8)) else { return }
        if response.stall > 0 {
            // Until the time is up, or the client closes (readable at its end).
            var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(response.stall * 1000)) > 0 {
                var byte: UInt8 = 0
                if recv(client, &byte, 1, Int32(MSG_PEEK)) <= 0 {
                    state.withLock { _ = $0.closedInStall.insert(request.index) }
                    return
                }
            }
        }
        switch response.body {
        case .bytes(let bytes), .cut(let bytes, _):
            if write(client, bytes) { sent = bytes.count }
        case .endless(let announced):
            let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
            let chunk = announced == nil ? Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8) : piece
            while sent < 256 << 20, write(client, chunk) {
                sent += piece.count
                usleep(1000)
            }
        }
    }

    /// The request line and headers (at most 64 KiB); nil when the client sent no whole request,
    /// or something else than HTTP.
    private func readRequest(_ client: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while bytes.count < 64 << 10 {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            // Not HTTP (a TLS handshake): closed at once.
            guard bytes.first.map({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) == true else { return nil }
            if let at = bytes.firstRange(of: end) {
                let lines = String(decoding: bytes[..<at.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let parts = lines[0].split(separator: " ")
                guard parts.count == 3 else { return nil }
                let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                return Request(index: 0, method: String(parts[0]), path: String(parts[1]), headers: headers)
            }
        }
        return nil
    }

    /// Sends all of `bytes`; false when the client is gone.
    private func write(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, sendFlags) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    static func reason(_ status: Int) -> String {
        [
            200: "OK", 301: "Moved Permanently", 302: "Found", 304: "Not Modified", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error", 503: "Service Unavailable",
        ][status] ?? "Status"
    }
}
