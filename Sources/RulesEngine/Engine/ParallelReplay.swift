import Foundation
import LuaHost
import RulesModel

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

    let options: Options
    private let workers: [Worker]
    private var threads: [Thread] = []

    /// Workers on `rules` (the first uses it, the others load its snapshot): `rules` must not be
    /// used by the caller until the run is over. `observer(w)` makes worker w's closure.
    package init(rules: RuleSet, options: Options, observer: ((Int) -> (Applied) -> Void)? = nil) throws {
        precondition((1...Self.maxJobs).contains(options.jobs), "jobs from 1 to \(Self.maxJobs)")
        self.options = options
        var workers: [Worker] = []
        for w in 0..<options.jobs {
            let set = w == 0 ? rules : try rules.snapshot.load(limits: rules.host.limits)
            workers.append(
                Worker(
                    index: w, rules: set, ruleFolder: rules.snapshot.path, state: options.state, seed: options.seed,
                    observer: observer?(w)))
        }
        self.workers = workers
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
        startThreads()
        defer { stopThreads() }
        var status = Replay.Status()
        var number = 0
        var stopped: Failure?
        while stopped == nil {
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
            number += window.raw.count
            guard !window.raw.isEmpty else { break }
            let atEnd = window.raw.count < options.windowLines && bytes < options.windowBytes
            window.slices = workers.count
            perform(.parse, window)
            perform(.apply, window)
            var taken = Array(repeating: 0, count: workers.count)
            for slice in window.parsed {
                for item in slice {
                    let out: Output
                    switch item {
                    case .skipped: continue
                    case .ready(let ready): out = ready
                    case .event(_, let owner):
                        out = workers[owner].outputs[taken[owner]]
                        taken[owner] += 1
                    }
                    status.count(out.value)
                    write(out)
                }
            }
            for worker in workers { worker.outputs.removeAll(keepingCapacity: true) }
            windowEnd()
            if atEnd { break }
        }
        if let stopped { throw stopped }
        return status
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
        if phase == .parse { window.parsed = Array(repeating: [], count: workers.count) }
        for worker in workers { worker.start(phase, window) }
        for worker in workers {
            worker.done.wait()
            if phase == .parse { window.parsed[worker.index] = worker.parsed; worker.parsed = [] }
        }
    }

    private func startThreads() {
        guard threads.isEmpty else { return }
        let count = workers.count
        for worker in workers {
            let thread = Thread { worker.loop(workers: count) }
            thread.stackSize = 8 << 20
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

        init(index: Int, rules: RuleSet, ruleFolder: String, state: Bool, seed: UInt64, observer: ((Applied) -> Void)?) {
            self.index = index
            self.rules = rules
            self.state = state
            self.observer = observer
            let engine = Engine(rules: rules, ruleFolder: ruleFolder)
            // Ids are for rows written to a database; a replay in memory writes none.
            var next: Int64 = 0
            engine.userID = { _ in
                next += 1
                return UserID(next)
            }
            replay = Replay(engine: engine, draws: RuleDraws(seed: seed))
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
                        let out = replay.output(for: event, number: number, state: state)
                        observer?(Applied(number: number, event: event, output: out))
                        outputs.append(Output(value: out, text: out.description, prints: prints))
                        prints.removeAll()
                    }
                }
            }
        }
    }
}
