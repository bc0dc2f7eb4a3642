-- examples/duolingo-streak/streaks.lua (extends ../../rules): Duolingo's streak (no public source:
-- the Duolingo Help Center's "What is a streak?" and forum threads, see below).
--
-- Documented (help center): the streak counts the days in a row with a lesson; today, not yet done,
-- does not break it; "a streak freeze must be purchased in advance of a day of a missed lesson";
-- "you can equip up to 2 streak freezes at a time" (param freeze_max, default 2).
-- Community-reported (forum threads, 2017): an equipped freeze is used up automatically on a day
-- without a lesson; a frozen day keeps the streak but does not add to it; two missed days need two
-- freezes. Published: a freeze is spent only when a day is missed with a streak (> 0) to protect.
-- Assumed: a broken streak can be repaired within repair_window_days (default 1) of the missed day;
-- a repair is a lesson completed for the missed day (`habit_completion` with `for_day`, allowed that
-- far back by habit.max_backfill_days below), after which the day counts. A freeze used by hand
-- (`habit_freeze use`) protects its day like an automatic one. Freezes equipped beyond freeze_max
-- are not held (Duolingo's shop refuses them; a rule cannot refuse an event, so they are ignored).
-- Left out: the weekend amulet, gems and prices, streak wagers, earning freezes from quests (any
-- `habit_freeze equip` is a freeze earned or bought), the free monthly repair of subscribers.
local M = base

M.params = M.params or {}
M.params.freeze_max = { type = "integer", min = 0, max = 10, default = 2,
  doc = "streak freezes a user may hold at a time (Duolingo: 2)" }
-- Assumed repair window, in days after the missed one.
M.habit.max_backfill_days = 1

function M.habit.streak(periods, task, user)
  local cap = (task.params and task.params.freeze_max) or M.params.freeze_max.default
  -- Oldest to newest, as the days happened: freezes equipped that day are held from then on.
  local held, streak, runs = 0, 0, {}
  for i = #periods, 1, -1 do
    local p = periods[i]
    held = math.min(cap, held + (p.freezes_equipped or 0))
    if p.status == "done" or p.completions > 0 then
      if streak == 0 then runs[#runs + 1] = { first = p.start_date, length = 0 } end
      streak = streak + 1
      runs[#runs].last, runs[#runs].length = p.end_date, streak
    elseif i > 1 and p.status ~= "frozen" and p.status ~= "skipped" then
      -- a past day without a lesson (today, open, breaks nothing; a freeze or skip used by hand
      -- keeps the streak without extending it)
      -- (a freeze is spent only when there is a streak to protect)
      if held > 0 and streak > 0 then held = held - 1 else streak = 0 end
    end
  end
  return { current = streak, best = runs } -- the host keeps the 10 longest
end

return M
