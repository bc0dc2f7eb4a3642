-- Earned v1.1: what unlocks cost, how credits are earned, and what carries over at the day
-- boundary (../shared/seeds/earned-data-model-v1.1.md). Pure functions: read-only tables in,
-- a value out. Where the document is silent, the decision is written next to the knob.

local M = {}

-- A4.1 settings_json.credit_costs: "minutes_5": 10, "minutes_15": 25, "minutes_30": 45.
-- "credit costs must be strictly increasing" (checked by the host).
M.credit_costs = {
  { minutes = 5, credits = 10 },
  { minutes = 15, credits = 25 },
  { minutes = 30, credits = 45 },
}

-- economy_state.rollover_cap DEFAULT 10: at the day boundary the balance carried into the new day
-- is at most this (DAY_ROLLOVER "carried_credits").
M.rollover_cap = 10

-- The rollover happens at the start of Earned's day: streaks.lua earned.day_starts_at (04:00).

M.focus = {
  -- A4.1 focus.preset_minutes.
  preset_minutes = { 25, 50, 75 },
  -- A4.1 focus.min_minutes_to_qualify: a session counts (credits, streak) from 20 minutes.
  min_minutes_to_qualify = 20,
  -- Decision (the document gives no rate): 1 credit per 5 completed minutes of a qualifying
  -- session (25 min: 5, 50 min: 10, 75 min: 15); a session ended early earns for the minutes done.
  minutes_per_credit = 5,
}

M.habits = {
  -- habit.reward_credits DEFAULT 5, CHECK (reward_credits BETWEEN 0 AND 100).
  default_reward_credits = 5,
  -- HABIT_AWARD_SUSPENDED {"reason": "TOO_MANY_COMPLETIONS_IN_WINDOW"}. Decision (no numbers in the
  -- document): more than 6 habit completions within 60 minutes suspends habit awards until the
  -- next day (the completions are still recorded, with award_suspended = 1).
  suspension = { max_completions = 6, window_minutes = 60, suspend_days = 1 },
}

--- The price in credits of an unlock of `ctx.minutes` minutes, in the situation of `ctx` (the gate
--- offers every length of credit_costs, each priced by this function when the gate opens; the
--- attempt's A4.2 snapshot records these prices and a CREDITS choice is charged them). The host
--- checks every answer: an integer, 0…10000, strictly increasing with the length in the same
--- situation. Default: today's table, whatever the situation.
---@param ctx { minutes: integer, app: string, unlocks_today: integer, unlocks_today_app: integer, hour: integer, minute: integer, weekday: integer, mode: string?, strictness: string, streak: integer, balance: integer }
---@return integer
function M.price(ctx)
  for _, cost in ipairs(M.credit_costs) do
    if cost.minutes == ctx.minutes then return cost.credits end
  end
  error("no unlock of " .. ctx.minutes .. " minutes in credit_costs")
end

--- Credits for a focus session that ended.
---@param session { actual_minutes: integer, planned_minutes: integer, completed: boolean, ended_early: boolean }
---@return integer
function M.focus_credits(session)
  if session.actual_minutes < M.focus.min_minutes_to_qualify then return 0 end
  return session.actual_minutes // M.focus.minutes_per_credit
end

--- The credits carried from one day into the next.
---@param balance integer
---@return integer
function M.carried_credits(balance)
  return math.min(balance, M.rollover_cap)
end

--- The award for one habit completion, given how many completions came in the suspension window
--- before it (this one excluded).
---@param completion { reward_credits: integer, completions_in_window: integer }
---@return { credits: integer, suspend: boolean }
function M.habit_award(completion)
  if completion.completions_in_window + 1 > M.habits.suspension.max_completions then
    return { credits = 0, suspend = true }
  end
  return { credits = completion.reward_credits, suspend = false }
end

return M
