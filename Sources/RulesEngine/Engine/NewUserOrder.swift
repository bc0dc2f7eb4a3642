import Foundation
import RulesModel

/// The ids of the users that a replay by user (``ParallelReplay`` into a database) creates, as a
/// replay line by line gives them: the next free id to each user in the order of the lines whose
/// events created them (a user's first applied event; a refused one creates nothing).
///
/// Each worker applies its events in line order and says which line it is at (``reach(_:worker:)``).
/// A worker whose event of line n creates a user waits (``id(at:worker:)``) until every other
/// worker has applied all of its events before n: the users created before line n are then all
/// counted, and none after it yet. Only the earliest line in progress can be waited for by the
/// others, and it waits for nobody: no two workers wait for each other.
final class NewUserOrder: @unchecked Sendable {
    private let condition = NSCondition()
    /// The id of the next user created.
    private var next: Int64 = 1
    /// Per worker, the line before which all of its events of the window are applied.
    private var reached: [Int]
    private var waiting = 0

    init(workers: Int) { reached = Array(repeating: 0, count: workers) }

    /// A window starts at line `first`: no worker has applied anything of it.
    func startWindow(at first: Int) {
        condition.lock()
        defer { condition.unlock() }
        for w in reached.indices { reached[w] = first }
    }

    /// The ids start at `first` (the database's next free one).
    func start(from first: UserID) {
        condition.lock()
        defer { condition.unlock() }
        next = first.rawValue
    }

    /// Worker `worker` has applied all its events before `line` (`Int.max`: all of the window's).
    func reach(_ line: Int, worker: Int) {
        condition.lock()
        defer { condition.unlock() }
        reached[worker] = line
        if waiting > 0 { condition.broadcast() }
    }

    /// The id of the user that the event of `line` (applied by `worker`) creates, should it be
    /// applied (then ``created()`` before the worker reaches its next line).
    func id(at line: Int, worker: Int) -> UserID {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        while reached.indices.contains(where: { $0 != worker && reached[$0] < line }) { condition.wait() }
        waiting -= 1
        return UserID(next)
    }

    /// The event that asked ``id(at:worker:)`` was applied: the user exists.
    func created() {
        condition.lock()
        defer { condition.unlock() }
        next += 1
    }
}
