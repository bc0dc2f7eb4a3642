-- Unit tests of examples/surge-pricing/pricing.lua (rulesrun test examples/surge-pricing).
-- The figures are those of the file's header; the table's are A4.1 credit_costs (10/25/45).

local function prices(unlocks_today)
  local out = {}
  for _, minutes in ipairs({ 5, 15, 30 }) do
    out[#out + 1] = pricing.price({ minutes = minutes, unlocks_today = unlocks_today })
  end
  return out
end

-- "10/25/45 credits at the first unlock of the day, 15/37/67 at the second, 20/50/90 at the third".
function test_each_unlock_adds_half_the_price()
  expect_eq(prices(0), { 10, 25, 45 })
  expect_eq(prices(1), { 15, 37, 67 })
  expect_eq(prices(2), { 20, 50, 90 })
end

-- "up to three times the table's price from the fifth unlock on".
function test_the_price_stops_at_three_times()
  expect_eq(prices(4), { 30, 75, 135 })
  expect_eq(prices(9), { 30, 75, 135 })
end

function test_an_unknown_length_is_an_error()
  expect_error(function() pricing.price({ minutes = 10, unlocks_today = 0 }) end, "no unlock of 10 minutes")
end
