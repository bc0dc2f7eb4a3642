-- Streak policies of the four apps (../shared/seeds/). The host buckets each user's history into
-- periods (days, ISO weeks, calendar months) in the user's time zone, with the day boundaries
-- below, and asks these functions whether a period counts and what the streak becomes. The
-- functions are pure: read-only tables in, a value out.
--
-- Where a seed is silent, the decision is written next to the knob ("Decision:").

local M = {}

-------------------------------------------------------------------------------------------------
-- Pressure (pressure-data-model.md, pressure-escalation-engine.md)
-------------------------------------------------------------------------------------------------
M.pressure = {
  -- Results that extend the streak: consecutive YES days ("current_streak" / "longest_streak").
  extends = { "YES" },
  -- A restart shield resets the streak ("streak = 0 // streak always resets"); tier and misses stay.
  shield_resets_streak = true,
}

--- The streak after one day's final result.
---@param streak { current_streak: integer, longest_streak: integer }
---@param day { result: "YES"|"NO"|"MISSED", shield_used: boolean, date: string, weekday: integer, committed: boolean }
---@return { current_streak: integer, longest_streak: integer }
function M.pressure.next(streak, day)
  local extends = false
  for _, result in ipairs(M.pressure.extends) do
    if day.result == result then extends = true end
  end
  local current = 0
  if extends and not (day.shield_used and M.pressure.shield_resets_streak) then
    current = streak.current_streak + 1
  end
  return { current_streak = current, longest_streak = math.max(streak.longest_streak, current) }
end

-------------------------------------------------------------------------------------------------
-- Habit tracker (habit-tracker-data-model.md §5.1)
-------------------------------------------------------------------------------------------------
M.habit = {
  -- "the count of consecutive measurement periods (days, weeks, or months -- matching
  -- measurementDuration) in which the task has at least one completion".
  min_completions = 1,
  -- Decision: a daily task with timesPerDay > 1 still needs one completion for its day to count
  -- (the streak definition above); set true to require timesPerDay completions instead.
  require_times_per_day = false,
  -- Decision: on a specific-days task, a day that is not scheduled neither counts nor breaks the
  -- streak (scheduledDays says the task has nothing to do that day).
  skip_unscheduled_days = true,
  -- "Starting from the current (or most recent completed) period": an empty current period does
  -- not break the streak while it is still running.
  current_period_grace = true,
  -- ISO weeks start on Monday ("ISO week"); months are calendar months; days start at midnight.
  day_starts_at = "00:00",
  -- How many days back a completion (`for_day`), a skip, a freeze or an uncheck may reach.
  -- Decision: 0, today only (the seed records completions as they happen); 0…365.
  max_backfill_days = 0,
}

--- The streak of one task, from its periods, most recent first: the first is the current
--- (running) one, the last the one the task was created in (docs/rules.md describes every field).
---@param periods { start_date: string, end_date: string, weekday: integer?, scheduled: boolean, completions: integer, value: number, status: string, freezes_equipped: integer, opened: boolean? }[]
---@param task { name: string, measurement: string, frequency: table, times_per_day: integer, goal: table, start_date: string, params: table, window: integer }
---@param user { timezone: string, day_starts_at: string }
---@return { current: integer, best: { first: string, last: string, length: integer }[]?, score: number? }
function M.habit.streak(periods, task, user)
  local needed = M.habit.min_completions
  if M.habit.require_times_per_day then needed = math.max(needed, task.times_per_day) end
  local streak = 0
  for i, period in ipairs(periods) do
    local skipped = not period.scheduled and M.habit.skip_unscheduled_days -- neither counts nor breaks
    local running = i == 1 and M.habit.current_period_grace                -- may still be completed
    if not skipped then
      if period.completions >= needed then
        streak = streak + 1
      elseif not running then
        break
      end
    end
  end
  return { current = streak }
end

