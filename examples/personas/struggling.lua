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
}
