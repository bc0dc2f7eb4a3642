import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file descriptor line by line as the lines arrive (events piped into standard input are
/// replayed while they are written). A line ends at "\n"; a "\r" before it stays in the line for
/// the caller to trim. The last line may have no ending. Lines are bytes: whether they are UTF-8
/// text is the caller's to check (and refuse), never repaired here.
struct LineReader {
    struct ReadError: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { String(cString: strerror(errno)) }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    init(fd: Int32) { self.fd = fd }

    /// The next line without its "\n", or nil at the end of the input.
    mutating func next() throws(ReadError) -> [UInt8]? {
        var searchFrom = start
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = newline + 1 }
                return Array(buffer[start..<newline])
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Array(buffer[start...])
            }
            buffer.removeSubrange(0..<start)
            start = 0
            searchFrom = buffer.count
            try fill()
        }
    }

    private mutating func fill() throws(ReadError) {
        let chunk = 1 << 16
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        var n: Int, failure: Int32 = 0
        repeat {
            n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + old, chunk) }
            failure = n < 0 ? errno : 0
        } while failure == EINTR
        buffer.removeLast(chunk - max(n, 0))
        if n < 0 { throw ReadError(errno: failure) }
        if n == 0 { atEnd = true }
    }
}
