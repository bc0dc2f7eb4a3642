-- weekend-skipper: reliable on weekdays, mostly absent on Saturdays and Sundays (no commitment,
-- so the day is MISSED and the tier rises every Monday).
return {
  description = "Reliable on weekdays, rarely commits on Saturdays and Sundays.",
  settings = { timezone = "Asia/Tokyo", commitment_deadline = "07:30", checkin_window_close = "22:30" },
  paid_share = 0.4,
  commit = 0.92,
  commit_lead_minutes = { 15, 60 },
  first_look_minutes = { 500, 840 },
  answer = { yes = 0.8, no = 0.1 },
  reminder_response = { 0.5, 0.6, 0.6, 0.7 },
  reminder_yes_share = 0.75,
  lost_streak = { min_streak = 5, days = 2, commit = -0.1, yes = 0 },
  shield = 0.7,
  habits = { { task = "walk", rate = 0.75 } },
  miga = { opens_per_day = 1, exit = 0.4, deepen = 0.1 },

  day = function(d)
    if d.weekday >= 6 then return { commit = 0.15, habit_scale = 0.4, miga_opens = 3, urges = 8, focus_sessions = 0 } end
    return nil
  end,

  -- Earned: a HARD morning at the office and a STRICT afternoon on weekdays, two long focus
  -- sessions a weekday and none at weekends, when the urges come (see `day`).
  earned = {
    share = 0.4,
    apps = { "iosToken:line", "iosToken:youtube", "iosToken:x" },
    modes = {
      { name = "office", strictness = "HARD", priority = 2, windows = { { days = { 1, 2, 3, 4, 5 }, from = "09:00", to = "12:00" } } },
      { name = "afternoon", strictness = "STRICT", windows = { { days = { 1, 2, 3, 4, 5 }, from = "13:00", to = "18:00" } } },
    },
    habits = { { name = "walk", reward_credits = 5, rate = 0.75 } },
    focus = { sessions_per_day = 2, minutes = { 50 }, quit_early = 0.05, hours = { 9, 18 } },
    urges = { per_day = 3, hours = { 7, 23 } },
    gate = {
      credits = 0.6, quest = 0.3, emergency = 0.05,
      credit_minutes = { 5 },
      quest_types = { "BREATHING", "COPY_TEXT" },
      insist = 0.05,
    },
  },
}
