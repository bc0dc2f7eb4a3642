-- The team's own metrics (docs/simulate.md#team-metrics): each is a function of one user's day,
-- computed by simulate, compare and sweep beside the built-in metrics, with intervals.
--
-- d.events and d.decisions are what the apps logged and the engine decided that day (each with
-- its type, its time on the user's clock and its fields, as replay prints them); d.pressure,
-- d.earned and d.habits are the state the engine reports at the end of the day.

-- Between 22:00 and 06:00 on the user's clock.
local function at_night(hour) return hour >= 22 or hour < 6 end

-- The credit unlocks the gate granted that night (and their credits).
local function night_credit_unlocks(d)
  local n, credits = 0, 0
  for _, x in ipairs(d.decisions) do
    if x.type == "unlock" and x.option == "CREDITS_UNLOCK" and x.outcome == "GRANTED" and at_night(x.hour) then
      n = n + 1
      credits = credits + (x.cost_credits or 0)
    end
  end
  return n, credits
end

return {
  {
    id = "night_paid_unlocks",
    label = "unlocks paid 22:00-06:00 per user-day",
    description = "Credit unlocks granted between 22:00 and 06:00, per Earned user-day.",
    app = "earned",
    unit = "per_user_day",
    aggregate = "mean",
    day = function(d)
      local n = night_credit_unlocks(d)
      return n
    end,
  },
  {
    id = "night_payers",
    label = "users who paid for a night unlock",
    app = "earned",
    unit = "share",
    aggregate = "share_of_users",
    day = function(d) return (night_credit_unlocks(d)) > 0 end,
  },
  {
    id = "credits_spent_p90",
    label = "credits spent in a user-day p90",
    app = "earned",
    unit = "credits",
    aggregate = "p90",
    day = function(d)
      local credits = 0
      for _, x in ipairs(d.decisions) do
        if x.type == "unlock" and x.outcome == "GRANTED" then credits = credits + (x.cost_credits or 0) end
      end
      return credits
    end,
  },
  {
    id = "tier_3_days",
    label = "days at tier 3 per Pressure user",
    app = "pressure",
    unit = "days",
    aggregate = "per_user",
    day = function(d) return d.pressure.tier == 3 end,
  },
}
