-- Earned economy, GENTLER PRICING (examples/gentle-pricing): the default rules with cheaper
-- unlocks (5/15/30 minutes for 5/12/20 credits instead of 10/25/45) and a larger rollover cap (20
-- instead of 10), so that credits saved on a good day last longer. Everything else comes from
-- ../../rules (see `extends`): `base` is that folder's pricing.lua, which this file changes.
local M = base

-- A4.1 credit_costs, still strictly increasing.
M.credit_costs = {
  { minutes = 5, credits = 5 },
  { minutes = 15, credits = 12 },
  { minutes = 30, credits = 20 },
}

-- economy_state.rollover_cap: at most this many credits carry over the 04:00 boundary.
M.rollover_cap = 20

return M
