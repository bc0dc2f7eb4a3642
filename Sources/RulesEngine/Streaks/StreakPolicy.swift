import LuaHost
import RulesModel

/// streaks.lua, typed: the streak policies of the four apps.
package struct StreakPolicy: Decodable {
    /// The params the file declares for its own functions (``RuleParams``); none when it has no `params`.
    package var params: RuleParams { declaredParams ?? RuleParams() }
    var declaredParams: RuleParams?
    package var pressure: Pressure
    package var habit: Habit
    package var miga: Miga
    package var earned: Earned

    /// The largest streak bonus, in credits: the knob is checked against it, and so is what the
    /// rule `earned.bonus` returns.
    package static let maxBonusCredits = 10_000

    enum CodingKeys: String, CodingKey {
        case pressure, habit, miga, earned
        case declaredParams = "params"
    }

    /// The file's plain values (no functions), as the engine applies them (`PolicyRules.streakKnobs`).
    package var knobs: Knobs { Knobs(pressure: pressure.knobs, habit: habit.knobs, miga: miga.knobs, earned: earned.knobs) }

    /// streaks.lua's plain values (no functions): each app's table's.
    package struct Knobs: Sendable, Equatable {
        package var pressure: Pressure.Knobs
        package var habit: Habit.Knobs
        package var miga: Miga.Knobs
        package var earned: Earned.Knobs

        package init(pressure: Pressure.Knobs, habit: Habit.Knobs, miga: Miga.Knobs, earned: Earned.Knobs) {
            self.pressure = pressure
            self.habit = habit
            self.miga = miga
            self.earned = earned
        }
    }

    /// Pressure: consecutive days with an extending result.
    package struct Pressure: Decodable {
        /// The table's plain values.
        package var knobs: Knobs
        /// `next(streak, day) -> streak`.
        package var next: LuaFunction

        package struct Knobs: Decodable, Sendable, Equatable {
            package var extends: [CommitmentStatus]
            package var shieldResetsStreak: Bool

            package init(extends: [CommitmentStatus], shieldResetsStreak: Bool) {
                self.extends = extends
                self.shieldResetsStreak = shieldResetsStreak
            }

            enum CodingKeys: String, CodingKey {
                case extends
                case shieldResetsStreak = "shield_resets_streak"
            }
        }

        enum CodingKeys: String, CodingKey {
            case next
        }

        /// Decoded in the order of the table's fields: the knobs, then the function.
        package init(from decoder: any Decoder) throws {
            knobs = try Knobs(from: decoder)
            next = try decoder.container(keyedBy: CodingKeys.self).decode(LuaFunction.self, forKey: .next)
        }
    }

    /// Habit tracker: consecutive measurement periods of a task.
    package struct Habit: Decodable {
        /// The table's plain values.
        package var knobs: Knobs
        /// `streak(periods, task, user) -> { current, best?, score? }`, periods most recent first.
        package var streak: LuaFunction

        package struct Knobs: Decodable, Sendable, Equatable {
            package var minCompletions: Int
            package var requireTimesPerDay: Bool
            package var skipUnscheduledDays: Bool
            package var currentPeriodGrace: Bool
            package var dayStartsAt: LocalTime
            /// How many days back a `habit_completion`'s `for_day`, a skip, a freeze or an uncheck may
            /// reach (0: today only, the seed's behaviour), 0…365.
            package var maxBackfillDays: Int
            /// How the state lists a task's best streaks (`best_order`, optional): `"longest"` first
            /// (the default) or `"newest"` first (Loop's `getBest`).
            package var bestOrder: HabitStreak.BestOrder
            /// The most completions a task may have on one day (`max_completions_per_day`, optional,
            /// 1…`maxCompletionsPerDay`): a `habit_completion` beyond it is refused (Habitica refuses a
            /// second check of a daily); nil: any number (the seed's behaviour).
            package var maxCompletionsPerDay: Int?
            /// Whether the engine records the days the user opened the app (`track_app_opens`,
            /// optional, default false), which day periods then carry as `opened`.
            package var trackAppOpens: Bool

            package init(
                minCompletions: Int, requireTimesPerDay: Bool, skipUnscheduledDays: Bool, currentPeriodGrace: Bool,
                dayStartsAt: LocalTime, maxBackfillDays: Int, bestOrder: HabitStreak.BestOrder = .longest,
                maxCompletionsPerDay: Int? = nil, trackAppOpens: Bool = false
            ) {
                self.minCompletions = minCompletions
                self.requireTimesPerDay = requireTimesPerDay
                self.skipUnscheduledDays = skipUnscheduledDays
                self.currentPeriodGrace = currentPeriodGrace
                self.dayStartsAt = dayStartsAt
                self.maxBackfillDays = maxBackfillDays
                self.bestOrder = bestOrder
                self.maxCompletionsPerDay = maxCompletionsPerDay
                self.trackAppOpens = trackAppOpens
            }

            /// The completions a period of a task with `timesPerDay` needs to be `done` (the host's
            /// status): `min_completions`, raised to the task's times per day when `require_times_per_day`.
            package func neededCompletions(timesPerDay: Int) -> Int {
                requireTimesPerDay ? max(minCompletions, timesPerDay) : minCompletions
            }

            enum CodingKeys: String, CodingKey {
                case minCompletions = "min_completions"
                case requireTimesPerDay = "require_times_per_day"
                case skipUnscheduledDays = "skip_unscheduled_days"
                case currentPeriodGrace = "current_period_grace"
                case dayStartsAt = "day_starts_at"
                case maxBackfillDays = "max_backfill_days"
                case bestOrder = "best_order"
                case maxCompletionsPerDay = "max_completions_per_day"
                case trackAppOpens = "track_app_opens"
            }

            package init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                minCompletions = try c.decode(Int.self, forKey: .minCompletions)
                requireTimesPerDay = try c.decode(Bool.self, forKey: .requireTimesPerDay)
                skipUnscheduledDays = try c.decode(Bool.self, forKey: .skipUnscheduledDays)
                currentPeriodGrace = try c.decode(Bool.self, forKey: .currentPeriodGrace)
                dayStartsAt = try c.decode(LocalTime.self, forKey: .dayStartsAt)
                maxBackfillDays = try c.decode(Int.self, forKey: .maxBackfillDays)
                bestOrder = try c.decodeIfPresent(HabitStreak.BestOrder.self, forKey: .bestOrder) ?? .longest
                maxCompletionsPerDay = try c.decodeIfPresent(Int.self, forKey: .maxCompletionsPerDay)
                trackAppOpens = try c.decodeIfPresent(Bool.self, forKey: .trackAppOpens) ?? false
            }
        }

        /// What a folder written for the old signature is told.
        static let oldSignature =
            "habit.current_streak(periods) was replaced by habit.streak(periods, task, user), "
            + "which returns { current = n, best = {…}?, score = x? }: rename it and return a table (see docs/rules.md)"

        enum CodingKeys: String, CodingKey {
            case streak
            case currentStreak = "current_streak"
        }

        /// Decoded in the order of the table's fields: the knobs, then the function.
        package init(from decoder: any Decoder) throws {
            knobs = try Knobs(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if !c.contains(.streak), c.contains(.currentStreak) {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: c.codingPath + [CodingKeys.currentStreak], debugDescription: Self.oldSignature))
            }
            streak = try c.decode(LuaFunction.self, forKey: .streak)
        }
    }

    /// The largest `habit.max_backfill_days`.
    package static let maxBackfillDays = 365
    /// The largest `habit.max_completions_per_day` (a task's `times_per_day` is at most 100 too).
    package static let maxCompletionsPerDay = 100

    /// MIGA: consecutive local days with the counting gateway event.
    package struct Miga: Decodable {
        /// The table's plain values.
        package var knobs: Knobs
        /// `current_streak(days) -> integer`, days most recent first.
        package var currentStreak: LuaFunction

        package struct Knobs: Decodable, Sendable, Equatable {
            package var countingEvent: UsageEventType
            package var dayStartsAt: LocalTime
            package var currentDayGrace: Bool

            package init(countingEvent: UsageEventType, dayStartsAt: LocalTime, currentDayGrace: Bool) {
                self.countingEvent = countingEvent
                self.dayStartsAt = dayStartsAt
                self.currentDayGrace = currentDayGrace
            }

            enum CodingKeys: String, CodingKey {
                case countingEvent = "counting_event"
                case dayStartsAt = "day_starts_at"
                case currentDayGrace = "current_day_grace"
            }
        }

        enum CodingKeys: String, CodingKey {
            case currentStreak = "current_streak"
        }

        /// Decoded in the order of the table's fields: the knobs, then the function.
        package init(from decoder: any Decoder) throws {
            knobs = try Knobs(from: decoder)
            currentStreak = try decoder.container(keyedBy: CodingKeys.self).decode(LuaFunction.self, forKey: .currentStreak)
        }
    }

    /// Earned: days that qualify by focus or habits, the streak bonus, and the streak at each
    /// day's end (with its freezes).
    package struct Earned: Decodable {
        /// The table's plain values.
        package var knobs: Knobs
        /// `qualifies(day) -> "FOCUS" | "HABITS" | nil`.
        package var qualifies: LuaFunction
        /// `bonus(streak_count) -> credits`.
        package var bonus: LuaFunction
        /// `day_ends(day) -> { streak_count, freezes }`, at each rollover.
        package var dayEnds: LuaFunction

        package struct Knobs: Decodable, Sendable, Equatable {
            package var dayStartsAt: LocalTime
            package var focusMinutesToQualify: Int
            package var habitsToQualify: Int
            package var bonusEveryDays: Int
            package var bonusCredits: Int
            /// The streak freezes a user may hold (0: the freeze policy is off), 0…`maxEarnedFreezes`.
            package var freezeMax: Int
            /// One freeze is earned per this many qualifying days in a row, at least 1.
            package var freezeEveryDays: Int

            package init(
                dayStartsAt: LocalTime, focusMinutesToQualify: Int, habitsToQualify: Int, bonusEveryDays: Int, bonusCredits: Int,
                freezeMax: Int, freezeEveryDays: Int
            ) {
                self.dayStartsAt = dayStartsAt
                self.focusMinutesToQualify = focusMinutesToQualify
                self.habitsToQualify = habitsToQualify
                self.bonusEveryDays = bonusEveryDays
                self.bonusCredits = bonusCredits
                self.freezeMax = freezeMax
                self.freezeEveryDays = freezeEveryDays
            }

            /// Whether the freeze policy is on (`freeze_max` above 0): the rollover's decision then
            /// shows the freezes held.
            package var freezesOn: Bool { freezeMax > 0 }

            enum CodingKeys: String, CodingKey {
                case dayStartsAt = "day_starts_at"
                case focusMinutesToQualify = "focus_minutes_to_qualify"
                case habitsToQualify = "habits_to_qualify"
                case bonusEveryDays = "bonus_every_days"
                case bonusCredits = "bonus_credits"
                case freezeMax = "freeze_max"
                case freezeEveryDays = "freeze_every_days"
            }
        }

        enum CodingKeys: String, CodingKey {
            case dayEnds = "day_ends"
            case qualifies, bonus
        }

        /// Decoded in the order of the table's fields: the knobs, then the functions.
        package init(from decoder: any Decoder) throws {
            knobs = try Knobs(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            qualifies = try c.decode(LuaFunction.self, forKey: .qualifies)
            bonus = try c.decode(LuaFunction.self, forKey: .bonus)
            dayEnds = try c.decode(LuaFunction.self, forKey: .dayEnds)
        }
    }

    /// The most streak freezes an Earned user may hold: `earned.freeze_max` is checked against it,
    /// and so are the freezes `earned.day_ends` returns.
    package static let maxEarnedFreezes = 100

    func parameterProblems(in file: RuleFile) -> [RuleProblem] {
        let (pressure, habit, earned) = (pressure.knobs, habit.knobs, earned.knobs)
        var problems: [RuleProblem] = []
        func require(_ ok: Bool, _ path: String, _ message: @autoclosure () -> String) {
            if !ok { problems.append(file.problem(at: path, "\(path): \(message())")) }
        }
        require(
            !pressure.extends.isEmpty && !pressure.extends.contains(.pending), "pressure.extends",
            "must list final results (\"YES\", \"NO\", \"MISSED\"), found \(pressure.extends.map(\.rawValue))")
        require(
            (0...Self.maxBackfillDays).contains(habit.maxBackfillDays), "habit.max_backfill_days",
            "must be between 0 and \(Self.maxBackfillDays) days, found \(habit.maxBackfillDays)")
        require(habit.minCompletions >= 1, "habit.min_completions", "must be at least 1, found \(habit.minCompletions)")
        if let most = habit.maxCompletionsPerDay {
            require(
                (1...Self.maxCompletionsPerDay).contains(most), "habit.max_completions_per_day",
                "must be between 1 and \(Self.maxCompletionsPerDay) completions, found \(most)")
        }
        require(
            (1...24 * 60).contains(earned.focusMinutesToQualify), "earned.focus_minutes_to_qualify",
            "must be between 1 and 1440 minutes, found \(earned.focusMinutesToQualify)")
        require(earned.habitsToQualify >= 1, "earned.habits_to_qualify", "must be at least 1, found \(earned.habitsToQualify)")
        require(earned.bonusEveryDays >= 1, "earned.bonus_every_days", "must be at least 1, found \(earned.bonusEveryDays)")
        require(
            (0...Self.maxBonusCredits).contains(earned.bonusCredits), "earned.bonus_credits",
            "must be between 0 and \(Self.maxBonusCredits) credits, found \(earned.bonusCredits)")
        require(
            (0...Self.maxEarnedFreezes).contains(earned.freezeMax), "earned.freeze_max",
            "must be between 0 and \(Self.maxEarnedFreezes) freezes, found \(earned.freezeMax)")
        require(earned.freezeEveryDays >= 1, "earned.freeze_every_days", "must be at least 1, found \(earned.freezeEveryDays)")
        require(
            earned.dayStartsAt.minute == 0, "earned.day_starts_at",
            "must be on the hour (the store keeps daily_reset_hour_local, 0–23), found \"\(earned.dayStartsAt)\"")
        return problems
    }
}
