-- Unit tests of pricing.lua, quests.lua and modes.lua (rulesrun test; docs/testing-rules.md).
-- Figures from ../shared/seeds/earned-data-model-v1.1.md (A4.1 settings_json, A4.2 disabled reasons).

-- The record the engine passes price (records.price_context: the rule set's params at their
-- defaults, so that a folder extending this one with params runs these tests too).
local function unlock(minutes, unlocks_today)
  return records.price_context {
    minutes = minutes, app = "android:com.example.video", unlocks_today = unlocks_today, hour = 14, weekday = 3,
    balance = 50,
  }
end

-- A4.1 credit_costs: "minutes_5": 10, "minutes_15": 25, "minutes_30": 45.
function test_price_is_the_credit_costs_table()
  expect_eq(pricing.price(unlock(5, 0)), 10)
  expect_eq(pricing.price(unlock(15, 0)), 25)
  expect_eq(pricing.price(unlock(30, 0)), 45)
  expect_error(function() pricing.price(unlock(7, 0)) end, "no unlock of 7 minutes")
end

-- The document has one table: the price does not depend on the unlocks already granted today.
function test_price_is_the_same_all_day()
  expect_eq(pricing.price(unlock(15, 3)), 25)
end

-- A4.1 focus.min_minutes_to_qualify = 20; 1 credit per 5 minutes (pricing.lua's decision).
function test_focus_credits()
  expect_eq(pricing.focus_credits({ actual_minutes = 19 }), 0)
  expect_eq(pricing.focus_credits({ actual_minutes = 25 }), 5)
  expect_eq(pricing.focus_credits({ actual_minutes = 50 }), 10)
  expect_eq(pricing.focus_credits({ actual_minutes = 77 }), 15)
end

-- economy_state.rollover_cap DEFAULT 10.
function test_carried_credits()
  expect_eq(pricing.carried_credits(4), 4)
  expect_eq(pricing.carried_credits(10), 10)
  expect_eq(pricing.carried_credits(37), 10)
end

-- habit.reward_credits DEFAULT 5; the 7th completion within 60 minutes is suspended (pricing.lua's decision).
function test_habit_award()
  expect_eq(pricing.habit_award({ reward_credits = 5, completions_in_window = 5 }), { credits = 5, suspend = false })
  expect_eq(pricing.habit_award({ reward_credits = 5, completions_in_window = 6 }), { credits = 0, suspend = true })
end

local function gate(fields)
  local g = { strictness = "GENTLE", quest_unlocks_today = 0, quest_type = "BREATHING", qr_key_set = false }
  for k, v in pairs(fields) do g[k] = v end
  return g
end

-- A4.2: DISALLOWED_IN_HARD_MODE; max 2 quest unlocks per app per day; 15 minutes cooldown; QR_KEY_NOT_SET.
function test_quest_blocked()
  expect_eq(quests.quest_blocked(gate({})), nil)
  expect_eq(quests.quest_blocked(gate({ strictness = "HARD" })), "DISALLOWED_IN_HARD_MODE")
  expect_eq(quests.quest_blocked(gate({ quest_unlocks_today = 2 })), "DAILY_LIMIT_REACHED")
  expect_eq(quests.quest_blocked(gate({ minutes_since_last_quest_unlock = 14 })), "COOLDOWN_ACTIVE")
  expect_eq(quests.quest_blocked(gate({ minutes_since_last_quest_unlock = 15 })), nil)
  expect_eq(quests.quest_blocked(gate({ quest_type = "QR_SCAN" })), "QR_KEY_NOT_SET")
  expect_eq(quests.quest_blocked(gate({ quest_type = "QR_SCAN", qr_key_set = true })), nil)
end

-- A4.1 emergency.daily_limit = 1; SAME_APP_CONSECUTIVE_BLOCKED.
function test_emergency_blocked()
  expect_eq(quests.emergency_blocked({ emergency_used_today = 0, same_app_as_last_emergency = false }), nil)
  expect_eq(quests.emergency_blocked({ emergency_used_today = 1, same_app_as_last_emergency = false }), "DAILY_LIMIT_REACHED")
  expect_eq(quests.emergency_blocked({ emergency_used_today = 0, same_app_as_last_emergency = true }), "SAME_APP_CONSECUTIVE_BLOCKED")
end

-- mode_window.days_of_week_mask: bit 0 Monday … bit 6 Sunday (modes.lua's decision).
local WEEKDAYS = 31 -- Monday to Friday

function test_window_active()
  local day = { days_mask = WEEKDAYS, start_minutes = 9 * 60, end_minutes = 17 * 60 }
  expect_eq(modes.window_active(day, { weekday = 1, minutes = 9 * 60 }), true)
  expect_eq(modes.window_active(day, { weekday = 1, minutes = 17 * 60 }), false)
  expect_eq(modes.window_active(day, { weekday = 6, minutes = 10 * 60 }), false)
  -- Crossing midnight: 22:00–06:00 belongs to the day it starts on (Friday night reaches Saturday morning).
  local night = { days_mask = WEEKDAYS, start_minutes = 22 * 60, end_minutes = 6 * 60 }
  expect_eq(modes.window_active(night, { weekday = 5, minutes = 23 * 60 }), true)
  expect_eq(modes.window_active(night, { weekday = 6, minutes = 5 * 60 }), true)
  expect_eq(modes.window_active(night, { weekday = 1, minutes = 5 * 60 }), false)
  -- Equal bounds: the whole day.
  local all_day = { days_mask = WEEKDAYS, start_minutes = 540, end_minutes = 540 }
  expect_eq(modes.window_active(all_day, { weekday = 3, minutes = 0 }), true)
  expect_eq(modes.window_active(all_day, { weekday = 7, minutes = 0 }), false)
end

local function mode(strictness, priority, manual_state, override_in_force)
  return {
    strictness = strictness, priority = priority, manual_state = manual_state or "AUTO",
    override_in_force = override_in_force or false,
    windows = { { days_mask = 127, start_minutes = 0, end_minutes = 0 } },
  }
end

function test_mode_active_and_overrides()
  local now = { weekday = 2, minutes = 600 }
  expect_eq(modes.mode_active(mode("GENTLE", 0), now), true)
  expect_eq(modes.mode_active(mode("GENTLE", 0, "FORCED_OFF", true), now), false)
  expect_eq(modes.mode_active(mode("GENTLE", 0, "FORCED_OFF", false), now), true)  -- an expired override
  local closed = mode("GENTLE", 0, "FORCED_ON", true)
  closed.windows = {}
  expect_eq(modes.mode_active(closed, now), true)
  closed.override_in_force = false
  expect_eq(modes.mode_active(closed, now), false)
end

-- The highest priority wins; at equal priority the strictest; then the first listed.
function test_effective_mode()
  local now = { weekday = 2, minutes = 600 }
  expect_eq(modes.effective_mode({}, now), nil)
  expect_eq(modes.effective_mode({ mode("HARD", 1), mode("GENTLE", 2) }, now), 2)
  expect_eq(modes.effective_mode({ mode("GENTLE", 1), mode("STRICT", 1) }, now), 2)
  expect_eq(modes.effective_mode({ mode("STRICT", 1), mode("STRICT", 1) }, now), 1)
end

-- A mode not in force is passed over whatever its priority (A2: a FORCED_OFF override in force
-- turns the mode off; the modes table's priority orders only the modes in force).
function test_effective_mode_passes_over_a_mode_not_in_force()
  local now = { weekday = 2, minutes = 600 }
  expect_eq(modes.effective_mode({ mode("HARD", 5, "FORCED_OFF", true), mode("GENTLE", 1) }, now), 2)
  expect_eq(modes.effective_mode({ mode("HARD", 5, "FORCED_OFF", true) }, now), nil)
end
