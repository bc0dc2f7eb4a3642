-- ghost: installed the app, set it up, then never commits nor answers. Every day is MISSED
-- (no commitment by the deadline), so the tier climbs to 3 and stays there: a check of how hard
-- a rule set pushes an absent user.
return {
  description = "Sets up the app and never commits nor answers.",
  commit = 0,
  answer = { yes = 0, no = 0 },
  reminder_response = { 0, 0, 0, 0 },

  -- Earned: lists its apps and a HARD mode, then never focuses nor completes a habit, so it never
  -- has credits: at the gate it mostly gives up, and the credit unlocks it insists on are denied.
  earned = {
    apps = { "android:com.instagram.android" },
    modes = { { name = "always", strictness = "HARD", windows = { { days = { 1, 2, 3, 4, 5, 6, 7 }, from = "00:00", to = "00:00" } } } },
    urges = { per_day = 2, hours = { 9, 23 } },
    gate = { credits = 0.3, quest = 0, emergency = 0, insist = 0.5 },
  },
}
