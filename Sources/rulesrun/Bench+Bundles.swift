import Foundation
import RulesBench

/// `rulesrun bench`'s bundle part (``BundleBenchmark``): run with the others, or alone
/// (`RULESRUN_BENCH_ONLY=bundles`).
extension Bench {
    /// The value of `RULESRUN_BENCH_ONLY` that runs the bundle benchmark alone.
    static let bundlesOnly = "bundles"

    /// The bundle benchmark, its files in `directory`.
    func runBundles(in directory: URL) throws -> BundleBenchmark.Result {
        try BundleBenchmark.run(
            directory: directory.appendingPathComponent("bundles"), calls: max(1, iterations / 10), events: max(1, iterations / 200),
            rounds: rounds)
    }

    func printBundles(_ b: BundleBenchmark.Result) {
        func ms(_ x: Double) -> String { String(format: "%8.2f ms", x) }
        func times(_ x: Double) -> String { String(format: "%.1f x floor", x) }
        Terminal.print("bundles, each read from its file, \(b.rounds) rounds (fastest round, CPU time of the thread)")
        for (title, a) in [("the default rule set", b.one_arm), ("a two-arm experiment of it", b.two_arms)] {
            Terminal.print("  \(title), \(a.arms) rule set\(a.arms == 1 ? "" : "s"), \(a.bytes / 1024) KB")
            Terminal.print("    floor: the file + one SHA-256      \(ms(a.floor_ms))")
            Terminal.print("    verify (signature, hashes)        \(ms(a.verify_ms))   = \(times(a.verify_over_floor))")
            Terminal.print(
                "    activate (verify, load, swap)     \(ms(a.activate_ms))   = \(times(a.activate_over_floor)), "
                    + "wall \(String(format: "%.2f ms", a.activate_wall_ms))")
        }
        let s = b.assignment, e = b.events
        Terminal.print("  a user's arm, \(s.calls) calls")
        Terminal.print("    floor: SHA-256 of \"salt:u123456\"  \(String(format: "%8.1f ns", s.sha256_ns))")
        Terminal.print(
            "    armIndex(of:)                     \(String(format: "%8.1f ns", s.arm_index_ns))   = \(times(s.arm_index_over_sha256))")
        Terminal.print("  per event, \(e.events) ticks of \(e.users) users a round (in-memory store; the fastest chunk of \(e.users))")
        Terminal.print("    bundle without an experiment      \(String(format: "%8.2f us", e.plain_us))")
        func overhead(_ us: Double, _ share: Double) -> String { String(format: "%+.2f us = %+.1f%%", us, share * 100) }
        Terminal.print(
            "    experiment, every user in one arm \(String(format: "%8.2f us", e.control_only_us))   "
                + "\(overhead(e.control_only_overhead_us, e.control_only_overhead_share)): the arm and the exposure check")
        Terminal.print(
            "    two arms, half the users in each  \(String(format: "%8.2f us", e.experiment_us))   "
                + "\(overhead(e.overhead_us, e.overhead_share)): and two engines in turn")
    }
}
