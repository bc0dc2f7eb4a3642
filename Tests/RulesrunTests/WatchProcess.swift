import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A `rulesrun` process that keeps running (`rulesrun watch`): its output is read as it comes, a
/// test waits for a line with a timeout (generous: the machine may be loaded), edits files, and
/// ends it with a signal.
final class WatchProcess: @unchecked Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    private let process: Process
    private let lock = NSLock()
    /// Left by each reader at the end of its pipe.
    private let readers = DispatchGroup()
    private var output = ""
    private var errors = ""
    /// Where the next wait starts looking, in `output`.
    private var cursor: String.Index

    init(_ arguments: [String], in directory: URL? = nil) throws {
        cursor = output.startIndex
        let (process, out, err) = try CLI.launch(arguments, in: directory)
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
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found: String? = lock.withLock {
                guard let range = output.range(of: text, range: cursor..<output.endIndex),
                    let end = output[range.upperBound...].firstIndex(of: "\n")
                else { return nil }
                let seen = String(output[cursor...end])
                cursor = output.index(after: end)
                return seen
            }
            if let found { return found }
            if !process.isRunning, !lock.withLock({ output[cursor...].contains(text) }) {
                throw Timeout(
                    description:
                        "the process ended (\(process.terminationStatus)) without printing '\(text)'; it printed:\n\(stdout)\nstderr:\n\(stderr)"
                )
            }
            usleep(20_000)
        }
        // The readers hold this object until the process ends: a test that gave up must end it.
        process.terminate()
        throw Timeout(description: "no line with '\(text)' in \(Int(timeout)) s; the output:\n\(stdout)\nstderr:\n\(stderr)")
    }

    /// Sends `signal` (again every half second with `repeating`: a second signal, whichever moment
    /// the first was handled) and waits for the process to end; its exit status (128 + the signal if it was killed by it).
    func stop(_ signal: Int32 = SIGINT, repeating: Bool = false, timeout: TimeInterval = 60) throws -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        var sent = Date()
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw Timeout(description: "the process did not end in \(Int(timeout)) s after signal \(signal); it printed:\n\(stdout)")
            }
            if repeating, Date().timeIntervalSince(sent) >= 0.5 {
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
