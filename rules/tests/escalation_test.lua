-- Unit tests of escalation.lua (rulesrun test; docs/testing-rules.md).
-- Figures from ../shared/seeds/pressure-escalation-engine.md, "Transition Rules" and
-- "Notification Scheduling".

local function state(tier, misses, successes)
  return { current_tier = tier, consecutive_misses = misses, consecutive_successes = successes }
end

-- "Advancement (escalation)": misses 1, 2, 3 set tiers 1, 2, 3; a 4th miss stays at tier 3.
function test_misses_escalate_one_tier_each()
  expect_eq(escalation.transition(state(0, 0, 0), { result = "NO" }), state(1, 1, 0))
  expect_eq(escalation.transition(state(1, 1, 0), { result = "MISSED" }), state(2, 2, 0))
  expect_eq(escalation.transition(state(2, 2, 0), { result = "NO" }), state(3, 3, 0))
  expect_eq(escalation.transition(state(3, 3, 0), { result = "NO" }), state(3, 4, 0))
end

-- "consecutive_successes = 0" on a miss; the tier follows the misses (a NO after a YES at tier 3: tier 1).
function test_a_miss_resets_the_successes()
  expect_eq(escalation.transition(state(3, 0, 2), { result = "NO" }), state(1, 1, 0))
end

-- "De-escalation (recovery)": tier 1 needs 1 YES, tier 2 needs 2, tier 3 needs 3, then tier 0.
function test_recovery_goes_straight_to_tier_0()
  expect_eq(escalation.transition(state(1, 1, 0), { result = "YES" }), state(0, 0, 0))
  expect_eq(escalation.transition(state(2, 2, 0), { result = "YES" }), state(2, 0, 1))
  expect_eq(escalation.transition(state(2, 0, 1), { result = "YES" }), state(0, 0, 0))
  expect_eq(escalation.transition(state(3, 0, 2), { result = "YES" }), state(0, 0, 0))
end

-- At tier 0 a YES only counts a success.
function test_yes_at_tier_0_counts_a_success()
  expect_eq(escalation.transition(state(0, 0, 4), { result = "YES" }), state(0, 0, 5))
end

-- "Notification Scheduling": window 09:00–21:00, midpoint 15:00.
function test_reminder_times_per_tier()
  local window = { open_minutes = 9 * 60, close_minutes = 21 * 60 }
  expect_eq(escalation.reminder_times(0, window), { "15:00" })
  expect_eq(escalation.reminder_times(1, window), { "15:00", "20:00" })                 -- mid, close - 1 h
  expect_eq(escalation.reminder_times(2, window), { "15:00", "19:00", "20:30" })        -- mid, close - 2 h, close - 30 min
  expect_eq(escalation.reminder_times(3, window), { "15:00", "19:00", "20:30" })
end

-- The midpoint of an odd number of minutes is rounded down (00:00–23:59: 11:59); an unknown tier has none.
function test_reminder_times_edges()
  expect_eq(escalation.reminder_times(0, { open_minutes = 0, close_minutes = 1439 }), { "11:59" })
  expect_eq(escalation.reminder_times(4, { open_minutes = 0, close_minutes = 1439 }), {})
end

-- "Hard Constraints": at most 3 reminders a day, 30 minutes apart.
function test_hard_constraints()
  expect_eq(escalation.max_reminders_per_day, 3)
  expect_eq(escalation.min_reminder_spacing_minutes, 30)
end
