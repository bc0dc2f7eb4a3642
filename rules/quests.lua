-- Earned v1.1: the unlock gate's other ways in — quests and emergency unlocks
-- (../shared/seeds/earned-data-model-v1.1.md, A4.1 settings_json, A4.2 options snapshot).

local M = {}

-- The specification these values follow. "1.1" makes the host enforce the document's fixed
-- values ("quest unlock_minutes fixed to 5 in v1.1", "quest max/cooldown fixed to 2 and 15 in
-- v1.1", "emergency settings fixed in v1.1"). A rule set that declares "experimental" may change
-- them within sane ranges, to explore a future version; `rulesrun validate` says so.
M.spec_version = "1.1"

M.quest = {
  -- A4.1 quest.enabled_types.
  enabled_types = { "BREATHING", "COPY_TEXT", "QR_SCAN" },
  -- A4.1 quest.unlock_minutes (fixed to 5 in v1.1).
  unlock_minutes = 5,
  -- A4.1 quest.max_quest_unlocks_per_app_per_day (fixed to 2 in v1.1). Failed, cancelled and
  -- expired quests never count toward it; only granted quest unlocks do.
  max_unlocks_per_app_per_day = 2,
  -- A4.1 quest.cooldown_minutes_per_app (fixed to 15 in v1.1): after a quest unlock of an app.
  cooldown_minutes_per_app = 15,
  -- A QR_SCAN quest needs the QR key to be set (disabled reason QR_KEY_NOT_SET).
  qr_requires_key = true,
  -- A4.2: quests are DISALLOWED_IN_HARD_MODE.
  allowed_in = { GENTLE = true, STRICT = true, HARD = false },
  -- A4.1 quest.key_change_cooldown_hours_strict.
  key_change_cooldown_hours_strict = 24,
  -- Decision: quest_session has an expires_ts_utc_ms but the document gives no duration; a quest
  -- EXPIRES 10 minutes after it starts (QUEST_EXPIRED; the attempt is then EXPIRED too).
  session_minutes = 10,
}

M.gate = {
  -- Decision: the document has an EXPIRED attempt outcome but no timeout. Part B routes the user
  -- to the gate only when the block is "recent (e.g., within 10 minutes)"; an attempt left without
  -- a choice EXPIRES 10 minutes after the gate opened (or when the gate opens again for the app).
  expires_after_minutes = 10,
}

-- A8 data retention: how long the records of the gate and the event log are kept. The cleanup
-- deletes event_log rows older than event_log_days, and unlock_attempt, unlock_grant, quest_session
-- and unlock_grant_extension rows older than unlock_days (day_summary, focus_session and
-- habit_completion are kept for ever). Decisions: daily_app_limits follows unlock_days (A8 is
-- silent on it); a running grant, the attempt behind it and an ACTIVE quest are kept past the
-- period. A8 runs the cleanup "on app start (if last cleanup > 24h)": the engine counts the first
-- event of a user more than cleanup_every_hours after its last cleanup as an app start.
M.retention = {
  event_log_days = 30,
  unlock_days = 30,
  cleanup_every_hours = 24,
}

M.emergency = {
  -- A4.1 emergency (fixed in v1.1).
  daily_limit = 1,
  delay_seconds = 60,
  unlock_minutes = 5,
  -- SAME_APP_CONSECUTIVE_BLOCKED: the same app cannot get two emergency unlocks in a row.
  block_same_app_consecutive = true,
}

--- Whether a quest type can be chosen at the gate, and if not why (an A4.2 disabled reason).
---@param gate QuestGate
---@return string|nil
function M.quest_blocked(gate)
  if not M.quest.allowed_in[gate.strictness] then return "DISALLOWED_IN_HARD_MODE" end
  if gate.quest_unlocks_today >= M.quest.max_unlocks_per_app_per_day then return "DAILY_LIMIT_REACHED" end
  local since = gate.minutes_since_last_quest_unlock
  if since ~= nil and since < M.quest.cooldown_minutes_per_app then return "COOLDOWN_ACTIVE" end
  if gate.quest_type == "QR_SCAN" and M.quest.qr_requires_key and not gate.qr_key_set then return "QR_KEY_NOT_SET" end
  return nil
end

--- Whether an emergency unlock can be chosen, and if not why (an A4.2 disabled reason).
---@param gate { emergency_used_today: integer, same_app_as_last_emergency: boolean }
---@return string|nil
function M.emergency_blocked(gate)
  if gate.emergency_used_today >= M.emergency.daily_limit then return "DAILY_LIMIT_REACHED" end
  if M.emergency.block_same_app_consecutive and gate.same_app_as_last_emergency then
    return "SAME_APP_CONSECUTIVE_BLOCKED"
  end
  return nil
end

return M
