import Dispatch
import Foundation

/// The files a run is writing that it must not leave behind when it is interrupted (SIGINT,
/// SIGTERM): a new database not yet in place, its journal, a lock file. With
/// ``installSignalHandlers()``, such a signal removes them and exits with 128 + the signal
/// (130, 143). Nothing else is removed: `--append`'s target is left to SQLite, which rolls the
/// unfinished transaction back at the next open.
package enum InterruptCleanup {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var files: [Int: [String]] = [:]
        var next = 0
        var sources: [any DispatchSourceSignal] = []
    }

    private static let registry = Registry()

    /// Removes `paths` if the process is interrupted, until ``remove(_:)`` is called with the
    /// number returned.
    package static func add(_ paths: [String]) -> Int {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.next += 1
        registry.files[registry.next] = paths
        return registry.next
    }

    /// Runs `create`, which makes files and returns those to remove if the process is
    /// interrupted, and registers them, as one step: a signal arriving meanwhile is handled once
    /// they are registered (its handler waits for the registry), so that no file made is left
    /// behind for having been made a moment before it was registered.
    package static func add<E: Error>(creating create: () throws(E) -> [String]) throws(E) -> Int {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        let paths = try create()
        registry.next += 1
        registry.files[registry.next] = paths
        return registry.next
    }

    package static func remove(_ token: Int) {
        registry.lock.lock()
        registry.files[token] = nil
        registry.lock.unlock()
    }

    /// Makes SIGINT and SIGTERM remove the registered files, say so on standard error and exit
    /// with 130 or 143. Called once, by the command that writes files.
    package static func installSignalHandlers(command: String) {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        guard registry.sources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                registry.lock.lock()  // held until the exit: nothing is registered or removed meanwhile
                for path in registry.files.values.joined() { unlink(path) }
                FileHandle.standardError.write(
                    Data("\n\(command): interrupted; the files it was writing are removed, the previous ones left as they were\n".utf8))
                _exit(128 + signalNumber)
            }
            source.resume()
            registry.sources.append(source)
        }
    }
}
