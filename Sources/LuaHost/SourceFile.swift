#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading the small text files a rule set is made of (`.lua` files, `extends`, personas) without
/// trusting them: what is not a regular file is named for what it is, and the size is checked with
/// `fstat` before anything is read (a 300 MB file is refused at once, not read and then refused).
package enum SourceFile {
    /// Why a file could not be read.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case missing
        /// A directory, a device, a FIFO, a socket: `kind` says which (`a directory`).
        case notRegularFile(kind: String)
        case tooLarge(bytes: Int, limit: Int)
        case unreadable(reason: String)

        package var description: String {
            switch self {
            case .missing: "no such file"
            case .notRegularFile(let kind): "not a regular file (\(kind))"
            case .tooLarge(let bytes, let limit): "the file is \(bytes) bytes, more than the \(limit) allowed"
            case .unreadable(let reason): "cannot read the file (\(reason))"
            }
        }
    }

    /// The bytes of the regular file at `path` (symbolic links followed), at most `maxBytes` of them.
    package static func read(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
        let fd = open(WorkingFolder.resolve(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            if let kind = kind(of: path), kind != "a regular file" { throw .notRegularFile(kind: kind) }
            throw .unreadable(reason: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(kind: describe(mode: info.st_mode)) }
        guard Int(info.st_size) <= maxBytes else { throw .tooLarge(bytes: Int(info.st_size), limit: maxBytes) }
        // Read at most one byte more than allowed: a file that grew since fstat is still refused.
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= maxBytes else { throw .tooLarge(bytes: count, limit: maxBytes) }
                bytes.append(contentsOf: repeatElement(0, count: min(max(count, 4096), maxBytes + 1 - count)))
            }
            let n = bytes.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            count += n
        }
        guard count <= maxBytes else { throw .tooLarge(bytes: count, limit: maxBytes) }
        return Array(bytes.prefix(count))
    }

    /// What is at `path` (symbolic links followed): `a regular file`, `a directory`, … ; nil when
    /// nothing is.
    package static func kind(of path: String) -> String? {
        var info = stat()
        guard stat(WorkingFolder.resolve(path), &info) == 0 else { return nil }
        return describe(mode: info.st_mode)
    }

    /// What a mode says a file is: `a regular file`, `a character device`, `a FIFO`, …
    package static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "an unknown kind of file"
        }
    }

    /// `bytes` without a leading UTF-8 byte-order mark (editors on Windows write one).
    package static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// `text` as a message may quote it: at most `limit` characters, with what was cut said.
    package static func excerpt(_ text: some StringProtocol, limit: Int = 200) -> String {
        let characters = text.count
        guard characters > limit else { return String(text) }
        return "\(text.prefix(limit))… (\(characters) characters)"
    }
}

/// `read(2)` (inside `SourceFile`, `read` is its own method).
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
