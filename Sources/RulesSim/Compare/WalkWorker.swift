import Foundation
import LuaHost
import RulesEngine

/// One thread's pair of rule sets for `RuleComparison.walkAll`: A's and B's, each with its own Lua
/// state. The comparison's own pair is the first worker; the others are loaded again from the
/// sets' snapshots (what was validated, without the proofs), once per comparison.
///
/// Unchecked: a worker is used by one thread at a time (the walk gives each thread its own).
final class WalkWorker: @unchecked Sendable {
    let a: any PolicyRules
    let b: any PolicyRules

    init(a: any PolicyRules, b: any PolicyRules) {
        self.a = a
        self.b = b
    }

    /// A copy of both sets, or nil when either is not a `RuleSet` (a native implementation, which
    /// the walk then runs on one thread). When the originals record the lines they run
    /// (`--coverage`), the copies do too.
    static func copy(a: any PolicyRules, b: any PolicyRules) throws -> WalkWorker? {
        guard let a = a as? RuleSet, let b = b as? RuleSet else { return nil }
        let copies = try [a, b].map { original in
            let copy = try original.snapshot.load()
            if original.host.isRecordingLines { copy.host.startLineRecording() }
            return copy
        }
        return WalkWorker(a: copies[0], b: copies[1])
    }

    /// Seeds both sets' `math.random` for one history, from the comparison's seed and the history's
    /// case: a rule that draws from it draws the same numbers whichever thread walks the history.
    func seedRandom(seed: UInt64, case k: Int) throws {
        let value = RuleDraws.seed(seed, key: UInt64(truncatingIfNeeded: k))
        for rules in [a, b] { try (rules as? RuleSet)?.host.seedRandom(value) }
    }

    /// The lines the sets ran since the last call (nothing when they do not record).
    func takeLineCounts() -> (a: LineCounts, b: LineCounts) {
        func take(_ rules: any PolicyRules) -> LineCounts {
            guard let host = (rules as? RuleSet)?.host, host.isRecordingLines else { return LineCounts() }
            return host.takeLineCounts()
        }
        return (take(a), take(b))
    }
}
