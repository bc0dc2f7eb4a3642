import PropertyBased
import RulesSim
import RulesEngine
import RulesModel

/// Random inputs of the habit, MIGA and Earned streak rules, reproducible from a seed, with
/// shrinkers towards short lists and small numbers.
enum StreakInputGenerator {
    /// A daily habit task's periods, most recent (running) first, ending on 2026-01-31: 0–20
    /// periods with 0–3 completions, one period in five unscheduled, each with the host's status.
    static func habitPeriods(seed: UInt64) -> Generator<[HabitPeriod], [[HabitPeriod]]> {
        SeededCases.make(
            seed: seed,
            draw: { rng, _ in
                dated(
                    (0..<Int.random(in: 0...20, using: &rng)).map { _ in
                        (
                            Int.random(in: 0...3, using: &rng) == 0 ? 0 : Int.random(in: 1...3, using: &rng),
                            Int.random(in: 0..<5, using: &rng) != 0
                        )
                    })
            },
            shrink: { periods in
                Array(periods.map { ($0.completions, $0.scheduled) }.shrinkCandidates(element: shrink)).map(dated)
            })
    }

    /// Days back from 2026-01-31, with the host's status for one completion needed.
    static func dated(_ periods: [(completions: Int, scheduled: Bool)]) -> [HabitPeriod] {
        let today = try! DayID("2026-01-31")
        return periods.enumerated().map { i, p in
            let day = today.adding(days: -i)!
            return HabitPeriod(
                start: day, end: day, isDay: true, scheduled: p.scheduled, completions: p.completions,
                status: HabitPeriod.status(
                    completions: p.completions, value: 0, needed: 1, goalTarget: nil,
                    running: i == 0, mark: nil))
        }
    }

    static func shrink(_ period: (completions: Int, scheduled: Bool)) -> [(completions: Int, scheduled: Bool)] {
        var out: [(completions: Int, scheduled: Bool)] = []
        if period.completions > 0 { out.append((period.completions - 1, period.scheduled)) }
        if !period.scheduled { out.append((period.completions, true)) }
        return out
    }

    /// MIGA's `exit_to_focus` events per day, today first: 0–30 days with 0–3 events, a third of
    /// the days without any.
    static func migaDays(seed: UInt64) -> Generator<[Int], [[Int]]> {
        SeededCases.make(
            seed: seed,
            draw: { rng, _ in
                (0..<Int.random(in: 0...30, using: &rng)).map { _ in
                    Int.random(in: 0..<3, using: &rng) == 0 ? 0 : Int.random(in: 1...3, using: &rng)
                }
            },
            shrink: { Array($0.shrinkCandidates(element: { n in n > 1 ? [0, n - 1] : n == 1 ? [0] : [] })) })
    }

    /// An Earned day: focus minutes 0–180 (around the 20-minute threshold one time in two) and 0–4
    /// completed habits.
    static func earnedDays(seed: UInt64) -> Generator<EarnedDay, [EarnedDay]> {
        SeededCases.make(
            seed: seed,
            draw: { rng, _ in
                let focus = Bool.random(using: &rng) ? Int.random(in: 15...25, using: &rng) : Int.random(in: 0...180, using: &rng)
                return EarnedDay(focusMinutes: focus, habitCompletions: Int.random(in: 0...4, using: &rng))
            },
            shrink: { day in
                var out: [EarnedDay] = []
                if day.focusMinutes > 0 {
                    out += [0, day.focusMinutes / 2, day.focusMinutes - 1].map {
                        EarnedDay(focusMinutes: $0, habitCompletions: day.habitCompletions)
                    }
                }
                if day.habitCompletions > 0 {
                    out.append(EarnedDay(focusMinutes: day.focusMinutes, habitCompletions: day.habitCompletions - 1))
                }
                return Array(Set(out)).sorted { ($0.focusMinutes, $0.habitCompletions) < ($1.focusMinutes, $1.habitCompletions) }
            })
    }

    /// Earned streak counts 0–400.
    static func streakCounts(seed: UInt64) -> Generator<Int, [Int]> {
        SeededCases.make(
            seed: seed,
            draw: { rng, _ in Int.random(in: 0...400, using: &rng) },
            shrink: { n in n > 0 ? Array(Set([0, n / 2, n - 1])).sorted() : [] })
    }

    /// One Earned day as `earnedQualification` sees it.
    struct EarnedDay: Hashable, Sendable {
        var focusMinutes: Int
        var habitCompletions: Int
    }
}
