-- Earned economy, SURGE PRICING (examples/surge-pricing): the default rules, except that an unlock
-- costs more the more unlocks were already granted today, in all apps: each unlock already granted
-- today adds 50 % to the table's price (5/15/30 minutes for 10/25/45 credits at the first unlock
-- of the day, 15/37/67 at the second, 20/50/90 at the third), up to three times the table's price
-- from the fifth unlock on. The price is rounded down, so it stays an integer and strictly
-- increasing with the length (the host checks both, and validation proves them). The gate shows
-- the prices of the moment it opens; the CREDITS choice is charged those.
-- Everything else comes from ../../rules (see `extends`): `base` is that folder's pricing.lua,
-- which this file changes.
local M = base

-- Percent added per unlock already granted today, and the cap (percent of the table's price).
-- (Locals: a rule file's module only holds the fields the host knows.)
local PERCENT_PER_UNLOCK, MAX_PERCENT = 50, 300

--- The table's price of `ctx.minutes`, raised by the day's unlocks so far.
---@param ctx { minutes: integer, unlocks_today: integer }
---@return integer
function M.price(ctx)
  local credits
  for _, cost in ipairs(M.credit_costs) do
    if cost.minutes == ctx.minutes then credits = cost.credits end
  end
  if credits == nil then error("no unlock of " .. ctx.minutes .. " minutes in credit_costs") end
  local percent = math.min(100 + PERCENT_PER_UNLOCK * ctx.unlocks_today, MAX_PERCENT)
  return credits * percent // 100
end

return M
