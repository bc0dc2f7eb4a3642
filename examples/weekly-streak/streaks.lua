-- examples/weekly-streak/streaks.lua (extends ../../rules): a week counts when the habit is done on
-- at least 3 of its days; the streak is in weeks, and the best streaks are returned.
local M = base
local DAYS_PER_WEEK = 3

function M.habit.streak(periods, task, user)
  local weeks, week = {}, nil            -- ISO weeks, most recent first (day periods)
  for _, p in ipairs(periods) do
    if not week then week = { done = 0, last = p.end_date }; weeks[#weeks + 1] = week end
    if p.status == "done" then week.done = week.done + 1 end
    week.first = p.start_date
    if p.weekday == 1 then week = nil end -- Monday: the week before starts with the next period
  end
  local runs, run, current, broken = {}, nil, 0, false
  for i, w in ipairs(weeks) do
    if w.done >= DAYS_PER_WEEK then
      if not run then run = { last = w.last, length = 0 }; runs[#runs + 1] = run end
      run.first, run.length = w.first, run.length + 1
      if not broken then current = run.length end
    elseif i > 1 then                     -- the running week may still count: it breaks nothing
      run, broken = nil, true
    end
  end
  return { current = current, best = runs } -- the host keeps the 10 longest
end

return M
