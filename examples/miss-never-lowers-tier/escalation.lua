-- Pressure escalation, A MISS NEVER LOWERS THE TIER (examples/miss-never-lowers-tier).
--
-- The same as rules/escalation.lua (`base`, see `extends`) except for one case. The document's
-- pseudo-code recomputes the tier from consecutive_misses on every NO or MISSED, so at tier 2 or 3
-- a single NO after a YES (misses back to 1) sets tier 1. The diagram has no such arrow: a MISS/NO
-- only ever moves up. Here a miss sets the tier to the larger of the current tier and the tier
-- its misses reach.
--
-- `rulesrun compare rules examples/miss-never-lowers-tier` shows where the two readings part.
local M = base
local pseudo_code = M.transition

--- The new escalation state after one day's check-in.
---@param state { current_tier: integer, consecutive_misses: integer, consecutive_successes: integer }
---@param check_in { result: "YES"|"NO"|"MISSED" }
---@return { current_tier: integer, consecutive_misses: integer, consecutive_successes: integer }
function M.transition(state, check_in)
  local next = pseudo_code(state, check_in)
  if check_in.result ~= "YES" then
    next.current_tier = math.max(state.current_tier, next.current_tier) -- a miss never lowers the tier
  end
  return next
end

return M
