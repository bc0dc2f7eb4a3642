-- Unit tests of examples/strict-quests/quests.lua (rulesrun test examples/strict-quests).
-- The figures are those of the file's header: "one quest unlock per app a day and a 60-minute
-- cooldown (v1.1 fixes 2 and 15 …), and quests only in GENTLE mode"; the reasons are A4.2's
-- (../shared/seeds/earned-data-model-v1.1.md).

local function gate(fields)
  local g = { strictness = "GENTLE", quest_unlocks_today = 0, quest_type = "BREATHING", qr_key_set = false }
  for k, v in pairs(fields) do g[k] = v end
  return g
end

function test_the_set_is_experimental()
  expect_eq(quests.spec_version, "experimental")
end

-- "one quest unlock per app a day".
function test_one_quest_unlock_per_app_a_day()
  expect_eq(quests.quest_blocked(gate({})), nil)
  expect_eq(quests.quest_blocked(gate({ quest_unlocks_today = 1 })), "DAILY_LIMIT_REACHED")
end

-- "a 60-minute cooldown".
function test_sixty_minutes_cooldown()
  expect_eq(quests.quest_blocked(gate({ minutes_since_last_quest_unlock = 59 })), "COOLDOWN_ACTIVE")
  expect_eq(quests.quest_blocked(gate({ minutes_since_last_quest_unlock = 60 })), nil)
end

-- "quests only in GENTLE mode": STRICT gives A4.2's one strictness reason, as HARD does.
function test_quests_only_in_gentle_mode()
  expect_eq(quests.quest_blocked(gate({ strictness = "STRICT" })), "DISALLOWED_IN_HARD_MODE")
  expect_eq(quests.quest_blocked(gate({ strictness = "HARD" })), "DISALLOWED_IN_HARD_MODE")
end
