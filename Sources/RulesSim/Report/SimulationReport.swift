import Foundation
import RulesEngine
import RulesModel

/// What a simulation (or a shard of one) found: per day, integer totals over its users, and what
/// it ran. Reports of shards of the same run merge into the report of their union.
public struct SimulationReport: Sendable, Equatable {
    public var run: RunDescription
    public var days: [DayTotals]

    /// What was simulated, as the report prints it; two reports merge only when these agree
    /// (but for the users' range).
    public struct RunDescription: Codable, Sendable, Equatable {
        public var duration: String
        public var start: String
        public var days: Int
        /// Users in the whole cohort, and the range of indexes this report covers.
        public var users: Int
        public var usersFrom: Int
        public var usersTo: Int
        public var seed: UInt64
        public var personas: String
        public var rules: String
        /// "lua" or "native" (`--reference`).
        public var engine: String
        /// A hash of the rule files and persona files, so that only reports of the same inputs merge.
        public var inputsDigest: String

        enum CodingKeys: String, CodingKey {
            case duration, start, days, users, usersFrom = "users_from", usersTo = "users_to", seed, personas, rules, engine
            case inputsDigest = "inputs_digest"
        }

        /// Whether two reports are parts of the same run: all but the users' range agree (the rule
        /// folder may be named differently on each machine; the digest covers its files).
        func sameRun(as other: RunDescription) -> Bool {
            var a = self, b = other
            (a.usersFrom, a.usersTo, b.usersFrom, b.usersTo) = (0, 0, 0, 0)
            b.rules = a.rules
            return a == b
        }
    }

    public init(run: RunDescription, days: [DayTotals]) {
        self.run = run
        self.days = days
    }

    init(config: SimulationConfig, personas: [Persona], users: Range<Int>, days: [DayTotals]) {
        var digest = FNV64()
        if config.reference {
            digest.add("native")
        } else {
            for name in RuleSet.fileNames {
                digest.add(name)
                digest.add(FileManager.default.contents(atPath: (config.rules as NSString).appendingPathComponent(name)) ?? Data())
            }
        }
        for persona in personas {
            digest.add(persona.name)
            digest.add(Data(persona.text.utf8))
        }
        run = RunDescription(duration: config.duration.description, start: config.start.rawValue, days: config.days, users: config.users,
                             usersFrom: users.lowerBound, usersTo: users.upperBound, seed: config.seed, personas: config.mix.description,
                             rules: config.rules, engine: config.reference ? "native" : "lua", inputsDigest: digest.hex)
        self.days = days
    }

    /// The users this report covers.
    public var userCount: Int { run.usersTo - run.usersFrom }

    /// The report of the union of shard reports of the same run (in any order); their user
    /// ranges must not overlap and must join into one range.
    public static func merge(_ reports: [SimulationReport]) throws(SimulationError) -> SimulationReport {
        guard let first = reports.first else { throw SimulationError("nothing to merge") }
        for (i, report) in reports.enumerated().dropFirst() where !report.run.sameRun(as: first.run) {
            throw SimulationError("report \(i + 1) is not a shard of the same run as report 1 (duration, start, users, seed, personas, rules and their contents must agree)")
        }
        let sorted = reports.sorted { $0.run.usersFrom < $1.run.usersFrom }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.run.usersTo != b.run.usersFrom {
            throw SimulationError(a.run.usersTo > b.run.usersFrom
                ? "shards overlap: users \(a.run.usersFrom)..<\(a.run.usersTo) and \(b.run.usersFrom)..<\(b.run.usersTo)"
                : "users \(a.run.usersTo)..<\(b.run.usersFrom) are in none of the reports (a shard is missing)")
        }
        var merged = sorted[0]
        merged.run.usersTo = sorted.last!.run.usersTo
        for report in sorted.dropFirst() {
            for d in merged.days.indices { merged.days[d].add(report.days[d]) }
        }
        return merged
    }
}

/// FNV-1a, 64 bits: a stable digest of the inputs (not for security).
struct FNV64 {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ data: Data) {
        for byte in data { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        value = (value ^ 0xFF) &* 0x0000_0100_0000_01B3
    }
    mutating func add(_ text: String) { add(Data(text.utf8)) }
    var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
