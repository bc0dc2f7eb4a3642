-- Earned v1.1 modes: which mode is in force at an instant, and so how strict the unlock gate is
-- (../shared/seeds/earned-data-model-v1.1.md: mode, mode_window, manual override). The host
-- passes local times; these functions decide.

local M = {}

-- mode_window.days_of_week_mask "BETWEEN 0 AND 127". Decision (the document gives only the
-- range): bit 0 is Monday … bit 6 is Sunday, the ISO weekday order (fixed, not a knob).

-- Decision: a window that ends at its start (09:00–09:00) covers the whole day; one that ends
-- before its start crosses midnight and belongs to the day it starts on.
M.equal_bounds_mean_all_day = true

-- Decision: among the modes in force the highest priority wins; at equal priority the strictest
-- (HARD > STRICT > GENTLE); then the first in the list (the host lists them by mode_id).
M.strictness_rank = { GENTLE = 1, STRICT = 2, HARD = 3 }

local function has_day(mask, weekday)
  return (mask >> (weekday - 1)) & 1 == 1
end

--- Whether a window is open at a local time.
---@param window { days_mask: integer, start_minutes: integer, end_minutes: integer }
---@param now { weekday: integer, minutes: integer } ISO weekday 1–7, minutes after local midnight
---@return boolean
function M.window_active(window, now)
  local s, e, m = window.start_minutes, window.end_minutes, now.minutes
  local previous = now.weekday == 1 and 7 or now.weekday - 1
  if s < e then
    return has_day(window.days_mask, now.weekday) and m >= s and m < e
  elseif s > e then -- crosses midnight
    return (has_day(window.days_mask, now.weekday) and m >= s) or (has_day(window.days_mask, previous) and m < e)
  else
    return M.equal_bounds_mean_all_day and has_day(window.days_mask, now.weekday)
  end
end

--- Whether a mode is in force: a manual override in force decides (FORCED_ON: yes, FORCED_OFF:
--- no); otherwise (AUTO, or an override that expired) any of its windows.
---@param mode { manual_state: "AUTO"|"FORCED_ON"|"FORCED_OFF", override_in_force: boolean, windows: table[] }
---@param now { weekday: integer, minutes: integer }
---@return boolean
function M.mode_active(mode, now)
  if mode.override_in_force and mode.manual_state == "FORCED_ON" then return true end
  if mode.override_in_force and mode.manual_state == "FORCED_OFF" then return false end
  for _, window in ipairs(mode.windows) do
    if M.window_active(window, now) then return true end
  end
  return false
end

--- The mode in force (its position in `modes`), or nil when none is.
---@param modes EarnedMode[]
---@param now { weekday: integer, minutes: integer }
---@return integer|nil
function M.effective_mode(modes, now)
  local best
  for i, mode in ipairs(modes) do
    if M.mode_active(mode, now) then
      if best == nil then
        best = i
      else
        local b = modes[best]
        if mode.priority > b.priority
          or (mode.priority == b.priority and M.strictness_rank[mode.strictness] > M.strictness_rank[b.strictness]) then
          best = i
        end
      end
    end
  end
  return best
end

return M
