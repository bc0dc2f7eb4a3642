-- Unit tests of examples/weekly-streak/streaks.lua (rulesrun test examples/weekly-streak): a week
-- counts when the habit is done on at least 3 of its days; the streak is in weeks.

-- Day periods, most recent first, from `days` (a list of "x" done / "." not done), the most recent
-- on `weekday` (ISO, 1 = Monday) of a week ending on the 2026-03-29 Sunday.
local function periods(days, weekday)
  local out = {}
  for i = 1, #days do
    local w = (weekday - i) % 7 + 1
    local date = string.format("2026-03-%02d", 29 - (7 - weekday) - (i - 1))
    out[i] = { start_date = date, end_date = date, weekday = w, status = days:sub(i, i) == "x" and "done" or "skipped" }
  end
  return out
end

-- Two full weeks done 3 times each (Sunday back to the Monday two weeks before): 2 weeks.
function test_weeks_with_three_days_count()
  local result = streaks.habit.streak(periods("xxx....xxx....", 7), {}, {})
  expect_eq(result.current, 2)
  expect_eq(result.best, { { first = "2026-03-16", last = "2026-03-29", length = 2 } })
end

-- Two days in a past week break the streak; the running week (Wednesday, 1 day so far) breaks nothing.
function test_a_week_with_two_days_breaks_it()
  local result = streaks.habit.streak(periods("x..xx.....xxx....", 3), {}, {})
  expect_eq(result.current, 0)
  local past = streaks.habit.streak(periods("x..xxx....xxx....", 3), {}, {})
  expect_eq(past.current, 2)
end
