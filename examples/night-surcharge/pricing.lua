-- Earned economy, A NIGHT SURCHARGE (examples/night-surcharge): the default rules, except that an
-- unlock asked for between 22:00 and 06:00 (on the user's clock) costs `night_surcharge` percent
-- more than the table's price (5/15/30 minutes for 10/25/45 credits by day, 15/37/67 by night at
-- the default 50 %). The price is rounded down, so it stays an integer and strictly increasing
-- with the length (the host checks both, and validation proves them over every hour and every
-- value of the param). Everything else comes from ../../rules (see `extends`): `base` is that
-- folder's pricing.lua, which this file changes. metrics.lua measures what the night price does.
local M = base

M.params = {
  night_surcharge = {
    type = "integer", min = 0, max = 200, default = 50,
    doc = "percent added to an unlock's price between 22:00 and 06:00",
  },
}

--- The table's price of `ctx.minutes`, raised at night.
---@param ctx { minutes: integer, hour: integer, params: { night_surcharge: integer } }
---@return integer
function M.price(ctx)
  local credits
  for _, cost in ipairs(M.credit_costs) do
    if cost.minutes == ctx.minutes then credits = cost.credits end
  end
  if credits == nil then error("no unlock of " .. ctx.minutes .. " minutes in credit_costs") end
  if ctx.hour >= 22 or ctx.hour < 6 then return credits * (100 + ctx.params.night_surcharge) // 100 end
  return credits
end

return M
