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

  -- Earned (optional; without it the user does not use Earned). Set up on the first day, just
  -- after Earned's day starts (04:00): the distracting apps, the modes and habits, the QR key.
  earned = {
    share = 0.6,                     -- the share of these users who use Earned (drawn per user)
    -- The "Distracting Apps" (AppIds: android:<package> or iosToken:<token>); urges open them.
    apps = { "android:com.instagram.android", "android:com.google.android.youtube" },
    -- Modes: name, strictness (GENTLE, STRICT, HARD), priority (the highest in force wins), weekly
    -- windows (ISO weekdays 1 = Monday … 7, local times; a `to` before `from` crosses midnight),
    -- optional blocked_apps (default: the distracting apps).
    modes = {
      { name = "work", strictness = "STRICT", priority = 1,
        windows = { { days = { 1, 2, 3, 4, 5 }, from = "09:00", to = "17:00" } } },
      { name = "night", strictness = "HARD",
        windows = { { days = { 1, 2, 3, 4, 5, 6, 7 }, from = "22:30", to = "06:30" } } },
    },
    qr_key = 0.6,                    -- probability of setting a QR key (QR_SCAN quests need one)
    -- Earned habits: reward_credits (0–100; default: the rules'), completed on a day with `rate`.
    habits = {
      { name = "stretch", reward_credits = 5, rate = 0.8 },
      { name = "read", reward_credits = 5, rate = 0.6 },
    },
    habits_together = 0,             -- probability of logging the day's habits all at once
    -- Focus sessions a day (the fraction is a chance of one more), the planned lengths picked from,
    -- the probability of ending one early, the hours they start in, strict (STRICT) or gentle.
    focus = { sessions_per_day = 1.5, minutes = { 25, 50 }, quit_early = 0.1, hours = { 8, 20 }, strict = true },
    -- Urges to open a distracting app a day, between these hours (05–23). A blocked app opens
    -- the unlock gate; an app a grant unlocked is simply used.
    urges = { per_day = 4, hours = { 7, 23 } },
    -- At the gate (reading the options it offers): the probabilities of wanting credits, a quest,
    -- an emergency unlock (the rest: giving up), and the credit lengths and quest types in order of
    -- preference. When the one it wants is disabled it takes its next enabled one, or another kind
    -- by the same weights — except with probability `insist`, when it picks it anyway and is
    -- denied (then it opens the gate again and chooses without insisting).
    gate = {
      credits = 0.55, quest = 0.35, emergency = 0.02,
      credit_minutes = { 15, 5 },
      quest_types = { "QR_SCAN", "BREATHING" },
      insist = 0.03,
    },
    -- A started quest is completed, failed or cancelled with these probabilities, this many minutes
    -- after it started (uniform); the rest are left to expire.
    quest = { complete = 0.9, fail = 0.04, cancel = 0.02, minutes = { 1, 4 } },
  },
}
