-- Pressure escalation, GRADUATED RECOVERY reading (examples/graduated-recovery).
--
-- The same as rules/escalation.lua (`base`, see `extends`) except for recovery, which follows the
-- document's tier table and diagram instead of its pseudo-code: YES days step the tier down one at
-- a time. Tier 3 needs recover_after[3] = 3 YES days to drop to tier 2, then recover_after[2] = 2
-- more to drop to tier 1, then recover_after[1] = 1 more to reach tier 0 ("3 consecutive YES →
-- drops to Tier 2; then 2 more → Tier 1; then 1 → Tier 0").
--
-- `rulesrun compare rules examples/graduated-recovery` shows where the two readings part.
local M = base
local pseudo_code = M.transition

--- The new escalation state after one day's check-in.
---@param state { current_tier: integer, consecutive_misses: integer, consecutive_successes: integer }
---@param check_in { result: "YES"|"NO"|"MISSED" }
---@return { current_tier: integer, consecutive_misses: integer, consecutive_successes: integer }
function M.transition(state, check_in)
  if check_in.result ~= "YES" then return pseudo_code(state, check_in) end
  local tier = state.current_tier
  local successes = state.consecutive_successes + 1
  local needed = M.recover_after[tier]
  if tier > 0 and needed and successes >= needed then
    tier = tier - 1 -- graduated: one tier down, and count the YES days of the new tier afresh
    successes = 0
  end
  return { current_tier = tier, consecutive_misses = 0, consecutive_successes = successes }
end

return M
