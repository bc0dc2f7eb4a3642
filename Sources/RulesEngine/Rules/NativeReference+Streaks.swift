import RulesModel

/// The streak policies of the four apps, as `rules/streaks.lua` implements them.
extension NativeReference {
    /// Pressure: the streak after one day's final result (`M.pressure.next`). The streak counts
    /// consecutive YES days ("current_streak" / "longest_streak"); a restart shield resets it
    /// ("streak = 0 // streak always resets"). The longest streak is the largest current streak seen.
    /// The day's date and commitment do not matter to it.
    package func pressureStreak(_ streak: PressureStreak, day: PressureDay) throws -> PressureStreak {
        let extends = Self.streaks.pressure.extends.contains(day.result)
        let current = extends && !(day.shieldUsed && Self.streaks.pressure.shieldResetsStreak) ? streak.current + 1 : 0
        return PressureStreak(current: current, longest: max(streak.longest, current))
    }

    /// Habit tracker: "the count of consecutive measurement periods (days, weeks, or months --
    /// matching measurementDuration) in which the task has at least one completion", "starting from
    /// the current (or most recent completed) period" (habit-tracker-data-model.md §5.1;
    /// `M.habit.streak`). Periods come most recent first; the first is the running one.
    ///
    /// - An unscheduled day of a specific-days task neither counts nor breaks the streak (decision).
    /// - One completion is enough even when timesPerDay > 1 (decision).
    /// - The running period without a completion does not break the streak: it may still be
    ///   completed.
    /// Only the current streak is returned (no best streaks, no score), as the default rule does.
    package func habitStreak(_ periods: [HabitPeriod], task: HabitTaskRecord, user: HabitUserRecord) throws -> HabitStreak {
        let habit = Self.streaks.habit
        let needed = habit.neededCompletions(timesPerDay: task.timesPerDay)
        var streak = 0
        for (i, period) in periods.enumerated() {
            let skipped = !period.scheduled && habit.skipUnscheduledDays
            let running = i == 0 && habit.currentPeriodGrace
            if skipped { continue }
            if period.completions >= needed {
                streak += 1
            } else if !running {
                break
            }
        }
        return HabitStreak(current: streak)
    }

    /// MIGA: "consecutive days with at least one 'Exit to Focus' action"; "Streak breaks if no 'Exit
    /// to Focus' events for a full calendar day", so today, still running, does not break it
    /// (miga-data-model.md; `M.miga.current_streak`). Days come today first.
    package func migaStreak(_ exitsPerDay: [Int]) throws -> Int {
        var streak = 0
        for (i, exits) in exitsPerDay.enumerated() {
            if exits > 0 {
                streak += 1
            } else if !(i == 0 && Self.streaks.miga.currentDayGrace) {
                break
            }
        }
        return streak
    }

    /// Earned: a day qualifies by focus (focus.min_minutes_to_qualify = 20 minutes of completed
    /// focus) or, failing that, by habits (one completed habit, a decision: the document counts
    /// today_habit_qualified_count but gives no threshold) (`M.earned.qualifies`). Focus is checked
    /// first, so a day with both qualifies by FOCUS.
    package func earnedQualification(focusMinutes: Int, habitCompletions: Int) throws -> StreakQualificationMethod? {
        if focusMinutes >= Self.streaks.earned.focusMinutesToQualify { return .focus }
        if habitCompletions >= Self.streaks.earned.habitsToQualify { return .habits }
        return nil
    }

    /// Earned: the STREAK_BONUS_AWARDED example gives amount 10 at streak_count 3; the decision is 10
    /// credits on each day the streak reaches a multiple of 3, none otherwise (`M.earned.bonus`).
    package func earnedBonus(streakCount: Int) throws -> Int {
        let earned = Self.streaks.earned
        return streakCount > 0 && streakCount % earned.bonusEveryDays == 0 ? earned.bonusCredits : 0
    }

    /// Earned: the streak is kept when the day qualified and reset to 0 when it did not
    /// (`M.earned.day_ends` with `freeze_max = 0`: no freezes are earned, none are held).
    package func earnedDayEnds(_ day: EarnedDayEnd) throws -> EarnedStreak {
        EarnedStreak(streakCount: day.qualified != nil ? day.streakCount : 0, freezes: min(day.freezes, Self.streaks.earned.freezeMax))
    }
}
