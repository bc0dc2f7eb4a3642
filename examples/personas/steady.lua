-- steady: sets a commitment nearly every day and usually keeps it. The benchmark of a healthy
-- user: mostly tier 0, long streaks, one reminder a day.
--
-- Every probability is between 0 and 1; `rulesrun simulate --persona steady` validates the file
-- like a rule file (unknown fields, types and ranges, with file:line).
return {
  description = "Sets a commitment nearly every day and usually keeps it.",

  -- The app settings the user picks on its first day (Pressure's defaults but for the time zone).
  settings = {
    timezone = "Europe/Paris",
    commitment_deadline = "09:00",   -- 06:00–12:00, 30-minute steps
    checkin_window_close = "22:00",  -- 18:00–23:30 in 30-minute steps, or 23:59
    notifications_enabled = true,    -- reminders are only sent (and logged) when true
    personality_mode = "PROFESSIONAL",
  },

  paid_share = 0.3,                  -- share of these users on the paid plan (one restart shield a month)

  commit = 0.95,                     -- probability of setting a commitment before the deadline
  commit_lead_minutes = { 20, 120 }, -- set this many minutes before the deadline (uniform)

  -- The first look at the open check-in window, this many minutes after it opens (uniform):
  first_look_minutes = { 300, 720 },
  answer = { yes = 0.85, no = 0.07 }, -- then YES, NO, or (the rest) no answer yet

  -- Each reminder the engine sends (the rules decide how many, by tier) is another chance to
  -- answer: the probability that a reminder gets an answer, by the tier of the day (0, 1, 2, 3),
  -- and the share of YES among those answers.
  reminder_response = { 0.6, 0.7, 0.75, 0.8 },
  reminder_yes_share = 0.8,

  -- After losing a streak of at least `min_streak` days, for `days` days: these are added to the
  -- probabilities of committing and of answering YES.
  lost_streak = { min_streak = 5, days = 3, commit = -0.05, yes = -0.05 },

  shield = 0.9,                      -- a paid user with a shield left uses it after a NO or a miss

  -- Habit tasks (defined on the first day) and the probability of each daily completion.
  habits = {
    { task = "meditate", rate = 0.85 },
  },

  -- MIGA: guarded-app opens per day (the fraction is a chance of one more); at the gateway the
  -- user exits to focus or deepens the pause with these probabilities, else proceeds to the app.
  miga = { opens_per_day = 1.5, exit = 0.45, deepen = 0.2 },
}
