import Foundation
import LuaHost
import RulesModel
import RulesStore

/// A replay (``Replay``) run in parallel by user, in memory, with the output of a sequential one.
///
/// The input is read in windows (``Options/windowLines`` lines or ``Options/windowBytes`` bytes,
/// whichever comes first). The lines of a window are parsed by every worker in turn (a slice
/// each); then each event goes to the worker that owns its user (``owner(of:workers:)``: a stable
/// hash of the name), which applies its events in input order on its own engine (its own rule set,
/// its own Lua state) whose users stay in memory from one window to the next
/// (`Engine.recordingBatch`, asking the rules at every call as an event on its own does). A
/// user's events are thus applied in the same order, on the same state, as by one engine: the
/// outputs are those of ``Replay`` line for line, whatever the number of workers. They are handed
/// to `write` in input order once the whole window is applied.
///
/// For an analysis, `observer` makes each worker a closure called on the worker's thread with
/// each event it applied (``Applied``), in the worker's input order; ``Options/state`` false
/// leaves the state out of the outputs (not computed: the event is applied as a simulation
/// applies it).
///
/// Into a database (``run(into:next:write:windowEnd:)``, ``Options/journal``), each worker's users'
/// rows record what their events write (``StoreJournal``: the rows the store's operations would
/// write, or, for the rare ones, the operation), and the users take the ids a replay line by line
/// gives them (``NewUserOrder``). Once a window is applied, a writer thread runs it on the store in
/// line order in one transaction — the store's own writes in the order of a replay line by line,
/// hence its database — and then its outputs are handed over, while the writer writes the next
/// window; the workers run below the writer (``WriterPriority``).
///
/// A rule that draws from `math.random` draws from its user's stream (``RuleDraws``, seeded from
/// ``Options/seed``), whichever worker applies the user's events.
package final class ParallelReplay {
    package struct Options: Sendable {
        /// Worker threads, each with its own rule set and engine.
        package var jobs: Int
        /// Whether each output has the user's `state`.
        package var state = true
        /// The most lines read before they are applied.
        package var windowLines = 20_000
        /// The most bytes read before they are applied (a line read is always applied).
        package var windowBytes = 8 << 20
        /// The seed of the users' `math.random` streams (``RuleDraws``).
        package var seed: UInt64 = 1
        /// Whether the workers record their store operations, for ``run(into:next:write:windowEnd:)``.
        package var journal = false

        package init(jobs: Int, state: Bool = true) {
            self.jobs = jobs
            self.state = state
        }
    }

    /// One output line: the value, its text (rendered on the worker), and what the rules printed
    /// while its event was applied (`print`), each as ``Replay/printLine(_:at:)`` gives it.
    package struct Output {
        package let value: JSONValue
        package let text: String
        package let prints: [String]
    }

    /// An event a worker applied (or that was refused): for an `observer`.
    package struct Applied {
        package let number: Int
        package let event: EngineEvent
        /// The line's output (its `state` only with ``Options/state``).
        package let output: JSONValue
        /// Whether the event was applied (false: refused, nothing changed).
        package var ok: Bool { output["ok"] == .bool(true) }
    }

    /// The most workers (each has its own Lua state).
    package static let maxJobs = 256

    /// The page cache of the writer's connection into a store, in MiB (pages are kept from one
    /// window to the next instead of read back from the log).
    static let writerCacheMiB = 256

    let options: Options
    private let workers: [Worker]
    private var threads: [Thread] = []
    /// The ids of new users, with ``Options/journal``.
    private let order: NewUserOrder?

    /// Workers on `rules` (the first uses it, the others load its snapshot): `rules` must not be
    /// used by the caller until the run is over. `observer(w)` makes worker w's closure.
    package init(rules: RuleSet, options: Options, observer: ((Int) -> (Applied) -> Void)? = nil) throws {
        precondition((1...Self.maxJobs).contains(options.jobs), "jobs from 1 to \(Self.maxJobs)")
        self.options = options
        let order = options.journal ? NewUserOrder(workers: options.jobs) : nil
        var workers: [Worker] = []
        for w in 0..<options.jobs {
            let set = w == 0 ? rules : try rules.snapshot.load(limits: rules.host.limits)
            workers.append(
                Worker(
                    index: w, rules: set, ruleFolder: rules.snapshot.path, state: options.state, seed: options.seed, order: order,
                    observer: observer?(w)))
        }
        self.workers = workers
        self.order = order
    }

    /// The worker that applies the events of `user`: FNV-1a of its UTF-8 bytes, modulo `workers`.
    package static func owner(of user: String, workers: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in user.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(workers))
    }

    /// Replays the lines `next` gives (as ``Replay/run(next:writeValue:)`` takes them), handing
    /// each output to `write` in input order, a window at a time, then calling `windowEnd`. When
    /// `next` throws, the lines read before are applied and written first.
    @discardableResult
    package func run<Failure: Error>(
        next: () throws(Failure) -> [UInt8]?, write: (Output) -> Void, windowEnd: () -> Void = {}
    ) throws(Failure) -> Replay.Status {
        precondition(!options.journal, "a replay that records its store operations runs into a store")
        startThreads()
        defer { stopThreads() }
        var status = Replay.Status()
        var number = 0
        var stopped: Failure?
        while stopped == nil {
            let (window, atEnd) = read(next, after: number, stopped: &stopped)
            number += window.raw.count
            guard !window.raw.isEmpty else { break }
            perform(.parse, window)
            perform(.apply, window)
            for out in outputs(of: window) {
                status.count(out.value)
                write(out)
            }
            windowEnd()
            if atEnd { break }
        }
        if let stopped { throw stopped }
        return status
    }

    /// Replays the lines `next` gives into `store`, which holds no user (the workers know only the
    /// users they create), as ``run(next:write:windowEnd:)`` does in memory: each window's store
    /// operations are written in one transaction (``StoreJournal``) by a writer thread, and only
    /// once it is committed are the window's outputs handed to `write` and `windowEnd` called (on
    /// the calling thread), while the writer writes the next window and the workers apply the one
    /// after. When `next` throws, the lines read before are applied, written and handed over
    /// first; when the store refuses a window, nothing of it nor of a later window is written or
    /// handed over, and the error is thrown.
    @discardableResult
    package func run<Failure: Error>(
        into store: Store, next: () throws(Failure) -> [UInt8]?, write: (Output) -> Void, windowEnd: () -> Void = {}
    ) throws -> Replay.Status {
        guard let order else { preconditionFailure("a replay into a store records its store operations (Options.journal)") }
        order.start(from: try store.read { try $0.nextUserID() })
        try store.cacheWrites(mib: Self.writerCacheMiB)
        startThreads()
        defer { stopThreads() }
        var status = Replay.Status()
        var number = 0
        var stopped: Failure?
        let writer = DispatchQueue(label: "rulesrun.replay.writer")
        let refusal = Refusal()
        // No window is left being written when the run ends.
        defer { writer.sync {} }
        // The window handed to the writer whose outputs are not handed over yet.
        var printing: (outputs: [Output], commit: Commit)?
        func handOverCommitted() throws {
            guard let (outputs, commit) = printing else { return }
            printing = nil
            commit.done.wait()
            if let error = commit.error { throw error }
            for out in outputs {
                status.count(out.value)
                write(out)
            }
            windowEnd()
        }
        while stopped == nil {
            let (window, atEnd) = read(next, after: number, stopped: &stopped)
            number += window.raw.count
            guard !window.raw.isEmpty else { break }
            perform(.parse, window)
            order.startWindow(at: window.first)
            perform(.apply, window)
            if let failure = workers.lazy.compactMap(\.failure).first { throw failure }
            let commit = Commit(workers.map { $0.journal!.take() })
            writer.async { commit.write(to: store, unless: refusal) }
            // The window before, committed, is handed over while the writer writes this one.
            try handOverCommitted()
            printing = (outputs(of: window), commit)
            if atEnd { break }
        }
        try handOverCommitted()
        if let stopped { throw stopped }
        return status
    }

    /// A window's store operations, written by the writer thread, and what became of them.
    final class Commit: @unchecked Sendable {
        let journals: [[StoreJournal.Entry]]
        /// Signalled once the transaction is committed, or refused.
        let done = DispatchSemaphore(value: 0)
        private(set) var error: (any Error)?

        init(_ journals: [[StoreJournal.Entry]]) { self.journals = journals }

        /// Writes the operations in one transaction, unless the store refused a window before.
        func write(to store: Store, unless refusal: Refusal) {
            defer { done.signal() }
            if let refused = refusal.error {
                error = refused
                return
            }
            do {
                try store.transaction { try StoreJournal.run(journals, on: store) }
            } catch {
                self.error = error
                refusal.error = error
            }
        }
    }

    /// The error of the first window the store refused (read and written on the writer thread only).
    final class Refusal: @unchecked Sendable {
        var error: (any Error)?
    }

    /// The next window of lines `next` gives after line `number`, and whether it is the last
    /// (shorter than a window); when `next` throws, the lines read before, and `stopped` set.
    private func read<Failure: Error>(
        _ next: () throws(Failure) -> [UInt8]?, after number: Int, stopped: inout Failure?
    ) -> (Window, atEnd: Bool) {
        let window = Window(first: number + 1)
        var bytes = 0
        do {
            while window.raw.count < options.windowLines, bytes < options.windowBytes, let line = try next() {
                window.raw.append(line)
                bytes += line.count
            }
        } catch {
            stopped = error
        }
        window.slices = workers.count
        return (window, window.raw.count < options.windowLines && bytes < options.windowBytes)
    }

    /// The outputs of an applied window in input order, taken from the workers.
    private func outputs(of window: Window) -> [Output] {
        var outputs: [Output] = []
        outputs.reserveCapacity(window.raw.count)
        var taken = Array(repeating: 0, count: workers.count)
        for slice in window.parsed {
            for item in slice {
                switch item {
                case .skipped: continue
                case .ready(let ready): outputs.append(ready)
                case .event(_, let owner):
                    outputs.append(workers[owner].outputs[taken[owner]])
                    taken[owner] += 1
                }
            }
        }
        for worker in workers { worker.outputs.removeAll(keepingCapacity: true) }
        return outputs
    }

    /// What the workers do with a window: parse their slice of its lines, or apply their users' events.
    enum Phase { case parse, apply }

    /// A window's lines and what became of them (each worker writes only its own slice).
    final class Window: @unchecked Sendable {
        let first: Int
        var raw: [[UInt8]] = []
        var slices = 1
        /// Per slice, in line order.
        var parsed: [[Item]] = []

        init(first: Int) { self.first = first }

        /// The lines of slice `s` of `slices` (contiguous, about equal).
        func range(of s: Int) -> Range<Int> { raw.count * s / slices..<raw.count * (s + 1) / slices }
    }

    enum Item {
        case skipped
        /// A malformed line's output.
        case ready(Output)
        /// An event, and the worker that owns its user.
        case event(EngineEvent, owner: Int)
    }

    private func perform(_ phase: Phase, _ window: Window) {
        start(phase, window)
        finish(phase, window)
    }

    /// Starts the workers on a phase of `window` (``finish(_:_:)`` waits for them).
    private func start(_ phase: Phase, _ window: Window) {
        if phase == .parse { window.parsed = Array(repeating: [], count: workers.count) }
        for worker in workers { worker.start(phase, window) }
    }

    private func finish(_ phase: Phase, _ window: Window) {
        for worker in workers {
            worker.done.wait()
            if phase == .parse { window.parsed[worker.index] = worker.parsed; worker.parsed = [] }
        }
    }

    private func startThreads() {
        guard threads.isEmpty else { return }
        let count = workers.count
        let belowTheWriter = options.journal
        for worker in workers {
            let thread = Thread {
                if belowTheWriter { WriterPriority.runBelowTheWriter() }
                worker.loop(workers: count)
            }
            thread.stackSize = 8 << 20
            if belowTheWriter { thread.qualityOfService = .utility }
            threads.append(thread)
            thread.start()
        }
    }

    private func stopThreads() {
        guard !threads.isEmpty else { return }
        for worker in workers { worker.start(nil, nil) }
        for worker in workers { worker.done.wait() }
        threads = []
    }

    /// One worker: its rule set, its engine (in one recording batch for the whole run, whose
    /// users stay in memory), and what it made of the window in hand.
    final class Worker: @unchecked Sendable {
        let index: Int
        let rules: RuleSet
        let replay: Replay
        let state: Bool
        let observer: ((Applied) -> Void)?
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        private var phase: Phase?
        private var window: Window?
        /// The parse phase's items of this worker's slice.
        var parsed: [Item] = []
        /// The apply phase's outputs, in input order.
        var outputs: [Output] = []
        /// What the rules printed for the event being applied.
        private var prints: [String] = []
        /// With ``Options/journal``: the store operations of the users' rows, the ids of new users,
        /// and the users whose bookkeeping the window changed.
        let journal: StoreJournal?
        private let order: NewUserOrder?
        private var touched: Set<String> = []
        /// The line being applied, and whether its event was given the id of a new user.
        private var line = 0
        private var gaveID = false
        /// What stopped the worker's window (the bookkeeping of its users could not be recorded).
        var failure: (any Error)?

        init(
            index: Int, rules: RuleSet, ruleFolder: String, state: Bool, seed: UInt64, order: NewUserOrder?,
            observer: ((Applied) -> Void)?
        ) {
            self.index = index
            self.rules = rules
            self.state = state
            self.observer = observer
            self.order = order
            journal = order == nil ? nil : StoreJournal()
            let engine = Engine(rules: rules, ruleFolder: ruleFolder)
            engine.journal = journal
            replay = Replay(engine: engine, draws: RuleDraws(seed: seed))
            if let order {
                // The id a replay line by line gives the user.
                engine.userID = { [unowned self] _ in
                    gaveID = true
                    return order.id(at: line, worker: index)
                }
            } else {
                // Ids are for rows written to a database; a replay in memory writes none.
                var next: Int64 = 0
                engine.userID = { _ in
                    next += 1
                    return UserID(next)
                }
            }
            rules.host.positionedPrintHandler = { [unowned self] text, position in
                prints.append(Replay.printLine(text, at: position))
            }
        }

        func start(_ phase: Phase?, _ window: Window?) {
            self.phase = phase
            self.window = window
            go.signal()
        }

        /// The worker's thread: one recording batch for the whole run (its users stay from one
        /// window to the next), a phase of a window at each `start`, until told to stop.
        func loop(workers: Int) {
            _ = try? replay.engine.recordingBatch(keepingRecords: false, remembering: false) {
                while true {
                    go.wait()
                    guard let phase, let window else { break }
                    perform(phase, window, workers: workers)
                    self.window = nil
                    done.signal()
                }
            }
            done.signal()
        }

        func perform(_ phase: Phase, _ window: Window, workers: Int) {
            switch phase {
            case .parse:
                for i in window.range(of: index) {
                    let number = window.first + i
                    switch Replay.line(window.raw[i], number: number) {
                    case .skipped: parsed.append(.skipped)
                    case .malformed(let out): parsed.append(.ready(Output(value: out, text: out.description, prints: [])))
                    case .event(let event): parsed.append(.event(event, owner: ParallelReplay.owner(of: event.user, workers: workers)))
                    }
                }
            case .apply:
                var number = window.first
                for (s, slice) in window.parsed.enumerated() {
                    number = window.first + window.range(of: s).lowerBound
                    for item in slice {
                        defer { number += 1 }
                        guard case .event(let event, let owner) = item, owner == index else { continue }
                        let recorded = begin(number)
                        let out = replay.output(for: event, number: number, state: state)
                        if let recorded { end(out, of: event, recorded: recorded) }
                        observer?(Applied(number: number, event: event, output: out))
                        outputs.append(Output(value: out, text: out.description, prints: prints))
                        prints.removeAll()
                    }
                }
                if journal != nil { endWindow() }
            }
        }

        /// With a journal, before the event of line `number`: where the journal is (nil without one).
        private func begin(_ number: Int) -> Int? {
            guard let journal, let order else { return nil }
            line = number
            gaveID = false
            journal.line = number
            order.reach(number, worker: index)
            return journal.count
        }

        /// After an event: a refused one's operations dropped, an applied one's user counted.
        private func end(_ out: JSONValue, of event: EngineEvent, recorded: Int) {
            guard out["ok"] == .bool(true) else {
                journal?.truncate(to: recorded)
                return
            }
            touched.insert(event.user)
            if gaveID { order?.created() }
        }

        /// The bookkeeping of the users the window changed, recorded after every line's operations.
        private func endWindow() {
            journal?.line = Int.max
            do {
                try replay.engine.saveRecorded(users: touched.sorted())
            } catch {
                failure = error
            }
            touched.removeAll(keepingCapacity: true)
            order?.reach(Int.max, worker: index)
        }
    }
}
