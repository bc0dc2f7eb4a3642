import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A `rulesrun` process that keeps running (`rulesrun watch`): its output is read as it comes, a
/// test waits for a line with a timeout (generous: the machine may be loaded), edits files, and
/// ends it with a signal. With `input`, another program (`executableURL`) reads lines a test sends
/// (``send(_:)``) and answers each with a line (``nextLine(timeout:)``), until its input ends
/// (``finish(timeout:)``).
final class WatchProcess: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    private let process: Process
    private let input: Pipe?
    private let lock = NSLock()
    /// Left by each reader at the end of its pipe.
    private let readers = DispatchGroup()
    private var output = ""
    private var errors = ""
    /// Where the next wait starts looking, in `output`.
    private var cursor: String.Index

    init(_ arguments: [String], in directory: URL? = nil, executableURL: URL = CLI.executable, input: Bool = false) throws {
        cursor = output.startIndex
        self.input = input ? Pipe() : nil
        let (process, out, err) = try CLI.launch(arguments, in: directory, executableURL: executableURL, input: self.input)
        self.process = process
        for (handle, isOutput) in [(out, true), (err, false)] {
            readers.enter()
            Thread.detachNewThread { [self] in
                defer { readers.leave() }
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    lock.lock()
                    if isOutput { output += String(decoding: data, as: UTF8.self) } else { errors += String(decoding: data, as: UTF8.self) }
                    lock.unlock()
                }
            }
        }
    }

    /// Everything the process wrote to standard output so far.
    var stdout: String { lock.withLock { output } }
    var stderr: String { lock.withLock { errors } }

    /// Waits for a line containing `text` after the previous wait's line; returns the output from
    /// there to the end of that line.
    @discardableResult
    func waitForLine(containing text: String, timeout: TimeInterval = 60) throws -> String {
        try wait(for: "a line with '\(text)'", timeout: timeout) { rest in
            rest.range(of: text).flatMap { rest[$0.upperBound...].firstIndex(of: "\n") }
        }
    }

    /// The next line of output after the previous wait's line, without its line feed.
    func nextLine(timeout: TimeInterval = 60) throws -> String {
        String(try wait(for: "a line", timeout: timeout) { $0.firstIndex(of: "\n") }.dropLast())
    }

    /// Waits until `end` finds, in the output after the previous wait's, the line feed that ends
    /// what is waited for (`what`, for messages); returns the output up to it.
    private func wait(for what: String, timeout: TimeInterval, end: (Substring) -> String.Index?) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found: String? = lock.withLock {
                guard let end = end(output[cursor...]) else { return nil }
                let seen = String(output[cursor...end])
                cursor = output.index(after: end)
                return seen
            }
            if let found { return found }
            if !process.isRunning, readers.wait(timeout: .now() + 10) == .success, lock.withLock({ end(output[cursor...]) == nil }) {
                throw Timeout(
                    description:
                        "the process ended (\(process.terminationStatus)) without printing \(what); it printed:\n\(stdout)\nstderr:\n\(stderr)"
                )
            }
            usleep(20_000)
        }
        // The readers hold this object until the process ends: a test that gave up must end it.
        process.terminate()
        throw Timeout(description: "no \(what) in \(Int(timeout)) s; the output:\n\(stdout)\nstderr:\n\(stderr)")
    }

    /// Writes `line` and a line feed to the process's input.
    func send(_ line: String) throws {
        // Not to a process that ended: the write would raise SIGPIPE in the test process.
        guard let input, process.isRunning else {
            throw Timeout(description: "the process ended (\(process.terminationStatus)) before '\(line)'; stderr:\n\(stderr)")
        }
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes the process's input and waits for it to end; its exit status.
    func finish(timeout: TimeInterval = 60) throws -> Int32 {
        try input?.fileHandleForWriting.close()
        return try waitForEnd(after: "its input ended", timeout: timeout)
    }

    /// Sends `signal` (again every half second with `repeating`: a second signal, whichever moment
    /// the first was handled) and waits for the process to end; its exit status (128 + the signal if it was killed by it).
    func stop(_ signal: Int32 = SIGINT, repeating: Bool = false, timeout: TimeInterval = 60) throws -> Int32 {
        kill(process.processIdentifier, signal)
        return try waitForEnd(after: "signal \(signal)", timeout: timeout, repeating: repeating ? signal : nil)
    }

    /// Waits for the process to end (sending `repeating` every half second); its exit status.
    private func waitForEnd(after cause: String, timeout: TimeInterval, repeating signal: Int32? = nil) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        var sent = Date()
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw Timeout(description: "the process did not end in \(Int(timeout)) s after \(cause); it printed:\n\(stdout)")
            }
            if let signal, Date().timeIntervalSince(sent) >= 0.5 {
                kill(process.processIdentifier, signal)
                sent = Date()
            }
            usleep(20_000)
        }
        // The readers have the last bytes once the pipes are at their end.
        _ = readers.wait(timeout: .now() + 10)
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate() } }
}
