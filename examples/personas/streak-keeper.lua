-- streak-keeper: a learner who guards its streaks, as Duolingo and Loop users do. A daily lesson
-- it usually does, a run of 3 to 8 km every other day (5 km is the goal), a gym session on Monday,
-- Wednesday and Friday; on a day it would miss it skips (a planned rest), uses a streak freeze it
-- bought, or does the lesson the next morning for the day before. Run it on a rule set whose
-- streaks read these:
--   rulesrun simulate 30d --rules examples/duolingo-streak --persona streak-keeper
return {
  description = "Guards its habit streaks with skips, streak freezes and late lessons.",
  settings = { timezone = "America/New_York", commitment_deadline = "08:00", checkin_window_close = "22:00" },
  commit = 0.8,
  answer = { yes = 0.75, no = 0.1 },
  reminder_response = { 0.5, 0.6, 0.7, 0.7 },

  -- Each habit task, beyond `task`, `rate` (the probability of each completion on a due day) and
  -- `times_per_day`, may set (all optional; a task without them draws as before):
  --   frequency = { kind = …, … }  the task's due days, as a streak rule reads `task.frequency`:
  --                 "daily"; "weekdays" with weekdays = { 1, 3, 5 } (ISO, 1 = Monday);
  --                 "times_in_days" with times = x, days = y; "every_n_days" with every = n;
  --                 "days_of_month" with days_of_month = { 1, 15 }. The task starts on the first
  --                 day; on a day that is not due the user does not complete it.
  --   goal = { type = …, unit = …, target = n, direction = …, value = { low, high } }
  --                 a measured goal (type: repetitions, time, cups, calories, distance, weight,
  --                 capacity; unit: one of the type's, default its first; direction "at_least",
  --                 the default, or "at_most"); each completion logs a value drawn uniformly
  --                 between low and high (to 0.1).
  --   On a due day the user completes none of the times, in this order (the first that happens):
  --   late = p     it completes the task the next morning for that day (`habit_completion` with
  --                 `for_day`; the rule set must allow it: habit.max_backfill_days ≥ 1, else the
  --                 engine refuses the event);
  --   skip = p     it logs a `habit_skip` in the evening (a planned rest);
  --   freeze = { equip = p, max = n, use = p }
  --                 each day, holding fewer than `max` freezes (default 2), it equips one with
  --                 probability `equip` (`habit_freeze` "equip": bought, as in Duolingo's shop) —
  --                 or, with `every = n` instead of `equip`, on the first day and every n after;
  --                 on a due day it misses (and neither completes late nor skips), holding one,
  --                 it uses one with probability `use` (default 1) late in the evening
  --                 (`habit_freeze` "use"). What a skip or a freeze does to the streak is the
  --                 rule set's to decide (examples/duolingo-streak uses equipped freezes by itself
  --                 on a missed day; a freeze used by hand protects its day too).
  habits = {
    { task = "lesson", rate = 0.8, late = 0.3, freeze = { equip = 0.15, max = 2, use = 0.9 } },
    { task = "run", rate = 0.7, frequency = { kind = "every_n_days", every = 2 }, skip = 0.5,
      goal = { type = "distance", unit = "km", target = 5, value = { 3, 8 } } },
    { task = "gym", rate = 0.6, frequency = { kind = "weekdays", weekdays = { 1, 3, 5 } }, skip = 0.3,
      freeze = { equip = 0.05, max = 1 } },
  },
  miga = { opens_per_day = 1, exit = 0.4, deepen = 0.1 },
}
