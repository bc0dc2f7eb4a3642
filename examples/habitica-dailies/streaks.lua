-- examples/habitica-dailies/streaks.lua (extends ../../rules): the streak of a Habitica daily
-- (HabitRPG/habitica: website/common/script/cron.js shouldDo, website/server/libs/cron.js cron,
-- website/common/script/ops/scoreTask.js, content/spells.js frost).
--
-- Reproduced: cron, at the first open of each day (the host's `opened`: habit.track_app_opens),
-- judges only the day before (multiDaysCountAsOneDay), and only a daily not completed since the
-- last cron: the streak resets when that day was DUE and passed unchecked (cron's scoreTask
-- "down"), so due days missed during an absence are not judged, and neither is any day after a
-- check made on the last day the user opened the app. A day the daily is not due (specific
-- weekdays, "every N days" from the start date: the host's `scheduled`; days of the month: the
-- date's own day, so a "day 31" daily has no due day in a shorter month) never breaks it. Each
-- check adds 1 (scoreTask "up", due or not: checking a daily on a day it is not due counts too),
-- and a second check on the same day is refused (habit.max_completions_per_day); an uncheck takes
-- it back (habit_uncheck removes the completion); Chilling Frost keeps the streak over a missed
-- due day (`habit_freeze use` on that day: the day is "frozen"); today, still open, breaks
-- nothing; the custom day start is the user's `settings.day_starts_at` (a check at 02:30 with
-- "04:00" belongs to the day before), so the host's periods already follow it; "Record Yesterday's
-- Activity" checks yesterday's dailies before cron (`for_day` yesterday: habit.max_backfill_days
-- is 1). A skip (`habit_skip`) is a day the daily is not due.
-- Left out: sleeping in the Inn, the Rogue's stealth, challenge/group dailies (frost does not
-- protect them), HP damage, gold bonus and the 21-day streak achievement (no outputs for them);
-- frost as a spell for all dailies during one cron (here a freeze is used per task and day); a
-- `for_day` check of yesterday made after the day's first event counts as made before cron;
-- weekly, monthly-by-week and yearly repeats (the host's frequencies are daily, weekdays,
-- times_in_days, every_n_days and days_of_month).
local M = base

-- "Record Yesterday's Activity": on the first open of a day, before cron judges yesterday, the user
-- may check the dailies due yesterday (a `habit_completion` with `for_day` yesterday).
M.habit.max_backfill_days = 1
-- scoreTask refuses to score up a daily already completed since the last cron ("sessionOutdated").
M.habit.max_completions_per_day = 1
-- Cron runs at the first request of a day: the periods say on which days the user opened the app.
M.habit.track_app_opens = true

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
  -- Oldest to newest, as cron saw the days: at the first open of a day (every day when the host
  -- does not say), cron judges the day before, unless the daily was completed since the last cron;
  -- then each checked day adds 1.
  local streak, runs, completed = 0, {}, false
  for i = #periods, 1, -1 do
    local p = periods[i]
    if p.opened ~= false and i < #periods then
      local yesterday = periods[i + 1] -- frozen, skipped and checked days are not "missed"
      if not completed and yesterday.status == "missed" and due(yesterday, task) then streak = 0 end
      completed = false
    end
    if counts(p) then
      if streak == 0 then runs[#runs + 1] = { first = p.start_date, length = 0 } end
      streak = streak + 1
      runs[#runs].length, runs[#runs].last = streak, p.end_date
      completed = true
    end
  end
  return { current = streak, best = runs } -- the host keeps the 10 longest
end

return M
