-- focus-user: a user of a focus app (Earned) and of its habit tracker, nothing else: no Pressure
-- commitments, no MIGA gateway. A cohort of these has no tiers, check-ins nor reminders: the
-- reports show the habit tracker's and Earned's figures only.
--   rulesrun simulate 30d --persona focus-user
return {
  description = "Uses a focus app that sells unlocks for credits, and its habit tracker.",
  -- The apps its users use: "pressure", "habits", "miga", "earned". Without `apps`, a persona uses
  -- the apps whose sections it has (Pressure: commit and answer).
  apps = { "habits", "earned" },
  settings = { timezone = "Europe/Berlin" },

  habits = {
    { task = "journal", rate = 0.7 },
  },

  earned = {
    share = 1,
    apps = { "android:com.instagram.android", "android:com.zhiliaoapp.musically" },
    modes = {
      { name = "work", strictness = "STRICT", priority = 1,
        windows = { { days = { 1, 2, 3, 4, 5 }, from = "09:00", to = "18:00" } } },
      { name = "night", strictness = "GENTLE",
        windows = { { days = { 1, 2, 3, 4, 5, 6, 7 }, from = "22:00", to = "06:00" } } },
    },
    qr_key = 0.5,
    habits = {
      { name = "walk", reward_credits = 10, rate = 0.6 },
      { name = "read", reward_credits = 5, rate = 0.5 },
    },
    focus = { sessions_per_day = 2, minutes = { 25, 50 }, quit_early = 0.15, hours = { 8, 21 }, strict = false },
    urges = { per_day = 5, hours = { 7, 23 } },
    gate = {
      credits = 0.6, quest = 0.3, emergency = 0.02,
      credit_minutes = { 15, 30, 5 },
      quest_types = { "BREATHING", "QR_SCAN" },
      insist = 0.05,
    },
    quest = { complete = 0.85, fail = 0.05, cancel = 0.05, minutes = { 1, 4 } },
  },
}
