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
  -- Returns any of: commit, yes, no (probabilities), habit_scale (multiplies habit rates, the
  -- habit tracker's and Earned's), miga_opens (replaces miga.opens_per_day), urges and
  -- focus_sessions (replace earned.urges.per_day and earned.focus.sessions_per_day).
  day = function(d)
    if d.day >= 8 and d.day <= 14 then
      return { commit = 0.35, yes = 0.3, no = 0.2, habit_scale = 0.3, miga_opens = 5, urges = 12, focus_sessions = 0.3 }
    elseif d.day > 14 then
      -- recovery: the higher the tier, the more the user engages
      return { commit = math.min(0.95, 0.7 + 0.08 * d.tier), yes = math.min(0.9, 0.6 + 0.08 * d.tier) }
    end
    return nil
  end,

  -- Earned: a steady worker whose lapse week is full of urges and empty of focus (the `day`
  -- function below); it has a QR key only sometimes but prefers QR quests.
  earned = {
    share = 0.5,
    apps = { "android:com.instagram.android", "android:com.twitter.android", "android:com.reddit.frontpage" },
    modes = {
      { name = "work", strictness = "STRICT", priority = 1,
        windows = { { days = { 1, 2, 3, 4, 5 }, from = "09:00", to = "17:30" } } },
      { name = "evening", strictness = "GENTLE", windows = { { days = { 1, 2, 3, 4, 5, 6, 7 }, from = "20:00", to = "23:00" } } },
    },
    qr_key = 0.3,
    habits = { { name = "stretch", rate = 0.7 }, { name = "journal", rate = 0.5 } },
    focus = { sessions_per_day = 1.2, minutes = { 25, 50, 75 }, quit_early = 0.15, hours = { 8, 19 } },
    urges = { per_day = 5, hours = { 7, 23 } },
    gate = {
      credits = 0.45, quest = 0.3, emergency = 0.08,
      credit_minutes = { 5, 15 },
      quest_types = { "QR_SCAN", "BREATHING" },
      insist = 0.08,
    },
    quest = { complete = 0.75, fail = 0.1, cancel = 0.05 },
  },
}
