-- examples/loop-habits/streaks.lua (extends ../../rules): the streaks and the habit score of Loop
-- Habit Tracker (iSoron/uhabits, uhabits-core commonMain: EntryList.kt, StreakList.kt,
-- ScoreList.kt, Score.kt), ported from its source and checked against its tests
-- (examples/loop-habits/tests/: rulesrun test examples/loop-habits --no-inherit).
--
-- Reproduced: "x times in y days" (Loop's rolling DAYS frequencies): groups of x checks within y days
-- make intervals reaching y - 1 days ahead, older intervals snap back to close gaps, and every day
-- of an interval counts (YES_AUTO), days after today (up to today + 30, Habit.recompute's end) and
-- before the task's start included (the host allows a frequency's window on both sides: task.window); a skip keeps the streak and adds to it; the current streak is
-- the one containing today (a streak that ended yesterday is not current: no grace); the best
-- streaks in Loop's order (the longest, ties to the newer, listed newest first); the score
-- (multiplier = 0.5^(sqrt(freq)/13), a skipped day repeats the score, boolean non-daily habits
-- smoothed over 2y days); numeric habits with at_least / at_most targets (a day counts when its
-- own value meets the target; the score sums the last y days).
-- Mapping: every_n_days n is Loop's 1/n; specific weekdays are k times in 7 days; days_of_month
-- is k times in a month (Loop's 30/31-day "monthly" window); a freeze counts as a skip (Loop has none).
-- Loop's calendar-week mode (FrequencyMode.WEEKS): params.calendar_weeks, weeks from
-- params.first_weekday (Loop's setting; Saturday, as in Loop's tests, unless set); a week interval
-- is the whole week, days before the task's start and the first check included (buildWeekIntervals).
-- Left out: question marks (Loop's UNKNOWN vs NO: both are a day without a check here, as they score and
-- break alike); weekly and monthly tasks (Loop counts days: they keep
-- the default rule).
local M = base

-- Loop lets a user edit any past day (the history grid).
M.habit.max_backfill_days = 365
-- StreakList.getBest: the longest streaks, listed newest first.
M.habit.best_order = "newest"

M.params = M.params or {}
-- Loop's FrequencyMode.WEEKS: "x times per week" counted in calendar weeks (a task of x times in 7
-- days with "params": {"calendar_weeks": true}), weeks starting on params.first_weekday.
M.params.calendar_weeks = { type = "boolean", default = false,
  doc = "x times in 7 days counted per calendar week (Loop's WEEKS mode), not in rolling windows" }
-- Loop's "first day of the week" setting (Preferences, getFirstWeekday): Saturday as in Loop's tests
-- (BaseUnitTest: setFirstWeekdayNumber(7)); the app's default is the locale's.
local WEEKDAYS = { "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday" }
M.params.first_weekday = { type = "enum", values = WEEKDAYS, default = "saturday",
  doc = "the first day of a calendar week (Loop's setting)" }
local ISO_WEEKDAY = {}
for i, name in ipairs(WEEKDAYS) do ISO_WEEKDAY[name] = i end

local SKIP_VALUE = 0.003 -- a numeric SKIP is stored as 3 (thousandths): Loop's sums add it

-- Days since 1970-01-01 of "YYYY-MM-DD", and back (H. Hinnant's civil calendar algorithms).
local function day_number(text)
  local y, m, d = tonumber(text:sub(1, 4)), tonumber(text:sub(6, 7)), tonumber(text:sub(9, 10))
  if m <= 2 then y = y - 1 end
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
end

local function civil(n)
  local z = n + 719468
  local era = (z >= 0 and z or z - 146096) // 146097
  local doe = z - era * 146097
  local yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
  local doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
  local mp = (5 * doy + 2) // 153
  local d = doy - (153 * mp + 2) // 5 + 1
  local m = mp < 10 and mp + 3 or mp - 9
  local y = yoe + era * 400 + (m <= 2 and 1 or 0)
  return y, m, d
end

local function date_text(n) return string.format("%04d-%02d-%02d", civil(n)) end

local function month_length(n)
  local y, m = civil(n)
  if m == 2 then return (y % 4 == 0 and (y % 100 ~= 0 or y % 400 == 0)) and 29 or 28 end
  return (m == 4 or m == 6 or m == 9 or m == 11) and 30 or 31
end

--- Loop's Frequency(numerator, denominator) of a task (num == den is daily, 1/1).
local function frequency(f)
  local num, den = 1, 1
  if f.kind == "times_in_days" and f.times and f.days then num, den = f.times, f.days
  elseif f.kind == "every_n_days" and f.every then num, den = 1, f.every
  elseif f.kind == "weekdays" and f.weekdays and #f.weekdays > 0 then num, den = #f.weekdays, 7
  elseif f.kind == "days_of_month" and f.days_of_month and #f.days_of_month > 0 then num, den = #f.days_of_month, 30
  end
  if num >= den then return 1, 1 end
  return num, den
end

--- Score.compute: the score after one day done to `fraction` (0…1).
local function loop_score(freq, previous, fraction)
  local multiplier = 0.5 ^ (math.sqrt(freq) / 13)
  return previous * multiplier + fraction * (1 - multiplier)
end

--- EntryList.buildRollingIntervals + snapIntervalsTogether: from the checked days (day numbers,
--- newest first), the intervals {begin, center, stop} (begin oldest), newest first.
--- EntryList.buildWeekIntervals: weeks with at least `num` checks, {week start, the num-th check, week end}.
local function week_intervals(checked, num, first_weekday)
  local list, weeks = {}, {}
  for i = #checked, 1, -1 do -- oldest first
    local t = checked[i]
    local start = t - ((t + 3) % 7 + 1 - first_weekday) % 7
    local week = weeks[start]
    if not week then week = { begin = start, count = 0 }; weeks[start] = week; list[#list + 1] = week end
    week.count = week.count + 1
    if week.count == num then week.center = t end
  end
  local result = {}
  for i = #list, 1, -1 do
    local w = list[i]
    if w.count >= num then result[#result + 1] = { begin = w.begin, center = w.center, stop = w.begin + 6 } end
  end
  return result
end

local function intervals(checked, num, den)
  local list = {}
  for i = num, #checked do
    local begin, center = checked[i], checked[i - num + 1]
    local size = den
    if den == 30 or den == 31 then
      size = month_length(begin)
      local _, _, d = civil(begin)
      if d == size then size = month_length(begin + 1) end
    end
    if center - begin < size then list[#list + 1] = { begin = begin, center = center, stop = begin + size - 1 } end
  end
  for i = 2, #list do
    local curr, next = list[i], list[i - 1]
    local gap = curr.stop - next.begin
    if gap >= 0 then
      local shift = math.min(curr.stop - curr.center, gap + 1)
      list[i] = { begin = curr.begin - shift, center = curr.center, stop = curr.stop - shift }
    end
  end
  return list
end

local by_periods = M.habit.streak -- weekly and monthly tasks: Loop counts days only

function M.habit.streak(periods, task, user)
  if task.measurement ~= "daily" then return by_periods(periods, task, user) end
  if #periods == 0 then return { current = 0, best = {}, score = 0 } end
  local num, den = frequency(task.frequency)
  local freq = num / den
  local params = task.params or {}
  local weeks = den == 7 and params.calendar_weeks == true
  local first_weekday = ISO_WEEKDAY[params.first_weekday or M.params.first_weekday.default]
  local function week_of(t) return t - ((t + 3) % 7 + 1 - first_weekday) % 7 end
  local goal = task.goal
  local numeric = goal.type ~= "none" and goal.target ~= nil
  local at_most = numeric and goal.direction == "at_most"
  local target = goal.target or 0
  local today = day_number(periods[1].start_date)
  local first = today - #periods + 1
  -- The raw entries by day number: "yes", "skip" (boolean), or a value / SKIP_VALUE (numeric);
  -- nil is a day without data.
  local entry, skipped, checked = {}, {}, {}
  for i, p in ipairs(periods) do
    local t = today - i + 1
    if p.status == "skipped" or p.status == "frozen" then
      skipped[t] = true
      if numeric then entry[t] = SKIP_VALUE end
    elseif numeric then
      if p.completions > 0 then entry[t] = p.value end
    elseif p.status == "done" then
      entry[t] = true
      checked[#checked + 1] = t
    end
  end
  -- Which days count toward a streak (StreakList.recompute's filter over the computed entries).
  local last, oldest = today, first -- the newest and oldest days that may count
  local counts = {}
  if numeric then
    for t, v in pairs(entry) do
      if (at_most and v <= target) or (not at_most and v >= target) then counts[t] = true end
    end
  else
    local ahead = today + 30 -- Habit.recompute: entries and streaks up to today + 30
    if num < den then -- every day of an interval counts, before the task's start too (YES_AUTO)
      for _, iv in ipairs(weeks and week_intervals(checked, num, first_weekday) or intervals(checked, num, den)) do
        for t = iv.begin, math.min(iv.stop, ahead) do counts[t] = true end
        last = math.max(last, math.min(iv.stop, ahead))
        oldest = math.min(oldest, iv.begin)
      end
    end
    for t in pairs(entry) do counts[t] = true end
    for t in pairs(skipped) do counts[t] = true end
  end
  -- Runs of counting days, newest first; the current one contains today.
  local runs, run, current = {}, nil, 0
  for t = last, oldest, -1 do
    if counts[t] then
      if not run then run = { stop = t, length = 0 }; runs[#runs + 1] = run end
      run.start, run.length = t, run.length + 1
    else
      run = nil
    end
  end
  for _, r in ipairs(runs) do -- the run containing today, whole (it may reach ahead)
    if r.start <= today and r.stop >= today then current = r.length end
  end
  local best = {} -- every run: the host keeps the 10 longest, the most recent first among equals
  for i, r in ipairs(runs) do best[i] = { first = date_text(r.start), last = date_text(r.stop), length = r.length } end
  -- ScoreList.recompute (rolling), oldest day to today.
  local from = math.min(today, oldest) -- Loop scores from the oldest computed entry (or today)
  for t in pairs(entry) do if t < from then from = t end end
  for t in pairs(skipped) do if t < from then from = t end end
  local score = at_most and 1.0 or 0.0
  if weeks then -- ScoreList.recomputeWeekly: each day scores its whole week's total
    local totals = {}
    for t = from, today do
      local v, w = entry[t], week_of(t)
      if numeric then
        totals[w] = (totals[w] or 0) + ((v and not skipped[t]) and math.max(0, v) or 0)
      elseif v == true then
        totals[w] = (totals[w] or 0) + 1
      end
    end
    for t = from, today do
      if not skipped[t] then
        local total = totals[week_of(t)] or 0
        local fraction
        if not numeric then fraction = math.min(1, total / num)
        elseif not at_most then fraction = target > 0 and math.min(1, total / target) or 1
        elseif target > 0 then fraction = math.min(1, math.max(0, 1 - (total - target) / target))
        else fraction = total > 0 and 0 or 1 end
        score = loop_score(freq, score, fraction)
      end
    end
    return { current = current, best = best, score = math.min(1, math.max(0, score)) }
  end
  local wnum, wden = num, den
  if not numeric and freq < 1 then wnum, wden = num * 2, den * 2 end
  local sum = 0
  for t = from, today do
    local v = entry[t]
    if numeric then
      sum = sum + (v and math.max(0, v) or 0)
      local old = entry[t - wden]
      if old then sum = sum - math.max(0, old) end
      if not skipped[t] then
        local fraction
        if not at_most then
          fraction = target > 0 and math.min(1, sum / target) or 1
        elseif target > 0 then
          fraction = math.min(1, math.max(0, 1 - (sum - target) / target))
        else
          fraction = sum > 0 and 0 or 1
        end
        score = loop_score(freq, score, fraction)
      end
    else
      if v == true then sum = sum + 1 end
      if entry[t - wden] == true then sum = sum - 1 end
      if not skipped[t] then score = loop_score(freq, score, math.min(1, sum / wnum)) end
    end
  end
  return { current = current, best = best, score = math.min(1, math.max(0, score)) }
end

return M
