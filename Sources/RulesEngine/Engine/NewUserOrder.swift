import Foundation
import RulesModel
import Synchronization

/// The ids of the users that a replay by user (``ParallelReplay`` into a database) creates, as a
/// replay line by line gives them: the next free id to each user in the order of the lines whose
/// events created them (a user's first applied event; a refused one creates nothing).
///
/// Each worker applies its events in line order and says which line it is at (``reach(_:worker:)``).
/// A worker whose event of line n creates a user waits (``id(at:worker:)``) until every other
/// worker has applied all of its events before n: the users created before line n are then all
/// counted, and none after it yet. Only the earliest line in progress can be waited for by the
/// others, and it waits for nobody: no two workers wait for each other.
///
/// A worker says where it is at each line without a lock (an atomic store, and a lock only when it
/// reaches the line another worker waits for): a lock taken by every worker at every line made
/// them wake each other through the kernel, a tenth of the CPU time of `replay --db`; so did a
/// wake-up at every line while another worker waited (a waiter woken to wait again).
final class NewUserOrder: @unchecked Sendable {
    private let condition = NSCondition()
    /// The id of the next user created (under the lock).
    private var next: Int64 = 1
    /// Per worker, the line before which all of its events of the window are applied.
    private let reached: [Reached]
    /// The lines the workers waiting in ``id(at:worker:)`` wait at (under the lock), and the
    /// earliest of them (`Int.max`: none).
    private var waits: [Int] = []
    private let earliestWait = Atomic<Int>(.max)

    final class Reached: Sendable {
        let line = Atomic<Int>(0)
    }

    init(workers: Int) { reached = (0..<workers).map { _ in Reached() } }

    /// A window starts at line `first`: no worker has applied anything of it (the workers wait
    /// for the window).
    func startWindow(at first: Int) {
        for worker in reached { worker.line.store(first, ordering: .sequentiallyConsistent) }
    }

    /// The ids start at `first` (the database's next free one).
    func start(from first: UserID) {
        condition.lock()
        defer { condition.unlock() }
        next = first.rawValue
    }

    /// Worker `worker` has applied all its events before `line` (`Int.max`: all of the window's).
    /// (A waiter says where it waits before it reads the lines, and this reads it after storing
    /// the line, both sequentially consistent: either the waiter sees the line, or this sees the
    /// waiter and, reaching its line, wakes it under the lock, which the waiter holds until it waits.)
    func reach(_ line: Int, worker: Int) {
        reached[worker].line.store(line, ordering: .sequentiallyConsistent)
        guard line >= earliestWait.load(ordering: .sequentiallyConsistent) else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// The id of the user that the event of `line` (applied by `worker`) creates, should it be
    /// applied (then ``created()`` before the worker reaches its next line).
    func id(at line: Int, worker: Int) -> UserID {
        condition.lock()
        defer { condition.unlock() }
        waits.append(line)
        earliestWait.store(waits.min()!, ordering: .sequentiallyConsistent)
        func behind(_ w: Int) -> Bool { w != worker && reached[w].line.load(ordering: .sequentiallyConsistent) < line }
        while reached.indices.contains(where: behind) { condition.wait() }
        waits.remove(at: waits.firstIndex(of: line)!)
        earliestWait.store(waits.min() ?? .max, ordering: .sequentiallyConsistent)
        return UserID(next)
    }

    /// The event that asked ``id(at:worker:)`` was applied: the user exists.
    func created() {
        condition.lock()
        defer { condition.unlock() }
        next += 1
    }
}
