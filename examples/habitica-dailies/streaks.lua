-- examples/habitica-dailies/streaks.lua (extends ../../rules): the streak of a Habitica daily
-- (HabitRPG/habitica: website/common/script/cron.js shouldDo, website/server/libs/cron.js cron,
-- website/common/script/ops/scoreTask.js, content/spells.js frost).
--
-- Reproduced: each check adds 1 (scoreTask "up", due or not: checking a daily on a day it is not due
-- counts too), and a second check on the same day is refused (habit.max_completions_per_day); an uncheck takes it back (habit_uncheck removes the completion); the streak resets
-- only when a DUE day passed unchecked (cron's scoreTask "down") — a day the daily is not due
-- (specific weekdays, "every N days" from the start date: the host's `scheduled`; days of the month:
-- the date's own day, so a "day 31" daily has no due day in a shorter month) never breaks it; Chilling Frost keeps the streak over a missed due day (`habit_freeze use` on that
-- day: the day is "frozen"); today, still open, breaks nothing; the custom day start is the user's
-- `settings.day_starts_at` (a check at 02:30 with "04:00" belongs to the day before), so the host's
-- periods already follow it; "Record Yesterday's Activity" checks yesterday's dailies before cron
-- (`for_day` yesterday: habit.max_backfill_days is 1). A skip (`habit_skip`) is a day the daily is not due.
-- Left out: cron itself (Habitica examines only "yesterday" when a user was away several days,
-- multiDaysCountAsOneDay: here every missed due day counts, as if the user opened the app daily);
-- sleeping in the Inn, the Rogue's stealth, challenge/group dailies (frost does not protect them),
-- HP damage, gold bonus and the 21-day streak achievement (no outputs for them); frost as a spell
-- for all dailies during one cron (here a freeze is used per task and day); weekly, monthly-by-week
-- and yearly repeats (the host's frequencies are daily, weekdays, times_in_days, every_n_days and
-- days_of_month).
local M = base

-- "Record Yesterday's Activity": on the first open of a day, before cron judges yesterday, the user
-- may check the dailies due yesterday (a `habit_completion` with `for_day` yesterday).
M.habit.max_backfill_days = 1
-- scoreTask refuses to score up a daily already completed since the last cron ("sessionOutdated").
M.habit.max_completions_per_day = 1

local function counts(p) return p.status == "done" or p.completions > 0 end

--- shouldDo: the host's `scheduled`, except for days of the month, where Habitica's schedule
--- (moment-recur's daysOfMonth) matches the date itself: a "day 31" daily is not due in a shorter
--- month (the host's `scheduled` moves it to the month's last day).
local function due(p, task)
  if task.frequency.kind ~= "days_of_month" then return p.scheduled end
  local day = tonumber(p.start_date:sub(9, 10))
  for _, d in ipairs(task.frequency.days_of_month) do
    if d == day then return true end
  end
  return false
end

function M.habit.streak(periods, task, user)
  -- Oldest to newest: +1 per checked day, 0 after a due day missed without frost.
  local streak, runs = 0, {}
  for i = #periods, 1, -1 do
    local p = periods[i]
    if counts(p) then
      if streak == 0 then runs[#runs + 1] = { first = p.start_date, length = 0 } end
      streak = streak + 1
      runs[#runs].length, runs[#runs].last = streak, p.end_date
    elseif due(p, task) and p.status == "missed" then
      streak = 0 -- cron: a due daily left unchecked (frozen, skipped and open days are not "missed")
    end
  end
  return { current = streak, best = runs } -- the host keeps the 10 longest
end

return M
