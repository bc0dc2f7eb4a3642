import Foundation

/// Throughput of simulations, each against the others in the same run: the Lua rule set and the
/// native reference (`NativeReference`), each with the database written and in memory only.
public struct SimulationBench {
    public struct Measurement: Sendable {
        public var name: String
        public var seconds: Double
        public var userDays: Int
        public var events: Int
        public var userDaysPerSecond: Double { Double(userDays) / seconds }
        public var eventsPerSecond: Double { Double(events) / seconds }
    }

    public let config: SimulationConfig

    public init(config: SimulationConfig) { self.config = config }

    /// Runs the four variants (Lua with the database first: the run the targets are about).
    public func measure(progress: ((String) -> Void)? = nil) throws -> [Measurement] {
        let database = config.database ?? ".rulesrun/simulation.sqlite"
        let variants: [(String, Bool, String?)] = [
            ("Lua rules, with database", false, database),
            ("Lua rules, in memory", false, nil),
            ("native reference, with database", true, database),
            ("native reference, in memory", true, nil),
        ]
        var out: [Measurement] = []
        for (name, reference, db) in variants {
            progress?(name)
            var c = config
            c.reference = reference
            c.database = db
            c.append = false
            let simulation = try Simulation(config: c)
            let started = DispatchTime.now().uptimeNanoseconds
            let report = try simulation.run()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let summary = ReportSummary(report)
            out.append(Measurement(name: name, seconds: seconds, userDays: summary.userDays, events: summary.events))
        }
        return out
    }
}
