import Foundation
import Testing

/// A command line rulesrun printed for pasting (a reproduce line, a replay command), run as a user
/// pastes it: by `/bin/sh -c`, with the built `rulesrun` first on the PATH.
enum PastedCommand {
    /// `environment`: variables set (or replaced) in the test's own environment.
    static func run(_ line: String, in folder: URL, environment extra: [String: String] = [:]) throws -> CLI.Result {
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("rulesrun"), withDestinationURL: CLI.executable)
        var environment = extra
        environment["PATH"] = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try CLI.run(["-c", line], in: folder, executableURL: URL(fileURLWithPath: "/bin/sh"), environment: environment)
    }

    /// The files under `folder` whose name starts with `INJECTED`: what `touch INJECTED_1`, a
    /// command a name smuggled into a printed line, would have made.
    static func injected(under folder: URL) -> [String] {
        let all = FileManager.default.enumerator(atPath: folder.path).map { $0.compactMap { $0 as? String } } ?? []
        return all.filter { ($0 as NSString).lastPathComponent.hasPrefix("INJECTED") }
    }
}
