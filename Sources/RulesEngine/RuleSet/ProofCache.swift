import LuaHost
import Synchronization

/// The proofs of rule files already proved in this process, by everything their result depends
/// on: the bytes of the files loaded so far (the file and those before it in the same host), the
/// folder, the overrides, the limits, the seed, and the host's instruction count and random state
/// before the proof. A file proved again (`watch` at each save of another file, `compare` and
/// `sweep` loading a folder many times, a test process running many commands on one folder) gets
/// the remembered result, and its host is moved on as the proof would have moved it
/// (``LuaHost/resume(afterInstructions:randomState:)``), so that what follows cannot tell.
enum ProofCache {
    struct Key: Hashable {
        let policy: String
        let folder: String
        let files: [String]
        let contents: [[UInt8]]
        let overrides: [KnobOverride]
        let limits: String
        let randomSeed: Int64
        let instructions: Int64
        let randomState: [UInt8]
    }

    /// One proof's findings, without the host it ran in.
    struct Outcome: Sendable {
        let name: String
        let inputs: Int
        let unproved: String?
        let problems: [RuleProblem]
        let budgetProblem: RuleProblem?

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
        let instructions: Int64
        let randomState: [UInt8]
    }

    /// The most files remembered (a few kilobytes each); past it, the cache starts again.
    static let capacity = 256
    private static let entries = Mutex<[Key: Entry]>([:])

    /// The proofs of the file `key` names: remembered, or run by `prove` in `host` and remembered.
    static func outcomes(_ key: Key, host: LuaHost, prove: () -> [Counterexamples]) -> [Outcome] {
        if let entry = entries.withLock({ $0[key] }) {
            host.resume(afterInstructions: entry.instructions, randomState: entry.randomState)
            return entry.outcomes
        }
        let outcomes = prove().map(Outcome.init)
        let entry = Entry(outcomes: outcomes, instructions: host.instructionsRun - key.instructions, randomState: host.randomState)
        entries.withLock {
            if $0.count >= capacity { $0.removeAll() }
            $0[key] = entry
        }
        return outcomes
    }
}
