import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// Everything a simulation depends on. The same configuration gives the same report and the
/// same database, whatever `jobs` is.
package struct SimulationConfig: Sendable {
    package var duration: SimulationDuration
    /// The first simulated day (every user starts on it, at 00:00 in its time zone).
    package var start: DayID
    /// The number of days, from `duration` and `start`.
    package var days: Int { duration.days(from: start) }
    /// Users in the whole cohort (a shard runs a slice of them).
    package var users: Int
    package var seed: UInt64
    package var mix: PersonaMix
    /// Folders searched for personas given by name.
    package var personaFolders: [String]
    /// The rule folder (also when `reference` is set: it names what the report compares against).
    package var rules: String
    /// What reports name the rules when not `rules` (a bundle's `FILE#ARM`, whose rules are read
    /// from the folder it was unpacked in).
    package var rulesName: String?
    /// Run the native Swift reference rules (`NativeReference`) instead of the Lua rule set.
    package var reference: Bool
    /// Worker threads.
    package var jobs: Int
    package var shard: Shard
    /// The SQLite file to write, or nil to keep the users' rows in memory only (and drop them).
    package var database: String?
    /// Add the users to an existing database (with ids after its last user) instead of replacing it.
    package var append: Bool
    /// The most users per unit of work (and per part merged into the database); smaller cohorts
    /// get smaller chunks, so that every worker has some.
    package var chunkSize: Int
    /// Record the lines of the rule files each worker runs (`simulate --coverage`): the report's
    /// `lineCounts`. Off, no line hook is installed and nothing else changes.
    package var recordsLines: Bool
    /// Knobs of the rule set given other values (`sweep --set`): the set simulated is the folder's
    /// with these values (``KnobOverride``), validated as such.
    package var overrides: [KnobOverride] = []
    /// The rule set of `rules` as it was validated already (`rulesrun watch` validates each
    /// version once): the simulation does not validate it again, and its workers load these bytes.
    /// Nil: the simulation validates the folder, and its workers load the snapshot of that.
    package var validated: RuleSnapshot?
    /// Which arguments of rule calls the workers' hosts reuse (``LuaLimits/argumentReuse``): the
    /// report is the same whichever it is.
    package var argumentReuse: ArgumentReuse = LuaLimits.default.argumentReuse
    /// Whether the personas respond to the rules' decisions (`--no-responses`: their fixed
    /// probabilities alone, as if each had `responses = false`).
    package var responses = true
    /// Whether each user's events are kept as replay lines for `Simulation.run`'s `events`
    /// (`simulate --events FILE`).
    package var recordsEvents = false
    /// Whether each user's persona is written as a row of a user table (`--user-table`).
    package var recordsUserTable = false
    /// The team's own metrics (`--metrics FILE`, else the rule folder's `metrics.lua`: set by
    /// `Simulation.init`); nil, the run has none.
    package var metrics: TeamMetrics.Source?
    /// Whether `Simulation.init` looks for the rule folder's `metrics.lua` when `metrics` is nil.
    package var findsMetrics = true
    /// A staged rollout run as a whole (a bundle with an experiment, no arm named): each user
    /// under its arm's rules, its exposure written after its first event, the report by arm.
    /// `rules` is then the control's folder.
    package var rollout: Rollout?
    /// With a rollout: the days each user runs under the control's rules before its exposure
    /// (`simulate --expose-after`), its pre-period. On the first of its other days it gets the
    /// rules of its arm, on the same rows, and its exposure; the arms' figures count from then.
    /// 0: each user is exposed after its first event.
    package var exposeAfter = 0

    package init(
        duration: SimulationDuration, start: DayID = SimulationConfig.defaultStart, users: Int = 1000, seed: UInt64 = 1,
        mix: PersonaMix = .standard, personaFolders: [String] = [PersonaLoader.defaultFolder], rules: String = "rules",
        reference: Bool = false, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, shard: Shard = .whole,
        database: String? = nil, append: Bool = false, chunkSize: Int = 100, recordsLines: Bool = false
    ) {
        self.duration = duration
        self.start = start
        self.users = users
        self.seed = seed
        self.mix = mix
        self.personaFolders = personaFolders
        self.rules = rules
        self.reference = reference
        self.jobs = jobs
        self.shard = shard
        self.database = database
        self.append = append
        self.chunkSize = chunkSize
        self.recordsLines = recordsLines
    }

    /// Monday 5 January 2026.
    package static let defaultStart = try! DayID("2026-01-05")
    /// The database `simulate` writes unless told otherwise.
    package static let defaultDatabase = ".rulesrun/simulation.sqlite"
    /// A new name for the database of a bench run without `--db`: beside the default database (on
    /// the disk a run writes to, not in a temporary folder that may be in memory), one per run
    /// (`.rulesrun/bench-PID-XXXXXXXX.sqlite`: two runs of one process share nothing).
    package static func benchDatabase() -> String {
        ((defaultDatabase as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("bench-\(getpid())-\(UUID().uuidString.prefix(8)).sqlite")
    }

    /// Whether `path` is a name ``benchDatabase()`` gives.
    package static func isBenchDatabase(_ path: String) -> Bool {
        let folder = (defaultDatabase as NSString).deletingLastPathComponent + "/bench-"
        return path.hasPrefix(folder) && path.hasSuffix(".sqlite") && !path.dropFirst(folder.count).contains("/")
    }
}
