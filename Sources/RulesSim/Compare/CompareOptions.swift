/// What `rulesrun compare` runs: how many histories of how many days, from which seed, and what it
/// leaves out or expects.
package struct CompareOptions: Sendable {
    /// Histories per comparison. 1,000 thirty-day histories take well under a second in release
    /// and find differences that a few percent of users reach many times over.
    package static let defaultRuns = 1_000
    package static let defaultDays = 30
    /// The most days a history (Pressure or Earned) may have: ten years, like `simulate`'s longest
    /// run. Shrinking walks a history once per candidate it tries, so longer ones take too long.
    package static let maxDays = SimulationDuration.maxDays
    /// The most histories: the walk keeps nothing per history, so this bounds its time (a million
    /// thirty-day histories take minutes in release).
    package static let maxRuns = 1_000_000
    /// The most Earned histories, and history-days (runs × days): a bound on time, each event
    /// replayed under both sets with the user's whole state (a history's rows are held in memory
    /// only while it is replayed).
    package static let maxEconomyRuns = 10_000
    package static let maxEconomyHistoryDays = 40_000
    /// Earned histories of two weeks: long enough for the streaks and balances validation proves
    /// the rules on (`price` at a streak of 7, `earned.day_ends` up to 14, balances of 45 and
    /// more) to come up; three days, the length before, never reached a streak of 7.
    package static let defaultEconomyRuns = 100
    package static let defaultEconomyDays = 14
    /// The same for the habit histories (`--habit-runs`, `--habit-days`): a habit event recomputes
    /// the streaks of every task from its start, so a day costs more the longer the history.
    package static let maxHabitRuns = 10_000
    package static let maxHabitHistoryDays = 40_000
    package static let defaultHabitRuns = 100
    package static let defaultHabitDays = 21

    package var runs: Int
    package var days: Int
    package var seed: UInt64
    package var ignored: Set<HistoryField>
    /// Kinds of the economy's half not compared (`error` is in both halves).
    package var ignoredEconomy: Set<EconomyField>
    /// Kinds of the habit tracker's half not compared.
    package var ignoredHabits: Set<HabitField>
    package var expectations: [Expectation]
    /// Threads for the Pressure walk (`RuleComparison.walkAll`); the result is the same whatever it is.
    package var jobs: Int

    package init(
        runs: Int = CompareOptions.defaultRuns, days: Int = CompareOptions.defaultDays, seed: UInt64 = 1,
        ignored: Set<HistoryField> = [], expectations: [Expectation] = [], ignoredEconomy: Set<EconomyField> = [],
        ignoredHabits: Set<HabitField> = [], jobs: Int = 1
    ) {
        self.jobs = jobs
        self.runs = runs
        self.days = days
        self.seed = seed
        self.ignored = ignored
        self.ignoredEconomy = ignoredEconomy
        self.ignoredHabits = ignoredHabits
        self.expectations = expectations
    }

    /// The names of every ignored kind, Pressure's, the economy's then the habit tracker's (each once).
    package var ignoredNames: [String] {
        var names = ignored.sorted().map(\.rawValue)
        names += EconomyField.allCases.filter { ignoredEconomy.contains($0) }.map(\.rawValue).filter { !names.contains($0) }
        names += HabitField.allCases.filter { ignoredHabits.contains($0) }.map(\.rawValue).filter { !names.contains($0) }
        return names
    }

    /// The generator of the comparison's histories: fresh users (what a replay file reproduces), all
    /// `days` long.
    package var generator: HistoryGenerator { HistoryGenerator(seed: seed, days: days...days, freshStart: true) }
}
