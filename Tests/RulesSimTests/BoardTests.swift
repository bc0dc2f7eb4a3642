import Foundation
@testable import RulesSim
import Testing

/// The chunks' hand-over (``Board``): with a window, no chunk is handed out further than the
/// window ahead of the chunks the writer took.
@Suite struct BoardTests {
    @Test func chunksAreHandedOutAtMostTheWindowAheadOfTheWriter() throws {
        let board = Board(chunks: 5, window: 2)
        #expect(board.nextChunk() == 0)
        #expect(board.nextChunk() == 1)
        // The window is full: a worker asking for the next chunk waits until the writer takes
        // chunk 0 (or the run stops).
        let answered = DispatchSemaphore(value: 0)
        let third = Locked<Int??>(.none)
        let thread = Thread {
            let chunk = board.nextChunk()
            third.set(.some(chunk))
            answered.signal()
        }
        thread.start()
        // Until the worker waits, or (wrongly) got a chunk.
        try Self.waitUntil { board.waitingWorkers > 0 || third.value != .none }
        #expect(third.value == .none)
        board.deliver(1, ChunkResult(days: [], segments: [], records: [], failures: RuleFailures()))
        board.deliver(0, ChunkResult(days: [], segments: [], records: [], failures: RuleFailures()))
        _ = try board.wait(for: 0)
        #expect(answered.wait(timeout: .now() + 60) == .success, "the waiting worker got no chunk")
        #expect(third.value == .some(2))
        _ = try board.wait(for: 1)
        // Chunks 2 and 3 fill the window again; 4 comes when the writer took 2.
        #expect(board.nextChunk() == 3)
        board.deliver(2, ChunkResult(days: [], segments: [], records: [], failures: RuleFailures()))
        _ = try board.wait(for: 2)
        #expect(board.nextChunk() == 4)
        #expect(board.nextChunk() == nil)
    }

    /// With a database, the users whose rows a run holds at once (the window's chunks) stay under
    /// three write batches (and a user per worker) whatever the number of workers: they grew with
    /// the workers (10,000 users: 1.88 GB of memory with two, 2.26 GB with eight). Without one,
    /// every worker still gets four chunks of a small cohort.
    @Test func theRowsARunHoldsDoNotGrowWithTheWorkers() {
        let batchUsers = Simulation.writeBatchUsers
        for users in [1, 7, 100, 1_000, 10_000, 1_000_000] {
            for jobs in [1, 2, 3, 8, 16, 64, 256] where jobs <= users {
                for chunkSize in [1, 5, 100, 1_000] {
                    let size = Simulation.chunkSize(users: users, jobs: jobs, at: chunkSize, batch: batchUsers)
                    let batch = Simulation.batch(users: users, size: size, at: batchUsers)
                    let window = Simulation.window(workers: jobs, size: size, batch: batch)
                    #expect(size >= 1 && size <= chunkSize)
                    let held = min(window * size, users)
                    #expect(held <= 3 * batchUsers + jobs, "\(users) users, \(jobs) jobs, chunks of \(chunkSize): \(held) held")
                }
                let inMemory = Simulation.chunkSize(users: users, jobs: jobs, at: 100, batch: nil)
                #expect(inMemory == max(1, min(100, users / (jobs * 4))))
            }
        }
    }

    @Test func aWorkerWaitingForTheWindowStopsWhenTheRunIsCancelled() throws {
        let board = Board(chunks: 5, window: 1)
        #expect(board.nextChunk() == 0)
        let answered = DispatchSemaphore(value: 0)
        let next = Locked<Int??>(.none)
        let thread = Thread {
            let chunk = board.nextChunk()
            next.set(.some(chunk))
            answered.signal()
        }
        thread.start()
        try Self.waitUntil { board.waitingWorkers > 0 || next.value != .none }
        #expect(next.value == .none)
        board.cancel()
        #expect(answered.wait(timeout: .now() + 60) == .success, "the waiting worker did not stop")
        #expect(next.value == .some(nil))
    }

    @Test func withoutAWindowEveryChunkIsHandedOutAtOnce() {
        let board = Board(chunks: 3)
        #expect((0..<4).map { _ in board.nextChunk() } == [0, 1, 2, nil])
    }
}

/// A value shared with a thread.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func set(_ value: Value) {
        lock.lock()
        stored = value
        lock.unlock()
    }
}

extension BoardTests {
    /// Waits until `condition` holds (the other thread reached its point), for at most a minute:
    /// a board that never lets the worker wait fails the test instead of hanging the suite.
    static func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("the worker neither waited nor got a chunk within a minute", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            usleep(1000)
        }
    }
}
