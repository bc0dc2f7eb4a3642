import Foundation

/// Where a command's text goes and what it reads of its process: standard output and error, the
/// environment and whether standard error is a terminal. A command reads `Console.current`; the
/// process's own by default, another one for a command run in-process (``Rulesrun/run(_:console:)``,
/// the tests' way of running commands without a process each). A task-local value: code that a
/// command hands to threads of its own (a sweep's callback, a simulation's workers) takes the
/// value with it (`let console = Console.current`) before it leaves the command's thread.
struct Console: Sendable {
    enum Stream: Sendable { case output, error }

    /// Writes bytes to one of the two streams, whole (one write per call, as the process's own).
    let write: @Sendable (Stream, Data) -> Void
    let environment: [String: String]
    /// Whether standard error is a terminal (a progress bar is drawn only there).
    let errorIsTerminal: Bool
    /// Whether the command may take the process's signals (SIGINT, SIGTERM: ``StopSignal``,
    /// `InterruptCleanup`): only when the process is its own.
    var handlesSignals = false

    /// The process's own standard output and error, environment and terminal.
    static let process = Console(
        write: { stream, data in (stream == .output ? FileHandle.standardOutput : FileHandle.standardError).write(data) },
        environment: ProcessInfo.processInfo.environment, errorIsTerminal: isatty(2) == 1, handlesSignals: true)

    @TaskLocal static var current = Console.process

    /// `text` on standard output, as is.
    func output(_ text: String) { write(.output, Data(text.utf8)) }

    /// `text` on standard error, as is.
    func error(_ text: String) { write(.error, Data(text.utf8)) }
}
