-- Pressure escalation, A MISS NEVER LOWERS THE TIER (examples/miss-never-lowers-tier).
--
-- The same as rules/escalation.lua except for one case. The document's pseudo-code recomputes the
-- tier from consecutive_misses on every NO or MISSED, so at tier 2 or 3 a single NO after a YES
-- (misses back to 1) sets tier 1. The diagram has no such arrow: a MISS/NO only ever moves up. Here
-- a miss sets the tier to the larger of the current tier and the tier its misses reach.
--
-- `rulesrun compare rules examples/miss-never-lowers-tier` shows where the two readings part.

local M = {}

-- Misses in a row (NO or MISSED) that set each tier. "IF consecutive_misses >= 3: tier 3,
-- ELSE IF == 2: tier 2, ELSE IF == 1: tier 1".
M.tier_for_misses = { 1, 2, 3 }

-- Consecutive YES days needed to leave each tier (tier 1: 1, tier 2: 2, tier 3: 3). The
-- pseudo-code drops straight to tier 0 when they are met.
M.recover_after = { 1, 2, 3 }

-- The highest tier ("Max escalation tier: 3").
M.max_tier = 3

-- Reminders per tier, relative to the check-in window: "mid" is the window's midpoint
-- (window_open + (window_close - window_open) / 2); "close-120" is two hours before the window
-- closes, and so on. Tier 0: midpoint; tier 1: midpoint, close - 1 h; tiers 2 and 3: midpoint,
-- close - 2 h, close - 30 min. Remaining reminders are cancelled once the user checks in.
M.reminders = {
  [0] = { "mid" },
  [1] = { "mid", "close-60" },
  [2] = { "mid", "close-120", "close-30" },
  [3] = { "mid", "close-120", "close-30" },
}

-- Tier 3's badge stays until a YES or NO is submitted ("persistent badge until check-in").
M.persistent_badge_from_tier = 3

-- Hard constraints of the document, checked by the host for every tier and window.
M.max_reminders_per_day = 3        -- "Max notifications per day: 3"
M.min_reminder_spacing_minutes = 30 -- "Min notification spacing: 30 min"

-- The restart shield (paid only): "Restart shields per month (paid): 1", "(free): 0",
-- replenished on the first of the month; it must be activated within 1 hour of the NO check-in
-- ("Shield must be activated within 1 hour of NO check-in"). Decision: a MISSED day can be
-- shielded too, within 1 hour of the miss (the pseudo-code covers "NO or MISSED"). Activating it
-- resets the streak; the shield branch replaces "normal escalation logic", so the tier, the misses
-- and the successes stay as they were before that day's result.
M.shield = {
  per_month_paid = 1,
  per_month_free = 0,
  activation_window_minutes = 60,
}

-- A day with no commitment by the deadline is treated as MISSED ("No commitment set by deadline:
-- Day treated as MISSED; escalation advances").
M.no_commitment_counts_as = "MISSED"

--- The new escalation state after one day's check-in.
---@param state { current_tier: integer, consecutive_misses: integer, consecutive_successes: integer }
---@param check_in { result: "YES"|"NO"|"MISSED" }
---@return { current_tier: integer, consecutive_misses: integer, consecutive_successes: integer }
function M.transition(state, check_in)
  local result = check_in.result
  local tier = state.current_tier
  local misses = state.consecutive_misses
  local successes = state.consecutive_successes
  if result == "YES" then
    successes = successes + 1
    misses = 0
    local needed = M.recover_after[tier]
    if tier > 0 and needed and successes >= needed then
      tier = 0
      successes = 0
    end
  else -- "NO" or "MISSED"
    misses = misses + 1
    successes = 0
    for t = #M.tier_for_misses, 1, -1 do
      if misses >= M.tier_for_misses[t] then
        tier = math.max(tier, math.min(t, M.max_tier)) -- a miss never lowers the tier
        break
      end
    end
  end
  return { current_tier = tier, consecutive_misses = misses, consecutive_successes = successes }
end

--- Local reminder times ("HH:MM") for a tier and a check-in window. The midpoint of an odd number
--- of minutes (a window closing at 23:59) is rounded down to the minute.
---@param tier integer
---@param window { open_minutes: integer, close_minutes: integer }  minutes after local midnight
---@return string[]
function M.reminder_times(tier, window)
  local times = {}
  for _, anchor in ipairs(M.reminders[tier] or {}) do
    local at
    if anchor == "mid" then
      at = window.open_minutes + (window.close_minutes - window.open_minutes) // 2
    else
      local before = tonumber(anchor:match("^close%-(%d+)$"))
      at = window.close_minutes - before
    end
    times[#times + 1] = string.format("%02d:%02d", at // 60, at % 60)
  end
  return times
end

return M
