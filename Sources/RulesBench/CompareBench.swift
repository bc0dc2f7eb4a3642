import Foundation
import RulesSim

/// `rulesrun compare --bench`: histories per second of the Pressure walk (`RuleComparison.walkAll`),
/// the part of `compare` that grows with `--runs`: each history generated, walked through both sets
/// (their rule functions, each set's answers remembered per history) and compared day by day. Left
/// out: the shrinking of the first history of each kind and its engine replay (a few kinds per run,
/// whatever `--runs` is), the files, and the economy, habit and population halves.
///
/// Two walks warm up (the first loads the other threads' copies of the sets); of the next three,
/// the fastest in wall time and the least in CPU time (every thread's) are reported.
package enum CompareBench {
    /// Issue 20's target: at least 5,000 thirty-day histories per second (of wall time).
    package static let target = 5_000.0

    package struct Result {
        package var walked: RuleComparison.Walked
        /// Threads the walk ran on.
        package var jobs: Int
        /// The fastest timed walk's wall time.
        package var seconds: Double
        /// The least CPU time (all threads) of a timed walk.
        package var cpuSeconds: Double
        package var historiesPerSecond: Double { Double(walked.histories) / seconds }
        package var historiesPerCPUSecond: Double { Double(walked.histories) / cpuSeconds }
        package var meetsTarget: Bool { historiesPerSecond >= CompareBench.target }
    }

    /// Walks the comparison's histories five times; `progress` gets (walk 1–5, histories walked, runs).
    package static func measure(_ comparison: RuleComparison, progress: ((Int, Int, Int) -> Void)? = nil) throws -> Result {
        var walked = try comparison.walkAll { progress?(1, $0, $1) }
        walked = try comparison.walkAll { progress?(2, $0, $1) }
        var seconds = Double.infinity, cpuSeconds = Double.infinity
        for n in 3...5 {
            let start = DispatchTime.now().uptimeNanoseconds
            let cpuStart = SimulationBench.processCPUSeconds()
            walked = try comparison.walkAll { progress?(n, $0, $1) }
            cpuSeconds = min(cpuSeconds, SimulationBench.processCPUSeconds() - cpuStart)
            seconds = min(seconds, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return Result(walked: walked, jobs: comparison.walkThreads, seconds: seconds, cpuSeconds: cpuSeconds)
    }
}
