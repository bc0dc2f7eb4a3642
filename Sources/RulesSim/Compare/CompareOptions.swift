/// What `rulesrun compare` runs: how many histories of how many days, from which seed, and what it
/// leaves out or expects.
public struct CompareOptions: Sendable {
    /// Histories per comparison. 1,000 thirty-day histories take well under a second in release
    /// and find differences that a few percent of users reach many times over.
    public static let defaultRuns = 1_000
    public static let defaultDays = 30
    /// The most days a history (Pressure or Earned) may have: ten years, like `simulate`'s longest
    /// run. Shrinking walks a history once per candidate it tries, so longer ones take too long.
    public static let maxDays = SimulationDuration.maxDays
    /// The most histories: the walk keeps nothing per history, so this bounds its time (a million
    /// thirty-day histories take minutes in release).
    public static let maxRuns = 1_000_000
    /// The most Earned histories, and history-days (runs × days): each set's engine keeps every
    /// history's user in its in-memory store, 15 to 20 KB per history-day.
    public static let maxEconomyRuns = 10_000
    public static let maxEconomyHistoryDays = 40_000

    public var runs: Int
    public var days: Int
    public var seed: UInt64
    public var ignored: Set<HistoryField>
    /// Kinds of the economy's half not compared (`error` is in both halves).
    public var ignoredEconomy: Set<EconomyField>
    public var expectations: [Expectation]

    public init(
        runs: Int = CompareOptions.defaultRuns, days: Int = CompareOptions.defaultDays, seed: UInt64 = 1,
        ignored: Set<HistoryField> = [], expectations: [Expectation] = [], ignoredEconomy: Set<EconomyField> = []
    ) {
        self.runs = runs
        self.days = days
        self.seed = seed
        self.ignored = ignored
        self.ignoredEconomy = ignoredEconomy
        self.expectations = expectations
    }

    /// The generator of the comparison's histories: fresh users (what a replay file reproduces), all
    /// `days` long.
    /// The names of every ignored kind, Pressure's then the economy's (each once).
    public var ignoredNames: [String] {
        let pressure = ignored.sorted().map(\.rawValue)
        return pressure + EconomyField.allCases.filter { ignoredEconomy.contains($0) }.map(\.rawValue).filter { !pressure.contains($0) }
    }

    public var generator: HistoryGenerator { HistoryGenerator(seed: seed, days: days...days, freshStart: true) }
}
