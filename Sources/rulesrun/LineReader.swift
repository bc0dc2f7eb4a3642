import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file descriptor line by line as the lines arrive (events piped into standard input are
/// replayed while they are written). A line ends at "\n"; a "\r" before it stays in the line for
/// the caller to trim. The last line may have no ending. Lines are bytes: whether they are UTF-8
/// text is the caller's to check (and refuse), never repaired here. A line longer than
/// ``maxLineBytes`` stops the reading: the reader never holds more than that (and one read) in
/// memory, whatever the input (`/dev/zero` on standard input, a file of one line of hundreds of MB).
struct LineReader {
    enum ReadError: Error, CustomStringConvertible {
        case system(errno: Int32)
        case lineTooLong(line: Int, limit: Int)

        var isLineTooLong: Bool { if case .lineTooLong = self { true } else { false } }

        var description: String {
            switch self {
            case .system(let errno): String(cString: strerror(errno))
            case .lineTooLong(let line, let limit): "line \(line): longer than \(limit) bytes (the longest line rulesrun reads)"
            }
        }
    }

    /// The longest line read, without its ending: 1 MiB.
    static let maxLineBytes = 1 << 20

    let fd: Int32
    let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Lines returned so far.
    private(set) var lineNumber = 0

    init(fd: Int32, maxLineBytes: Int = LineReader.maxLineBytes) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    /// The next line without its "\n", or nil at the end of the input.
    mutating func next() throws(ReadError) -> [UInt8]? {
        var searchFrom = start
        while true {
            if let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                // A "\r" before the "\n" is not counted: it is part of the line's ending.
                let end = newline > start && buffer[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
                guard end - start <= maxLineBytes else { throw .lineTooLong(line: lineNumber + 1, limit: maxLineBytes) }
                defer { start = newline + 1 }
                lineNumber += 1
                return Array(buffer[start..<newline])
            }
            // No end yet: the line so far (less a "\r" that may start its ending) must fit.
            let pending = buffer.count - start - (buffer.last == UInt8(ascii: "\r") ? 1 : 0)
            guard pending <= maxLineBytes else { throw .lineTooLong(line: lineNumber + 1, limit: maxLineBytes) }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                lineNumber += 1
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
        // An array of zeros appended at once (a `repeatElement` is appended byte by byte: in a debug
        // build, most of the time the tests spent reading events).
        buffer.append(contentsOf: [UInt8](repeating: 0, count: chunk))
        var n: Int, failure: Int32 = 0
        repeat {
            n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + old, chunk) }
            failure = n < 0 ? errno : 0
        } while failure == EINTR
        buffer.removeLast(chunk - max(n, 0))
        if n < 0 { throw .system(errno: failure) }
        if n == 0 { atEnd = true }
    }
}
