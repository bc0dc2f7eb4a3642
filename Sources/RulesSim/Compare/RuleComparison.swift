import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// `rulesrun compare`'s differential half: two rule sets on the same generated histories.
///
/// Each history is walked through both sets with `HistoryWalker` (the rules as pure functions, no
/// store: thousands of histories a second); differences are grouped by kind — the field decided
/// differently, or the expectation broken. For each kind, the first history that shows it is
/// shrunk (`HistoryGenerator.shrink`) to a minimal one, written as a replay file (`ReplayScript`),
/// and that file is replayed through `Engine` under both sets (in-memory stores) to check that the
/// engine shows the same difference, and to read the first diverging event and the states around it.
///
/// Like a `RuleSet`, a comparison belongs to one thread.
package final class RuleComparison {
    package let nameA: String
    package let nameB: String
    package let rulesA: any PolicyRules
    package let rulesB: any PolicyRules
    package let options: CompareOptions

    package init(a: (name: String, rules: any PolicyRules), b: (name: String, rules: any PolicyRules), options: CompareOptions) {
        nameA = a.name
        nameB = b.name
        rulesA = a.rules
        rulesB = b.rules
        self.options = options
    }

    /// Loads both rule folders; the problems of every folder `RuleSet.load` rejects (A's, B's or
    /// both) are thrown together, each named.
    package convenience init(folderA: String, folderB: String, options: CompareOptions) throws(CompareInputError) {
        func load(_ folder: String) -> Result<RuleSet, CompareInputError.Folder> {
            do {
                return .success(try RuleSet.load(folder))
            } catch let error as RuleSetError {
                return .failure(.init(folder: folder, problems: error.problems.map(\.description)))
            } catch {
                return .failure(.init(folder: folder, problems: ["\(error)"]))
            }
        }
        switch (load(folderA), load(folderB)) {
        case (.success(let a), .success(let b)): self.init(a: (folderA, a), b: (folderB, b), options: options)
        case (.failure(let a), .failure(let b)): throw CompareInputError(folders: [a, b])
        case (.failure(let a), _), (_, .failure(let a)): throw CompareInputError(folders: [a])
        }
    }

    var comparison: HistoryComparison {
        HistoryComparison(left: (nameA, rulesA), right: (nameB, rulesB), ignoring: options.ignored, expectations: options.expectations)
    }

    /// What `walkAll` found: histories walked, how many differ, per kind how many and the first.
    package typealias Walked = (
        histories: Int, differing: Int, counts: [CompareFinding.Kind: (count: Int, first: Int)],
        stoppedA: Int, stoppedB: Int
    )

    /// The findings of every history, in case order (the measured part of `rulesrun compare --bench`).
    /// `stoppedA`, `stoppedB`: the histories that stopped early at a rule failure under each set.
    /// `progress` is called with (histories walked, runs) after each history.
    ///
    /// With `options.jobs` above 1 the histories are walked on that many threads, in chunks, each
    /// thread with its own pair of sets (`WalkWorker`); the chunks' findings are merged in case
    /// order, and each history's `math.random` is seeded from the seed and its case, so the result
    /// is the same whatever the number of threads. Afterwards both sets' `math.random` is seeded
    /// as they were loaded (0), so that what runs next does not depend on which histories they walked.
    package func walkAll(progress: ((Int, Int) -> Void)? = nil) throws -> Walked {
        let runs = options.runs
        let chunks = (runs + Self.chunkSize - 1) / Self.chunkSize
        let own = WalkWorker(a: rulesA, b: rulesB)
        defer { for rules in [rulesA, rulesB] { try? (rules as? RuleSet)?.host.seedRandom(0) } }
        while workers.count < min(options.jobs, chunks) - 1, let copy = try WalkWorker.copy(a: rulesA, b: rulesB) { workers.append(copy) }
        let pairs = [own] + workers.prefix(max(0, min(options.jobs, chunks) - 1))
        walkThreads = pairs.count
        let board = WalkBoard(chunks: chunks, progress: progress)
        let (seed, generator) = (options.seed, options.generator)
        let (names, ignored, expectations) = ((nameA, nameB), options.ignored, options.expectations)
        let walk: @Sendable (Int) -> Void = { w in
            let pair = pairs[w]
            let comparison = HistoryComparison(
                left: (names.0, pair.a), right: (names.1, pair.b), ignoring: ignored, expectations: expectations)
            while let c = board.next() {
                var part = ChunkWalked()
                do {
                    for k in c * Self.chunkSize..<min(runs, (c + 1) * Self.chunkSize) {
                        try pair.seedRandom(seed: seed, case: k)
                        part.add(comparison.findings(in: generator.history(case: k)), case: k, expectations: expectations)
                        board.walked(of: runs)
                    }
                } catch {
                    part.error = error
                }
                board.finish(c, part)
            }
        }
        if pairs.count == 1 { walk(0) } else { DispatchQueue.concurrentPerform(iterations: pairs.count, execute: walk) }
        var walked: Walked = (runs, 0, [:], 0, 0)
        for part in board.results {
            if let error = part.error { throw error }
            walked.differing += part.differing
            walked.stoppedA += part.stoppedA
            walked.stoppedB += part.stoppedB
            for (kind, entry) in part.counts {
                let before = walked.counts[kind]
                walked.counts[kind] = ((before?.count ?? 0) + entry.count, before?.first ?? entry.first)
            }
        }
        for worker in workers {
            let lines = worker.takeLineCounts()
            workerLineCounts.a.add(lines.a)
            workerLineCounts.b.add(lines.b)
        }
        return walked
    }

    /// Histories per chunk of the walk: small enough that the threads finish together, large
    /// enough that handing out chunks costs nothing.
    static let chunkSize = 25

    /// The threads the last walk ran on: `options.jobs`, or fewer when there are fewer chunks, or 1
    /// when a set is not a `RuleSet` (nothing to load again).
    package private(set) var walkThreads = 1
    /// The walk's other threads' sets (`jobs` − 1 pairs), loaded on the first walk that needs them.
    private var workers: [WalkWorker] = []
    /// The lines the other threads' sets ran (`--coverage`): to add to the lines of A's and B's own hosts.
    package private(set) var workerLineCounts = (a: LineCounts(), b: LineCounts())

    /// What the histories of one chunk showed.
    struct ChunkWalked: @unchecked Sendable {
        var differing = 0
        var stoppedA = 0, stoppedB = 0
        var counts: [CompareFinding.Kind: (count: Int, first: Int)] = [:]
        /// Seeding `math.random` failed (the set's memory is exhausted).
        var error: (any Error)?

        mutating func add(_ found: HistoryComparison.Findings, case k: Int, expectations: [Expectation]) {
            if found.stoppedA { stoppedA += 1 }
            if found.stoppedB { stoppedB += 1 }
            if found.isEmpty { return }
            differing += 1
            let kinds =
                found.fields.keys.map { CompareFinding.Kind.field($0) }
                + found.broken.keys.map { .expectation($0, expectations[$0].description) }
            for kind in kinds {
                let entry = counts[kind]
                counts[kind] = ((entry?.count ?? 0) + 1, entry?.first ?? k)
            }
        }
    }

    /// The walk's chunks: which is next, and each one's findings once walked.
    final class WalkBoard: @unchecked Sendable {
        private let lock = NSLock()
        private var nextChunk = 0
        private var done = 0
        private let progress: ((Int, Int) -> Void)?
        private(set) var results: [ChunkWalked]

        init(chunks: Int, progress: ((Int, Int) -> Void)?) {
            results = Array(repeating: ChunkWalked(), count: chunks)
            self.progress = progress
        }

        func next() -> Int? {
            lock.withLock {
                guard nextChunk < results.count else { return nil }
                defer { nextChunk += 1 }
                return nextChunk
            }
        }

        /// One more history walked (the progress counts them whatever thread walked them).
        func walked(of runs: Int) {
            guard let progress else { return }
            lock.withLock {
                done += 1
                progress(done, runs)
            }
        }

        func finish(_ chunk: Int, _ walked: ChunkWalked) {
            lock.withLock { results[chunk] = walked }
        }
    }

    private func shows(_ kind: CompareFinding.Kind, in history: PressureHistory, _ comparison: HistoryComparison) -> Bool {
        let found = comparison.findings(in: history)
        switch kind {
        case .field(let field): return found.fields[field] != nil
        case .expectation(let k, _): return found.broken[k] != nil
        }
    }

    /// The whole comparison: every kind of difference, each shrunk and checked through the engine.
    /// `progress` is called with the stage, the work done and the work of the stage: ("histories",
    /// walked, runs) after each history, then ("differences shrunk", shrunk, kinds) after each kind.
    package func run(progress: ((String, Int, Int) -> Void)? = nil) throws -> CompareResult {
        // With expectations, the lines the walk ran on every thread: what the histories reached.
        let measuring = !options.expectations.isEmpty
        let workersBefore = workerLineCounts
        let reading = measuring ? RuleReach.Reading([rulesA, rulesB]) : nil
        let walked = try walkAll { progress?("histories", $0, $1) }
        let own = reading?.finish() ?? []
        let reach: [RuleReach?] =
            measuring
            ? zip([rulesA, rulesB], zip(own, [workerLineCounts.a.since(workersBefore.a), workerLineCounts.b.since(workersBefore.b)])).map {
                rules, lines in
                var counts = lines.0
                counts.add(lines.1)
                return (rules as? RuleSet).flatMap { RuleReach.measure($0, counts: counts, app: .pressure) }
            } : []
        let comparison = self.comparison
        var findings: [CompareFinding] = []
        let kinds = walked.counts.keys.sorted { order($0) < order($1) }
        for (done, kind) in kinds.enumerated() {
            defer { progress?("differences shrunk", done + 1, kinds.count) }
            let entry = walked.counts[kind]!
            let original = options.generator.history(case: entry.first)
            let shrinker = Shrinker<PressureHistory>(candidates: { HistoryGenerator.shrink($0) })
            var shrunk = shrinker.shrink(original) { self.shows(kind, in: $0, comparison) }
            var limit = shrinker.maxAttempts
            var check = try engineCheck(kind, shrunk.value)
            if check.firstEvent == nil {
                // The walker's minimal history does not show in the engine's output (a difference
                // the replay cannot see): shrink again, keeping only histories the engine confirms.
                // Each candidate is replayed through the engine here: fewer attempts.
                let confirmed = Shrinker<PressureHistory>(maxAttempts: 2_000, candidates: { HistoryGenerator.shrink($0) })
                shrunk = confirmed.shrink(original) { candidate in
                    self.shows(kind, in: candidate, comparison) && ((try? self.engineCheck(kind, candidate).firstEvent) ?? nil) != nil
                }
                limit = confirmed.maxAttempts
                check = try engineCheck(kind, shrunk.value)
            }
            let history = shrunk.value
            let shrinkText = shrunk.stopped.map { $0.text(attempts: shrunk.attempts, limit: limit) }
            var script = ReplayScript(history)
            if let first = check.firstEvent, first < script.lines.count - 1 { script.dropTrailingTick() }
            script.header = header(kind, history: history, original: original, shrinkText: shrinkText)
            let (daysA, daysB) = dayTexts(history)
            findings.append(
                CompareFinding(
                    kind: kind, histories: entry.count, original: original, history: history, script: script,
                    daysA: daysA, daysB: daysB, reproduced: check.firstEvent != nil, firstEvent: check.firstEvent,
                    a: check.firstEvent.map { side(check.a, at: $0) }, b: check.firstEvent.map { side(check.b, at: $0) },
                    shrinkText: shrinkText))
        }
        return CompareResult(
            nameA: nameA, nameB: nameB, options: options, histories: walked.histories,
            differing: walked.differing, findings: findings, stoppedA: walked.stoppedA, stoppedB: walked.stoppedB, reach: reach)
    }

    private func order(_ kind: CompareFinding.Kind) -> Int {
        switch kind {
        case .field(let field): HistoryField.allCases.firstIndex(of: field)!
        case .expectation(let k, _): 100 + k
        }
    }

    /// Replays the history through the engine under both sets.
    func engineCheck(_ kind: CompareFinding.Kind, _ history: PressureHistory) throws -> (a: [JSONValue], b: [JSONValue], firstEvent: Int?) {
        let script = ReplayScript(history)
        let a = try EngineCheck.outputs(of: script, rules: rulesA)
        let b = try EngineCheck.outputs(of: script, rules: rulesB)
        let first: Int? =
            switch kind {
            case .field(let field): EngineCheck.firstDifference(field, a, b)
            case .expectation(let k, _): EngineCheck.firstBreak(of: options.expectations[k], a, b)
            }
        return (a, b, first)
    }

    /// A set's state before the event (the last output with a state) and after it; a refused event
    /// changes nothing, so its state after is the state before, with the refusal's code.
    private func side(_ lines: [JSONValue], at index: Int) -> CompareFinding.Side {
        let previous = lines[..<index].last { Replay.appliedState(of: $0) != nil }
        func fields(_ line: JSONValue?) -> [(String, JSONValue)] {
            guard let line, Replay.appliedState(of: line) != nil else { return [] }
            return EngineCheck.stateFields.compactMap { name in EngineCheck.stateValue(name, of: line).map { (name, $0) } }
        }
        let line = lines[index]
        if Replay.appliedState(of: line) == nil {
            let code = line["error"]?["code"].map { if case .string(let s) = $0 { s } else { $0.description } } ?? "refused"
            return CompareFinding.Side(before: fields(previous), after: fields(previous), refused: code)
        }
        return CompareFinding.Side(before: fields(previous), after: fields(line))
    }

    private func dayTexts(_ history: PressureHistory) -> ([String], [String]) {
        func texts(_ rules: any PolicyRules) -> [String] {
            var walker = HistoryWalker(rules, from: history)
            var out: [String] = []
            for day in history.days {
                do { out.append(try walker.step(day).text) } catch { out.append("threw \(error)"); break }
            }
            return out
        }
        return (texts(rulesA), texts(rulesB))
    }

    private func header(_ kind: CompareFinding.Kind, history: PressureHistory, original: PressureHistory, shrinkText: String?) -> [String] {
        [
            "rulesrun compare \(ShellQuote.path(nameA)) \(ShellQuote.path(nameB)): \(kind) differs",
            "\(ShrinkStop.historyName(minimal: shrinkText == nil)) (\(history.days.count) day\(history.days.count == 1 ? "" : "s")), shrunk from \(original.origin) (\(original.days.count) days)"
                + (shrinkText.map { "; \($0)" } ?? ""),
            "reproduce: \(ShellQuote.replay("FILE", rules: nameA))   and   \(ShellQuote.replay("FILE", rules: nameB))",
        ]
    }
}

/// The rule folders that `RuleSet.load` rejects (one or both), with their problems.
package struct CompareInputError: Error, CustomStringConvertible, Sendable {
    package struct Folder: Error, Sendable {
        package var folder: String
        package var problems: [String]
    }
    package var folders: [Folder]
    /// The first folder rejected, and its problems.
    package var folder: String { folders[0].folder }
    package var problems: [String] { folders[0].problems }
    package var description: String {
        folders.map { "\($0.folder): the rule set is not valid:\n" + $0.problems.joined(separator: "\n") }.joined(separator: "\n")
    }
}
