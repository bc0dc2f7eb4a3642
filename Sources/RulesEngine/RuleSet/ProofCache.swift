import Foundation
import LuaHost
import Synchronization

/// The proofs of rule files already proved in this process, by everything their result depends
/// on: the bytes of the files loaded so far (the file and those before it in the same host) with
/// the names messages give them (not their paths, nor the folder's: a folder reached by another
/// path, such as a link, or copied elsewhere proves the same), the overrides of those files (a
/// `sweep` of a pricing knob proves the escalation and streak files once), the limits, the seed,
/// the host's random state before the proof, and its instruction count when near the validation
/// budget (``Entry/holds(from:)``). A file proved again (`watch` at each save of another file, `compare` and
/// `sweep` loading a folder many times, a test process running many commands on one folder) gets
/// the remembered result, and its host is moved on as the proof would have moved it
/// (``LuaHost/resume(afterInstructions:randomState:)``). Those of other processes are read from
/// the ``store`` when there is one (a command's: `rulesrun` sets it from its environment).
package enum ProofCache {
    struct Key: Hashable {
        let policy: String
        let files: [String]
        let contents: [[UInt8]]
        let overrides: [KnobOverride]
        let limits: String
        let randomSeed: Int64
        let randomState: [UInt8]

        // The files' bytes hashed and compared as whole buffers (hashed and compared byte by byte,
        // as the synthesized conformance does, a debug build spent 1 % of the test suite's CPU here).
        func hash(into hasher: inout Hasher) {
            hasher.combine(policy)
            hasher.combine(files)
            for bytes in contents { Self.combine(bytes, into: &hasher) }
            hasher.combine(overrides)
            hasher.combine(limits)
            hasher.combine(randomSeed)
            Self.combine(randomState, into: &hasher)
        }

        static func == (a: Key, b: Key) -> Bool {
            a.policy == b.policy && a.files == b.files && a.contents.count == b.contents.count
                && zip(a.contents, b.contents).allSatisfy(same) && a.overrides == b.overrides && a.limits == b.limits
                && a.randomSeed == b.randomSeed && same(a.randomState, b.randomState)
        }

        private static func combine(_ bytes: [UInt8], into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            guard a.count == b.count else { return false }
            guard !a.isEmpty else { return true }
            return a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
        }
    }

    /// One proof's findings, without the host it ran in.
    struct Outcome: Sendable {
        let name: String
        let inputs: Int
        let unproved: String?
        let problems: [RuleProblem]
        let budgetProblem: RuleProblem?

        init(name: String, inputs: Int, unproved: String?, problems: [RuleProblem], budgetProblem: RuleProblem?) {
            self.name = name
            self.inputs = inputs
            self.unproved = unproved
            self.problems = problems
            self.budgetProblem = budgetProblem
        }

        init(_ proof: Counterexamples) {
            name = proof.name
            inputs = proof.inputs
            unproved = proof.unproved
            problems = proof.problems
            budgetProblem = proof.budgetProblem
        }
    }

    /// A file's proofs and what they did to the host.
    struct Entry: Sendable {
        let outcomes: [Outcome]
        /// The host's count before the proofs, and the instructions they ran.
        let start: Int64
        let instructions: Int64
        let randomState: [UInt8]

        /// Whether the proofs, started at `start` instructions, find what they found at
        /// `self.start`: the count matters only when it reaches the validation budget (the proofs
        /// then stop: ``RuleSet/validationInstructionBudget``), which neither run comes near. The
        /// margin covers the few instructions a host charges more or less for allocations (a
        /// host that did not run a remembered proof has not interned its strings).
        func holds(from start: Int64) -> Bool {
            start == self.start || max(start, self.start) + instructions + Self.margin < RuleSet.validationInstructionBudget
        }

        static let margin = RuleSet.validationInstructionBudget / 100
    }

    /// The most files remembered (a key holds the bytes of its files: at most a few hundred
    /// kilobytes each); past it, the one used longest ago is forgotten.
    static let capacity = 256
    private static let entries = Mutex<(uses: Int, byKey: [Key: (entry: Entry, used: Int)])>((0, [:]))

    /// The proofs kept on disk that the command running on this task reads and writes (none by
    /// default: a host embedding the engine keeps its proofs in memory only).
    @TaskLocal package static var store: ProofStore?

    /// The proofs of the file `key` names: remembered, else read from the ``store``, else run by
    /// `prove` in `host`; remembered (and kept in the store).
    static func outcomes(_ key: Key, host: LuaHost, prove: () -> [Counterexamples]) -> [Outcome] {
        let start = host.instructionsRun
        let remembered = entries.withLock { cache -> Entry? in
            guard let found = cache.byKey[key], found.entry.holds(from: start) else { return nil }
            cache.uses += 1
            cache.byKey[key]?.used = cache.uses
            return found.entry
        }
        if let entry = remembered {
            host.resume(afterInstructions: entry.instructions, randomState: entry.randomState)
            return entry.outcomes
        }
        let store = Self.store
        let slot = store?.slot(for: key)
        if let store, let slot, let entry = store.entry(at: slot), entry.holds(from: start) {
            remember(entry, for: key)
            host.resume(afterInstructions: entry.instructions, randomState: entry.randomState)
            return entry.outcomes
        }
        let outcomes = prove().map(Outcome.init)
        let entry = Entry(outcomes: outcomes, start: start, instructions: host.instructionsRun - start, randomState: host.randomState)
        remember(entry, for: key)
        if let store, let slot { store.keep(entry, at: slot) }
        return outcomes
    }

    private static func remember(_ entry: Entry, for key: Key) {
        entries.withLock { cache in
            if cache.byKey[key] == nil, cache.byKey.count >= capacity,
                let oldest = cache.byKey.min(by: { $0.value.used < $1.value.used })?.key
            {
                cache.byKey[oldest] = nil
            }
            cache.uses += 1
            cache.byKey[key] = (entry, cache.uses)
        }
    }

    /// How many remembered files `include` selects (what the tests see of the cache).
    static func remembered(where include: (Key) -> Bool) -> Int {
        entries.withLock { $0.byKey.keys.count(where: include) }
    }
}
