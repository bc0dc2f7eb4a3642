-- Unit tests of examples/loop-habits/streaks.lua's score for measured goals (rulesrun test
-- examples/loop-habits): the cases the ported Loop tests (the *.jsonl scenarios) do not reach.
-- Loop's Score.compute: score = previous * m + fraction * (1 - m), m = 0.5 ^ (sqrt(freq) / 13);
-- a measured goal starts from 0 (at least) or 1 (at most), and scores each day's fraction of the
-- target (NumericalAtLeast/AtMost in ScoreList.recompute).

local function multiplier(freq) return 0.5 ^ (math.sqrt(freq) / 13) end
local function score(previous, fraction, freq)
  local m = multiplier(freq)
  return previous * m + fraction * (1 - m)
end

-- One day, today, with one completion of `value`.
local function today(value)
  return { { start_date = "2026-03-04", end_date = "2026-03-04", weekday = 3, scheduled = true,
             completions = 1, value = value, status = "done", freezes_equipped = 0 } }
end

local function task(direction, target, frequency, params)
  return { name = "h", measurement = "daily", frequency = frequency or { kind = "daily" }, times_per_day = 1,
           goal = { type = "cups", target = target, direction = direction }, params = params }
end

local weekly = { kind = "times_in_days", times = 3, days = 7 }
local calendar = { calendar_weeks = true }

-- At most 0 cups, daily: any cup scores the day 0 and breaks the streak.
function test_at_most_zero_daily()
  local result = streaks.habit.streak(today(2), task("at_most", 0), {})
  expect_eq(result.current, 0)
  expect_eq(result.score, score(1, 0, 1))
end

-- Calendar weeks, at least 10 cups a week: 5 so far is half the week's target.
function test_calendar_week_at_least()
  local result = streaks.habit.streak(today(5), task("at_least", 10, weekly, calendar), {})
  expect_eq(result.score, score(0, 0.5, 3 / 7))
end

-- Calendar weeks, at most 10 cups a week: 15 is half the allowance over, half a day's score.
function test_calendar_week_at_most()
  local result = streaks.habit.streak(today(15), task("at_most", 10, weekly, calendar), {})
  expect_eq(result.score, score(1, 0.5, 3 / 7))
end

-- Calendar weeks, at most 0 cups a week: any cup scores the day 0.
function test_calendar_week_at_most_zero()
  local result = streaks.habit.streak(today(3), task("at_most", 0, weekly, calendar), {})
  expect_eq(result.score, score(1, 0, 3 / 7))
end
