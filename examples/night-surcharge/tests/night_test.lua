-- Unit tests of examples/night-surcharge/pricing.lua (rulesrun test examples/night-surcharge).
-- The figures are those of the file's header; the table's are A4.1 credit_costs (10/25/45).

local function prices(hour, surcharge)
  local out = {}
  for _, minutes in ipairs({ 5, 15, 30 }) do
    out[#out + 1] = pricing.price({ minutes = minutes, hour = hour, params = { night_surcharge = surcharge } })
  end
  return out
end

-- "10/25/45 credits by day, 15/37/67 by night at the default 50 %".
function test_the_night_costs_half_more()
  expect_eq(prices(12, 50), { 10, 25, 45 })
  expect_eq(prices(21, 50), { 10, 25, 45 })
  expect_eq(prices(22, 50), { 15, 37, 67 })
  expect_eq(prices(5, 50), { 15, 37, 67 })
  expect_eq(prices(6, 50), { 10, 25, 45 })
end

function test_the_surcharge_is_a_param()
  expect_eq(prices(23, 0), { 10, 25, 45 })
  expect_eq(prices(23, 150), { 25, 62, 112 })
  expect_eq(pricing.params.night_surcharge.default, 50)
end

function test_an_unknown_length_is_an_error()
  expect_error(function() pricing.price({ minutes = 10, hour = 12, params = { night_surcharge = 50 } }) end, "no unlock of 10 minutes")
end
