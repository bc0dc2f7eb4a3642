import Foundation

/// A command line rulesrun printed for pasting (a reproduce line, a replay command), run as a user
/// pastes it: by `/bin/sh -c`, with the built `rulesrun` first on the PATH.
enum PastedCommand {
    /// `environment`: variables set (or replaced) in the test's own environment.
    static func run(_ line: String, in folder: URL, environment extra: [String: String] = [:]) throws -> CLI.Result {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("rulesrun"), withDestinationURL: CLI.executable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { $1 }
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The files under `folder` whose name starts with `INJECTED`: what `touch INJECTED_1`, a
    /// command a name smuggled into a printed line, would have made.
    static func injected(under folder: URL) -> [String] {
        let all = FileManager.default.enumerator(atPath: folder.path).map { $0.compactMap { $0 as? String } } ?? []
        return all.filter { ($0 as NSString).lastPathComponent.hasPrefix("INJECTED") }
    }
}
