-- Unit tests of examples/graduated-recovery/escalation.lua (rulesrun test examples/graduated-recovery).
-- Figures from ../shared/seeds/pressure-escalation-engine.md, the tiers' "Reset condition" rows.

local function state(tier, misses, successes)
  return { current_tier = tier, consecutive_misses = misses, consecutive_successes = successes }
end

local function yes_days(s, days)
  for _ = 1, days do s = escalation.transition(s, { result = "YES" }) end
  return s
end

-- Tier 3: "3 consecutive YES → drops to Tier 2; then 2 more → Tier 1; then 1 → Tier 0".
function test_tier_3_steps_down_one_tier_at_a_time()
  local s = state(3, 3, 0)
  expect_eq(yes_days(s, 2), state(3, 0, 2), "after 2 YES")
  s = yes_days(s, 3)
  expect_eq(s, state(2, 0, 0), "after 3 YES")
  s = yes_days(s, 2)
  expect_eq(s, state(1, 0, 0), "after 2 more")
  expect_eq(yes_days(s, 1), state(0, 0, 0), "after 1 more")
end

-- Tier 2: "2 consecutive YES → drops to Tier 1; then 1 more YES → Tier 0".
function test_tier_2_drops_to_tier_1_first()
  expect_eq(yes_days(state(2, 2, 0), 2), state(1, 0, 0))
  expect_eq(yes_days(state(2, 2, 0), 3), state(0, 0, 0))
end

-- Tier 1: "1 consecutive YES → drops to Tier 0"; a miss still follows the pseudo-code.
function test_tier_1_and_misses_are_the_defaults()
  expect_eq(yes_days(state(1, 1, 0), 1), state(0, 0, 0))
  expect_eq(escalation.transition(state(2, 0, 1), { result = "NO" }), state(1, 1, 0))
end
