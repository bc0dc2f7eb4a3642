-- Unit tests of streaks.lua (rulesrun test; docs/testing-rules.md).

-- Pressure (pressure-data-model.md): consecutive YES days; a restart shield resets the streak
-- (pressure-escalation-engine.md, "Restart Shield": "streak = 0 // streak always resets").
function test_pressure_next()
  local streak = { current_streak = 2, longest_streak = 5 }
  expect_eq(streaks.pressure.next(streak, { result = "YES", shield_used = false }), { current_streak = 3, longest_streak = 5 })
  expect_eq(streaks.pressure.next(streak, { result = "NO", shield_used = false }), { current_streak = 0, longest_streak = 5 })
  expect_eq(streaks.pressure.next(streak, { result = "MISSED", shield_used = false }), { current_streak = 0, longest_streak = 5 })
  expect_eq(streaks.pressure.next({ current_streak = 5, longest_streak = 5 }, { result = "YES", shield_used = false }),
    { current_streak = 6, longest_streak = 6 })
  expect_eq(streaks.pressure.next(streak, { result = "YES", shield_used = true }), { current_streak = 0, longest_streak = 5 })
end

local function period(completions, scheduled)
  return { completions = completions, scheduled = scheduled ~= false }
end

-- Habit tracker (habit-tracker-data-model.md §5.1): "consecutive measurement periods … in which the
-- task has at least one completion", "starting from the current (or most recent completed) period".
function test_habit_streak_counts_completed_periods()
  local task = { times_per_day = 1 }
  expect_eq(streaks.habit.streak({ period(1), period(2), period(1), period(0), period(1) }, task, {}), { current = 3 })
end

function test_habit_streak_current_period_grace()
  local task = { times_per_day = 1 }
  expect_eq(streaks.habit.streak({ period(0), period(1), period(1) }, task, {}), { current = 2 })
  expect_eq(streaks.habit.streak({ period(1), period(0), period(1) }, task, {}), { current = 1 })
  expect_eq(streaks.habit.streak({}, task, {}), { current = 0 })
end

-- An unscheduled day of a specific-days task neither counts nor breaks the streak (the decision in streaks.lua).
function test_habit_streak_skips_unscheduled_days()
  local task = { times_per_day = 1 }
  expect_eq(streaks.habit.streak({ period(1), period(0, false), period(1) }, task, {}), { current = 2 })
end

-- timesPerDay > 1 still needs one completion (streaks.lua's decision; require_times_per_day = false).
function test_habit_streak_times_per_day()
  expect_eq(streaks.habit.streak({ period(1), period(1) }, { times_per_day = 3 }, {}), { current = 2 })
end

-- MIGA (miga-data-model.md, Streak): "consecutive days with at least one 'Exit to Focus' action";
-- today, still running, does not break it.
function test_miga_current_streak()
  expect_eq(streaks.miga.current_streak({ { exits = 2 }, { exits = 1 }, { exits = 0 }, { exits = 4 } }), 2)
  expect_eq(streaks.miga.current_streak({ { exits = 0 }, { exits = 1 }, { exits = 1 } }), 2)
  expect_eq(streaks.miga.current_streak({ { exits = 0 }, { exits = 0 }, { exits = 1 } }), 0)
end

-- Earned (earned-data-model-v1.1.md A4.1): focus.min_minutes_to_qualify = 20; one habit qualifies.
function test_earned_qualifies()
  expect_eq(streaks.earned.qualifies({ focus_minutes = 20, habit_completions = 0 }), "FOCUS")
  expect_eq(streaks.earned.qualifies({ focus_minutes = 19, habit_completions = 1 }), "HABITS")
  expect_eq(streaks.earned.qualifies({ focus_minutes = 19, habit_completions = 0 }), nil)
end

-- STREAK_BONUS_AWARDED's example: amount 10 at streak_count 3.
function test_earned_bonus()
  expect_eq(streaks.earned.bonus(3), 10)
  expect_eq(streaks.earned.bonus(6), 10)
  expect_eq(streaks.earned.bonus(4), 0)
  expect_eq(streaks.earned.bonus(0), 0)
end

-- The document has no freeze (freeze_max = 0): a day that does not qualify resets the streak.
function test_earned_day_ends()
  expect_eq(streaks.earned.day_ends({ qualified = "FOCUS", streak_count = 4, freezes = 0 }), { streak_count = 4, freezes = 0 })
  expect_eq(streaks.earned.day_ends({ qualified = "HABITS", streak_count = 7, freezes = 0 }), { streak_count = 7, freezes = 0 })
  expect_eq(streaks.earned.day_ends({ qualified = nil, streak_count = 4, freezes = 0 }), { streak_count = 0, freezes = 0 })
  expect_eq(streaks.earned.day_ends({ qualified = nil, streak_count = 4, freezes = 2 }), { streak_count = 0, freezes = 0 })
end
