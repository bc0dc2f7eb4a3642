-- Properties of the default rules (rulesrun test; docs/testing-rules.md, "Properties"): each
-- prop_ function gets cases drawn by the generator its entry in `cases` names, and returns true.

cases = {
  prop_transition_never_counts_misses_and_successes_at_once = gen.record {
    state = gen.escalation_state(), check_in = gen.check_in(),
  },
  prop_reminders_fall_inside_the_window = gen.record { tier = gen.int(0, 3), window = gen.window() },
  prop_tier_stays_within_0_to_3 = gen.history("pressure", { days = 7 }),
  prop_credit_balance_never_negative = gen.history("earned", { days = 3 }),
  prop_habit_streaks_never_negative = gen.history("habits", { days = 7 }),
  prop_prices_strictly_increase_with_the_length = gen.price_context(),
  prop_focus_credits_only_for_qualifying_sessions = gen.focus_session(),
  prop_quest_gate_answers_nil_or_an_unlock_denied_reason = gen.quest_gate(),
  prop_emergency_unlocks_stop_at_the_daily_limit = gen.emergency_gate(),
  prop_a_day_that_does_not_extend_ends_the_pressure_streak = gen.record {
    streak = gen.pressure_streak(), day = gen.pressure_day(),
  },
  prop_a_habit_streak_counts_at_most_the_periods_given = gen.habit_streak(),
}

-- Over the states validation proves transition over: "consecutive_successes = 0" on a miss,
-- "consecutive_misses = 0" on a YES, and the tier stays in 0–3.
function prop_transition_never_counts_misses_and_successes_at_once(c)
  local after = escalation.transition(c.state, c.check_in)
  expect_true(after.current_tier >= 0 and after.current_tier <= 3, "tier in 0–3")
  expect_true(after.consecutive_misses == 0 or after.consecutive_successes == 0, "misses and successes never both counting")
  return true
end

-- Every reminder of every tier falls between the commitment deadline and the window close, in order.
function prop_reminders_fall_inside_the_window(c)
  local previous = c.window.open_minutes
  for _, time in ipairs(escalation.reminder_times(c.tier, c.window)) do
    local minutes = tonumber(time:sub(1, 2)) * 60 + tonumber(time:sub(4, 5))
    expect_true(minutes >= previous and minutes <= c.window.close_minutes, time)
    previous = minutes
  end
  return true
end

-- Every event of a 7-day Pressure history leaves the tier in 0–3.
function prop_tier_stays_within_0_to_3(history)
  for _, step in ipairs(history) do
    if step.ok then expect_true(step.state.current_tier >= 0 and step.state.current_tier <= 3, step.event.type) end
  end
  return true
end

-- No unlock, quest or rollover takes the balance below 0.
function prop_credit_balance_never_negative(history)
  for _, step in ipairs(history) do
    local earned = step.ok and step.state.earned
    if earned then expect_true(earned.credit_balance >= 0, step.event.type) end
  end
  return true
end

function prop_habit_streaks_never_negative(history)
  for _, step in ipairs(history) do
    for task, streak in pairs(step.ok and step.state.habit_streaks or {}) do
      expect_true(streak >= 0, task)
    end
  end
  return true
end

-- In every situation price is proved in, each length of credit_costs costs an integer in
-- 0…10000, more than every shorter one (A4.1 "credit costs must be strictly increasing").
function prop_prices_strictly_increase_with_the_length(ctx)
  local previous = -1
  for _, cost in ipairs(pricing.credit_costs) do
    local asked = {}
    for k, v in pairs(ctx) do asked[k] = v end
    asked.minutes = cost.minutes
    local credits = pricing.price(asked)
    expect_true(math.type(credits) == "integer" and credits >= 0 and credits <= 10000, cost.minutes .. " minutes")
    expect_true(credits > previous, cost.minutes .. " minutes cost more than the shorter lengths")
    previous = credits
  end
  return true
end

-- A4.1 focus.min_minutes_to_qualify: a shorter session earns nothing; a longer one never earns
-- fewer credits than a shorter one (checked against the session one minute shorter).
function prop_focus_credits_only_for_qualifying_sessions(session)
  local credits = pricing.focus_credits(session)
  expect_true(credits >= 0, "credits never negative")
  if session.actual_minutes < pricing.focus.min_minutes_to_qualify then expect_eq(credits, 0, "below the minimum") end
  if session.actual_minutes > 0 then
    local shorter = { actual_minutes = session.actual_minutes - 1, planned_minutes = session.planned_minutes,
      completed = session.completed, ended_early = session.ended_early }
    expect_true(pricing.focus_credits(shorter) <= credits, "one minute less never earns more")
  end
  return true
end

-- A7 UNLOCK_DENIED reason: a quest gate answers nil (allowed) or one of the document's reasons,
-- and A4.2's snapshot disables every quest in HARD mode (DISALLOWED_IN_HARD_MODE).
local denied_reasons = {
  INSUFFICIENT_CREDITS = true, DAILY_LIMIT_REACHED = true, COOLDOWN_ACTIVE = true, QR_KEY_NOT_SET = true,
  DISALLOWED_IN_HARD_MODE = true, SAME_APP_CONSECUTIVE_BLOCKED = true,
}
function prop_quest_gate_answers_nil_or_an_unlock_denied_reason(gate)
  local reason = quests.quest_blocked(gate)
  expect_true(reason == nil or denied_reasons[reason], tostring(reason))
  if gate.strictness == "HARD" then expect_eq(reason, "DISALLOWED_IN_HARD_MODE") end
  return true
end

-- A4.1 emergency.daily_limit: from the limit on, every emergency unlock is refused with DAILY_LIMIT_REACHED.
function prop_emergency_unlocks_stop_at_the_daily_limit(gate)
  local reason = quests.emergency_blocked(gate)
  expect_true(reason == nil or denied_reasons[reason], tostring(reason))
  if gate.emergency_used_today >= quests.emergency.daily_limit then expect_eq(reason, "DAILY_LIMIT_REACHED") end
  return true
end

-- pressure-data-model.md: current_streak counts consecutive days with an extending result
-- (streaks.pressure.extends) and longest_streak is the longest it has been: a day whose result does
-- not extend it ends it, and the longest streak never shrinks.
function prop_a_day_that_does_not_extend_ends_the_pressure_streak(c)
  local after = streaks.pressure.next(c.streak, c.day)
  local extends = false
  for _, result in ipairs(streaks.pressure.extends) do
    if result == c.day.result then extends = true end
  end
  if not extends then expect_eq(after.current_streak, 0, c.day.result .. " ends the streak") end
  expect_true(after.longest_streak >= c.streak.longest_streak, "the longest streak never shrinks")
  expect_true(after.longest_streak >= after.current_streak, "the longest streak is never below the current one")
  return true
end

-- habit-tracker-data-model.md §5.1: a streak is "the count of consecutive measurement periods", so
-- over the histories and task kinds validation proves habit.streak over (under the rule set's own
-- params) it is never negative and never more than the periods given, plus the task's window
-- (`task.window`: for "N times in D days", D - 1) after today and before the first period
-- (loop-habits counts a satisfied window's days on both sides).
function prop_a_habit_streak_counts_at_most_the_periods_given(c)
  local out = streaks.habit.streak(c.periods, c.task, c.user)
  local limit = #c.periods + 2 * c.task.window
  expect_true(out.current >= 0 and out.current <= limit, out.current .. " of " .. #c.periods .. " periods")
  return true
end
