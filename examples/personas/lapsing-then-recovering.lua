-- lapsing-then-recovering: a good first week, a lapse in the second (commits rarely, answers
-- less), then a recovery that grows stronger with the tier (the app's pressure brings it back).
-- Shows the `day(d)` function: called once per user-day, it returns overrides of the day's
-- probabilities (or nil to keep the file's).
return {
  description = "Good first week, lapses in the second, then recovers as the tier rises.",
  settings = { timezone = "Europe/London", commitment_deadline = "08:30", checkin_window_close = "21:30" },
  paid_share = 0.25,
  commit = 0.9,
  commit_lead_minutes = { 10, 100 },
  first_look_minutes = { 240, 700 },
  answer = { yes = 0.75, no = 0.1 },
  reminder_response = { 0.4, 0.5, 0.6, 0.7 },
  reminder_yes_share = 0.7,
  lost_streak = { min_streak = 3, days = 4, commit = -0.1, yes = -0.1 },
  shield = 0.6,
  habits = { { task = "stretch", rate = 0.7 } },
  miga = { opens_per_day = 2, exit = 0.3, deepen = 0.2 },

  -- d = { day = 1…, date = "YYYY-MM-DD", weekday = 1 (Monday)…7, tier = 0…3, current_streak,
  --       longest_streak, days_since_streak_lost (nil if none yet), paid }
  -- Returns any of: commit, yes, no (probabilities), habit_scale (multiplies habit rates),
  -- miga_opens (replaces miga.opens_per_day).
  day = function(d)
    if d.day >= 8 and d.day <= 14 then
      return { commit = 0.35, yes = 0.3, no = 0.2, habit_scale = 0.3, miga_opens = 5 }
    elseif d.day > 14 then
      -- recovery: the higher the tier, the more the user engages
      return { commit = math.min(0.95, 0.7 + 0.08 * d.tier), yes = math.min(0.9, 0.6 + 0.08 * d.tier) }
    end
    return nil
  end,
}
