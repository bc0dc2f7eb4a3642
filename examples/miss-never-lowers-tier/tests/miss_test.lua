-- Unit tests of examples/miss-never-lowers-tier/escalation.lua (rulesrun test examples/miss-never-lowers-tier).
-- ../shared/seeds/pressure-escalation-engine.md's diagram: a MISS/NO only ever moves the tier up.

local function state(tier, misses, successes)
  return { current_tier = tier, consecutive_misses = misses, consecutive_successes = successes }
end

-- At tier 3 after a YES (misses back to 0), a NO keeps tier 3 (the pseudo-code sets tier 1).
function test_a_miss_after_a_yes_keeps_the_tier()
  expect_eq(escalation.transition(state(3, 0, 2), { result = "NO" }), state(3, 1, 0))
  expect_eq(escalation.transition(state(2, 0, 1), { result = "MISSED" }), state(2, 1, 0))
end

-- "Trigger: 1 / 2 / 3+ consecutive MISS or NO": escalation from tier 0 is the document's.
function test_misses_still_escalate_one_tier_each()
  expect_eq(escalation.transition(state(0, 0, 0), { result = "NO" }), state(1, 1, 0))
  expect_eq(escalation.transition(state(1, 1, 0), { result = "MISSED" }), state(2, 2, 0))
  expect_eq(escalation.transition(state(2, 2, 0), { result = "NO" }), state(3, 3, 0))
end

-- Recovery is unchanged: tier 3 needs 3 YES days, then tier 0.
function test_recovery_is_the_defaults()
  expect_eq(escalation.transition(state(3, 0, 2), { result = "YES" }), state(0, 0, 0))
end
