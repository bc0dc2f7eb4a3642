import Foundation

/// The priority of worker threads that feed one writer thread (a simulation's, a replay's into a
/// database): the writer (SQLite, one thread) is the run's critical path.
package enum WriterPriority {
    /// Lowers the calling worker thread's priority below the writer's: the writer then gets a core
    /// whenever it has rows to write, and the workers share the rest. (Linux: the nice value is per
    /// thread; elsewhere the threads' quality of service does it.)
    package static func runBelowTheWriter() {
        #if os(Linux)
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
    }
}
