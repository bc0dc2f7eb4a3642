#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the pipe SIGINT and SIGTERM write to (set before the handlers are installed:
/// the handler only reads it and calls `write(2)`, which is safe in a signal handler).
nonisolated(unsafe) private var stopPipeWriteEnd: Int32 = -1
/// The signals received so far (written by the handler only).
nonisolated(unsafe) private var stopSignalsReceived: Int32 = 0

/// SIGINT (Ctrl-C) and SIGTERM as something to wait for: their handler writes the signal's number
/// to a pipe (the self-pipe trick), whose read end `rulesrun watch` polls beside its inotify
/// descriptor, and checks between the steps of a cycle. The process is not killed: it ends
/// cleanly, with a final line, when it sees the byte. A second signal, for a step that takes
/// long (a large `--simulate`), ends it at once with 128 + the signal (130 for SIGINT).
enum StopSignal {
    /// The read end of the pipe (non-blocking). Installs the handlers once.
    static let readEnd: Int32 = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        stopPipeWriteEnd = ends[1]
        let handler: @convention(c) (Int32) -> Void = { signal in
            stopSignalsReceived += 1
            if stopSignalsReceived > 1 { _exit(128 + signal) }
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(stopPipeWriteEnd, &byte, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A process may start with them blocked (its parent's mask is inherited: a test runner's
        // thread, some job controls), which would make them wait forever.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        return ends[0]
    }()

    /// Installs the handlers (before the first wait, so that a signal is never lost), when the
    /// command owns the process (``Console/handlesSignals``).
    static func install() {
        if Console.current.handlesSignals { _ = readEnd }
    }

    /// The signal received, if one was (`SIGINT`, `SIGTERM`); reads it without waiting.
    static func received() -> String? {
        guard Console.current.handlesSignals else { return nil }
        var byte: UInt8 = 0
        guard read(readEnd, &byte, 1) == 1 else { return nil }
        // Kept readable for the next look: the watch stops at the first place it checks.
        _ = write(stopPipeWriteEnd, &byte, 1)
        return Int32(byte) == SIGTERM ? "SIGTERM" : "SIGINT"
    }
}
