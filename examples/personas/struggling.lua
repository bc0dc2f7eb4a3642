-- struggling: commits most days but often fails or forgets to check in; escalates to tiers 2–3
-- and reacts to reminders more as the tier rises.
return {
  description = "Commits most days but often fails or forgets to check in; reminders help, more so at high tiers.",
  settings = { timezone = "America/New_York", commitment_deadline = "10:00", checkin_window_close = "23:00" },
  paid_share = 0.2,
  commit = 0.8,
  commit_lead_minutes = { 5, 90 },
  first_look_minutes = { 480, 780 },
  answer = { yes = 0.35, no = 0.25 },
  reminder_response = { 0.2, 0.3, 0.4, 0.5 },   -- pressure works, a little
  reminder_yes_share = 0.5,
  lost_streak = { min_streak = 2, days = 5, commit = -0.15, yes = -0.1 },
  shield = 0.5,
  habits = {
    { task = "read", rate = 0.4 },
    { task = "water", rate = 0.5, times_per_day = 2 },
  },
  miga = { opens_per_day = 4, exit = 0.15, deepen = 0.15 },

  -- Earned: urges all day long, little focus (often quit before it counts), and a list of small
  -- habits it often ticks off all at once in the evening to farm credits (which the rules'
  -- suspension catches). At the gate it wants long unlocks it cannot afford, and insists.
  earned = {
    share = 0.5,
    apps = { "iosToken:tiktok", "iosToken:instagram", "iosToken:youtube", "iosToken:reddit" },
    modes = {
      { name = "study", strictness = "GENTLE", windows = { { days = { 1, 2, 3, 4, 5 }, from = "10:00", to = "18:00" } } },
    },
    habits = {
      { name = "water", reward_credits = 2, rate = 0.85 },
      { name = "bed", reward_credits = 2, rate = 0.85 },
      { name = "teeth", reward_credits = 2, rate = 0.9 },
      { name = "vitamins", reward_credits = 2, rate = 0.8 },
      { name = "plants", reward_credits = 2, rate = 0.8 },
      { name = "inbox", reward_credits = 2, rate = 0.8 },
      { name = "walk", reward_credits = 2, rate = 0.8 },
    },
    habits_together = 0.5,
    focus = { sessions_per_day = 0.6, minutes = { 25 }, quit_early = 0.45, hours = { 10, 21 } },
    urges = { per_day = 7, hours = { 9, 23 } },
    gate = {
      credits = 0.35, quest = 0.25, emergency = 0.15,
      credit_minutes = { 30, 15, 5 },
      quest_types = { "COPY_TEXT", "BREATHING" },
      insist = 0.15,
    },
    quest = { complete = 0.6, fail = 0.2, cancel = 0.1, minutes = { 1, 6 } },
  },
}
