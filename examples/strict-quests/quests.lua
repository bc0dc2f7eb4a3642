-- Earned quests, STRICTER QUESTS (examples/strict-quests): one quest unlock per app a day and a
-- 60-minute cooldown (v1.1 fixes 2 and 15, so this set declares spec_version = "experimental"),
-- and quests only in GENTLE mode. Everything else comes from ../../rules (see `extends`): `base`
-- is that folder's quests.lua, which this file changes.
local M = base

M.spec_version = "experimental"
M.quest.max_unlocks_per_app_per_day = 1
M.quest.cooldown_minutes_per_app = 60
-- A4.2 has one disabled reason for a strictness that allows no quests, DISALLOWED_IN_HARD_MODE;
-- quest_blocked gives it in STRICT mode too.
M.quest.allowed_in = { GENTLE = true, STRICT = false, HARD = false }

return M
