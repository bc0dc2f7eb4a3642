-- Unit tests of examples/gentle-pricing/pricing.lua (rulesrun test examples/gentle-pricing).
-- The figures are those of the file's header: "cheaper unlocks (5/15/30 minutes for 5/12/20 credits
-- instead of 10/25/45) and a larger rollover cap (20 instead of 10)".

-- The record the engine passes price (records.price_context: the rule set's params at their
-- defaults, so that a folder extending this one with params runs these tests too).
local function unlock(minutes, unlocks_today)
  return records.price_context {
    minutes = minutes, app = "android:com.example.video", unlocks_today = unlocks_today, hour = 14, weekday = 3,
    balance = 50,
  }
end

-- "5/15/30 minutes for 5/12/20 credits", whatever was unlocked before today.
function test_unlocks_cost_5_12_20()
  expect_eq(pricing.price(unlock(5, 0)), 5)
  expect_eq(pricing.price(unlock(15, 0)), 12)
  expect_eq(pricing.price(unlock(30, 0)), 20)
  expect_eq(pricing.price(unlock(15, 3)), 12)
  expect_error(function() pricing.price(unlock(7, 0)) end, "no unlock of 7 minutes")
end

-- "a larger rollover cap (20 instead of 10)".
function test_twenty_credits_carry_over()
  expect_eq(pricing.carried_credits(15), 15)
  expect_eq(pricing.carried_credits(20), 20)
  expect_eq(pricing.carried_credits(37), 20)
end
