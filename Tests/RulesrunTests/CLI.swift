import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Testing

import LuaHost
import RulesEngine
@testable import rulesrun

/// Runs `rulesrun`'s commands: in this process (``inProcess(_:)``) when nothing about the call
/// needs a process of its own, else the real executable built next to the test bundle.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let executable: URL = binary("rulesrun")

    /// The environment of the tests' commands, in this process and in every process a test starts:
    /// the test process's, with a proof store of this run's own (``ProofStore``: `proofs/` under
    /// ``TestFolders/parent``, removed with it), so that no test reads or fills the user's and the
    /// processes of one run share their proofs.
    static let environment: [String: String] = {
        _ = TestFolders.shared
        let proofs = TestFolders.parent.appendingPathComponent("proofs").path
        return ProcessInfo.processInfo.environment.merging([ProofStore.variable: proofs]) { $1 }
    }()

    /// A product built next to the test bundle.
    static func binary(_ name: String) -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// The package root (where `rules/` is).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The working folder of a test's commands when it names none: a temporary folder of the
    /// test's own (one per test function: the cases of a parameterized test share it) holding a
    /// link to each entry of the package root, so that `rules`, `examples/…` read the package's
    /// files while what a command writes by default (`.rulesrun/`: the database, compare's replay
    /// files, their locks) is the test's alone, and no test waits for another's lock.
    static var workingFolder: URL { TestFolders.shared.folder(for: Test.current?.id.description ?? "outside a test") }

    static func run(
        _ arguments: [String], in given: URL? = nil, executable name: String = "rulesrun",
        executableURL: URL? = nil, environment: [String: String] = [:], timeout: Duration = .seconds(900),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result {
        let directory = given ?? workingFolder
        // In this process unless the call needs a process: another executable, another environment.
        if executableURL == nil, name == "rulesrun", environment.isEmpty {
            return inProcess(arguments, in: directory)
        }
        let (process, out, err) = try launch(
            arguments, in: directory, executableURL: executableURL ?? (name == "rulesrun" ? executable : binary(name)),
            environment: environment)
        // Killed past its timeout (then the test has an issue): a hung child fails its test, not the suite.
        let finished = DispatchSemaphore(value: 0)
        let killed = Flag()
        DispatchQueue.global().async {
            if finished.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) == .timedOut {
                killed.set()
                kill(process.processIdentifier, SIGKILL)
            }
        }
        let (stdout, stderr) = drain(out, err)
        process.waitUntilExit()
        finished.signal()
        if killed.isSet { Issue.record("rulesrun \(arguments) was killed after \(timeout)", sourceLocation: sourceLocation) }
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs the command in this process, as the executable's `main` would (``Rulesrun/run(_:)``),
    /// in `directory` (``WorkingFolder``: relative paths are under it), its standard output and
    /// error collected apart (``Console``): no process to start, and the proofs of a rule folder
    /// already proved in this process are not run again.
    static func inProcess(_ arguments: [String], in given: URL? = nil) -> Result {
        let directory = given ?? workingFolder
        final class Streams: @unchecked Sendable {
            private let lock = NSLock()
            private var output = Data(), error = Data()
            func write(_ stream: Console.Stream, _ data: Data) {
                lock.withLock { stream == .output ? output.append(data) : error.append(data) }
            }
            var texts: (String, String) { lock.withLock { (String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self)) } }
        }
        let streams = Streams()
        let console = Console(write: { streams.write($0, $1) }, environment: environment, errorIsTerminal: false)
        let status = WorkingFolder.$path.withValue(directory.standardizedFileURL.path) {
            Console.$current.withValue(console) { Rulesrun.run(arguments) }
        }
        let (stdout, stderr) = streams.texts
        return Result(status: status, stdout: stdout, stderr: stderr)
    }

    /// Both pipes read to their ends at once: read one after the other, a child that fills the
    /// pipe not being read (64 KiB of standard error while its output is read) would wait forever.
    static func drain(_ out: FileHandle, _ err: FileHandle) -> (stdout: Data, stderr: Data) {
        final class Box: @unchecked Sendable { var data = Data() }
        let errors = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errors.data = err.readDataToEndOfFile()
            done.signal()
        }
        let output = out.readDataToEndOfFile()
        done.wait()
        return (output, errors.data)
    }

    /// A flag set from another thread.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// Starts `executableURL` (`rulesrun` by default) with `arguments` in `directory`, its standard
    /// output and error on pipes: the launch of `run` and of `WatchProcess`, which read them.
    /// `environment`: variables set (or replaced) in ``environment``; `input`: its standard input.
    static func launch(
        _ arguments: [String], in given: URL? = nil, executableURL: URL = executable, environment: [String: String] = [:],
        input: Pipe? = nil
    ) throws -> (
        process: Process, stdout: FileHandle, stderr: FileHandle
    ) {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        process.currentDirectoryURL = given ?? workingFolder
        process.environment = CLI.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let input { process.standardInput = input }
        try process.run()
        return (process, out.fileHandleForReading, err.fileHandleForReading)
    }

    /// A fresh temporary folder holding the given files.
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-\(UUID().uuidString)")
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// `text` (a rule file's) with each `old` replaced by `new`: an `old` that the text no longer
    /// contains is an issue, not an edit that silently leaves the rules as they are.
    static func edit(_ text: String, _ edits: [(old: String, new: String)], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        var text = text
        for edit in edits {
            #expect(text.contains(edit.old), "the rule file no longer contains \(edit.old)", sourceLocation: sourceLocation)
            text = text.replacingOccurrences(of: edit.old, with: edit.new)
        }
        return text
    }

    /// Runs `rulesrun` with its output thrown away and returns its exit status and peak resident
    /// memory (kB): the high-water mark of its own memory (`VmHWM` in /proc/PID/status), read
    /// every millisecond until it exits. Not `wait4`'s `ru_maxrss`: Linux carries the spawning
    /// process's peak into its child's (the child starts in the parent's memory until it execs),
    /// so under a test runner of 250 MB every child would measure at least that. It runs in the
    /// test's working directory: give absolute paths. `input`: a file for its standard input.
    static func peakMemory(_ arguments: [String], input: String? = nil) throws -> (status: Int32, maxRSSKilobytes: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let input { posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0) }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.fileReadUnknown) }
        var status: Int32 = 0, peak = 0
        while true {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap({ Int($0) })
            {
                peak = max(peak, kilobytes)
            }
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) { break }
            usleep(1000)
        }
        return ((status >> 8) & 0xff, peak)
    }
}

/// The tests' working folders (``CLI/workingFolder``), made on first use under one folder of this
/// process, which is removed when the process exits.
final class TestFolders: @unchecked Sendable {
    static let shared = TestFolders()
    static let parent = FileManager.default.temporaryDirectory.appendingPathComponent("rulesrun-tests-\(getpid())")
    private let lock = NSLock()
    private var folders: [String: URL] = [:]

    private init() {
        atexit { try? FileManager.default.removeItem(at: TestFolders.parent) }
    }

    func folder(for test: String) -> URL {
        lock.withLock {
            if let folder = folders[test] { return folder }
            let folder = Self.parent.appendingPathComponent("\(folders.count)", isDirectory: true)
            let manager = FileManager.default
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
                for name in try manager.contentsOfDirectory(atPath: CLI.packageRoot.path)
                where name != ".rulesrun" && !name.hasPrefix(".build") {
                    try manager.createSymbolicLink(
                        at: folder.appendingPathComponent(name), withDestinationURL: CLI.packageRoot.appendingPathComponent(name))
                }
            } catch {
                Issue.record("the working folder of \(test) could not be made: \(error)")
            }
            folders[test] = folder
            return folder
        }
    }
}