-------------------------------------------------------------------------------------------------
-- MIGA (miga-data-model.md, Streak)
-------------------------------------------------------------------------------------------------
M.miga = {
  -- "Represents consecutive days with at least one 'Exit to Focus' action."
  counting_event = "exit_to_focus",
  -- "Day boundary uses device local timezone": local midnight.
  day_starts_at = "00:00",
  -- "Streak breaks if no 'Exit to Focus' events for a full calendar day": today, still running,
  -- does not break it.
  current_day_grace = true,
}

--- The current streak from per-day counts of the counting event, most recent (today) first.
---@param days { exits: integer }[]
---@return integer
function M.miga.current_streak(days)
  local streak = 0
  for i, day in ipairs(days) do
    if day.exits > 0 then
      streak = streak + 1
    elseif not (i == 1 and M.miga.current_day_grace) then
      break
    end
  end
  return streak
end

-------------------------------------------------------------------------------------------------
-- Earned (earned-data-model-v1.1.md: economy_state, A6 focus/habit completion, A7 payloads)
-------------------------------------------------------------------------------------------------
M.earned = {
  -- "current_day_id TEXT NOT NULL -- YYYY-MM-DD (04:00 boundary)"; daily_reset_hour_local = 4.
  day_starts_at = "04:00",
  -- A day qualifies by focus: settings_json focus.min_minutes_to_qualify (20) minutes of completed
  -- focus in the day.
  focus_minutes_to_qualify = 20,
  -- Decision: the document counts qualifying habit completions (today_habit_qualified_count) but
  -- gives no threshold; one completed habit (not award-suspended) qualifies the day.
  habits_to_qualify = 1,
  -- Decision: the only figures are the STREAK_BONUS_AWARDED example (amount 10 at streak_count 3);
  -- a bonus of 10 credits is awarded on each day the streak reaches a multiple of 3, once a day.
  -- (A bonus is 0 to 10,000 credits: the knob and what bonus() returns are checked.)
  bonus_every_days = 3,
  bonus_credits = 10,
  -- Decision: the document has no streak freeze; the policy is here, off. A user may hold up to
  -- freeze_max freezes (0…100; 0: none, the document's rollover) and earns one per freeze_every_days
  -- qualifying days in a row (at least 1); a day that does not qualify spends one instead of
  -- resetting the streak.
  freeze_max = 0,
  freeze_every_days = 7,
}

--- How a day qualified ("FOCUS" or "HABITS", the STREAK_QUALIFIED method), or nil.
---@param day { focus_minutes: integer, habit_completions: integer }
---@return "FOCUS"|"HABITS"|nil
function M.earned.qualifies(day)
  if day.focus_minutes >= M.earned.focus_minutes_to_qualify then return "FOCUS" end
  if day.habit_completions >= M.earned.habits_to_qualify then return "HABITS" end
  return nil
end

--- The streak bonus in credits on the day the streak reaches streak_count (0: none).
---@param streak_count integer
---@return integer
function M.earned.bonus(streak_count)
  if streak_count > 0 and streak_count % M.earned.bonus_every_days == 0 then return M.earned.bonus_credits end
  return 0
end

--- The streak and the freezes held after the day ends (at the rollover). A qualified day keeps
--- its count (streak_count counts it) and earns a freeze every freeze_every_days of the streak; a
--- day that did not qualify spends a freeze to keep the streak, or resets it to 0.
---@param day { date: string, weekday: integer, qualified: "FOCUS"|"HABITS"|nil, streak_count: integer, freezes: integer }
---@return { streak_count: integer, freezes: integer }
function M.earned.day_ends(day)
  local freezes = math.min(day.freezes, M.earned.freeze_max)
  if day.qualified then
    if day.streak_count % M.earned.freeze_every_days == 0 then freezes = math.min(freezes + 1, M.earned.freeze_max) end
    return { streak_count = day.streak_count, freezes = freezes }
  end
  if freezes > 0 and day.streak_count > 0 then return { streak_count = day.streak_count, freezes = freezes - 1 } end
  return { streak_count = 0, freezes = freezes }
end

return M
