-- Properties of the default rules (rulesrun test; docs/testing-rules.md, "Properties"): each
-- prop_ function gets cases drawn by the generator its entry in `cases` names, and returns true.

cases = {
  prop_transition_never_counts_misses_and_successes_at_once = gen.record {
    state = gen.escalation_state(), check_in = gen.check_in(),
  },
  prop_reminders_fall_inside_the_window = gen.record { tier = gen.int(0, 3), window = gen.window() },
  prop_tier_stays_within_0_to_3 = gen.history("pressure", { days = 7 }),
  prop_credit_balance_never_negative = gen.history("earned"),
  prop_habit_streaks_never_negative = gen.history("habits", { days = 7 }),
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
