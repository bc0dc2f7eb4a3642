import RulesEngine
import RulesModel

/// A random Earned history as replay lines, reproducible from a seed: a fresh user sets up its
/// distracting apps, modes, habits and maybe a QR key, then lives `days` days of habit
/// completions, focus sessions (some ended early) and urges to open a distracting app. At each
/// urge the user opens the gate and, without looking at the options, picks one at random — a
/// credits unlock of any priced length, a quest of any type, an emergency unlock, or leaving — so
/// that both enabled and disabled options are tried; a quest is then completed, failed, cancelled
/// or left to expire. A last tick passes the final rollover.
///
/// Case `k` of seed `s` comes from its own generator seeded from `(s, k)`.
package struct EconomyHistory: ComparedHistory {
    package static let apps = ["android:com.instagram.android", "iosToken:AbCDeF"]
    /// The lengths the generator tries: the default prices' and others, so that sets pricing other
    /// lengths show it.
    static let lengths = [5, 10, 15, 20, 30]

    package var seed: UInt64
    package var days: Int

    package init(seed: UInt64, days: Int) {
        self.seed = seed
        self.days = days
    }

    /// The replay lines of case `k` (user `u1`, time order; the first `setupCount` are the set-up).
    package func lines(case k: Int) -> [String] {
        var rng = SeededGenerator(seed: seed, UInt64(truncatingIfNeeded: k), 0x4543_4F4E)
        return Self.lines(days: days, using: &rng)
    }

    static func lines<R: RandomNumberGenerator>(days: Int, using rng: inout R) -> [String] {
        let start = try! DayID("2026-03-01").utcStartMillis  // a Sunday; day 1 is a Monday
        var events = TimedLines()
        func add(_ at: EpochMillis, _ type: String, _ fields: String = "") { events.add(at, type, fields) }
        let minute = Millis.minute
        let setup = start + 20 * Millis.hour
        add(setup, "distracting_apps", "\"apps\": [\"\(apps[0])\", \"\(apps[1])\"]")
        let strictness = ["GENTLE", "STRICT", "HARD"].randomElement(using: &rng)!
        add(
            setup, "mode",
            "\"mode\": \"work\", \"strictness\": \"\(strictness)\", \"windows\": [{\"days\": [1, 2, 3, 4, 5], \"start\": \"09:00\", \"end\": \"17:00\"}]"
        )
        if Bool.random(using: &rng) {
            add(
                setup, "mode",
                "\"mode\": \"night\", \"strictness\": \"HARD\", \"windows\": [{\"days\": [1, 2, 3, 4, 5, 6, 7], \"start\": \"22:00\", \"end\": \"06:00\"}]"
            )
        }
        let habits = ["walk", "read"]
        for habit in habits {
            add(setup, "earned_habit", "\"habit\": \"\(habit)\", \"reward_credits\": \([0, 5, 10, 20, 40].randomElement(using: &rng)!)")
        }
        if Bool.random(using: &rng) { add(setup, "qr_key", "\"value\": \"desk\"") }
        for d in 1...max(1, days) {
            let day = start + Int64(d) * Millis.day
            var busyUntil = day + 7 * Millis.hour  // one thing at a time: urges and sessions do not overlap
            var slots = (0..<Int.random(in: 2...6, using: &rng)).map { _ in Int64.random(in: 7 * 60...23 * 60, using: &rng) }.sorted()
            if Bool.random(using: &rng) { slots.append(-1) }  // a focus session somewhere in the day
            for habit in habits where Double.random(in: 0..<1, using: &rng) < 0.6 {
                add(day + Int64.random(in: 7 * 60...21 * 60, using: &rng) * minute, "earned_habit_completion", "\"habit\": \"\(habit)\"")
            }
            for slot in slots.shuffled(using: &rng) {
                var at = slot < 0 ? day + Int64.random(in: 8 * 60...18 * 60, using: &rng) * minute : day + slot * minute
                at = max(at, busyUntil)
                if slot < 0 {
                    let planned = [15, 25, 50].randomElement(using: &rng)!
                    add(at, "focus_start", "\"minutes\": \(planned)")
                    if Double.random(in: 0..<1, using: &rng) < 0.3 {
                        let end = at + Int64(Int.random(in: 1..<planned, using: &rng)) * minute
                        add(end, "focus_end")
                        busyUntil = end + minute
                    } else {
                        busyUntil = at + Int64(planned + 1) * minute
                    }
                    continue
                }
                let app = "\"app\": \"\(apps.randomElement(using: &rng)!)\""
                add(at, "unlock_open", app)
                let choice = Int.random(in: 0..<10, using: &rng)
                let chosen = at + 10 * Millis.second
                switch choice {
                case 0..<4:
                    add(
                        chosen, "unlock_choose",
                        app + ", \"option\": \"CREDITS_UNLOCK\", \"minutes\": \(lengths.randomElement(using: &rng)!)")
                case 4..<7:
                    let type = QuestType.allCases.randomElement(using: &rng)!.rawValue
                    add(chosen, "unlock_choose", app + ", \"option\": \"QUEST_UNLOCK\", \"quest_type\": \"\(type)\"")
                    let outcome = Int.random(in: 0..<10, using: &rng)
                    let done = chosen + Int64.random(in: 1...4, using: &rng) * minute
                    switch outcome {
                    case 0..<6: add(done, "quest_complete", app)
                    case 6..<8: add(done, "quest_fail", app + ", \"reason\": \"MISMATCH\"")
                    case 8: add(done, "quest_cancel", app)
                    default: break  // left to expire
                    }
                case 7..<9:
                    add(chosen, "unlock_choose", app + ", \"option\": \"EMERGENCY_UNLOCK\"")
                default:
                    add(chosen, "unlock_cancel", app)
                }
                busyUntil = chosen + 5 * minute
            }
        }
        add(start + Int64(max(1, days) + 1) * Millis.day + 5 * Millis.hour, "tick")
        return events.lines
    }
}
