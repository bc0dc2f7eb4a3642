-- ghost: installed the app, set it up, then never commits nor answers. Every day is MISSED
-- (no commitment by the deadline), so the tier climbs to 3 and stays there: a check of how hard
-- a rule set pushes an absent user.
return {
  description = "Sets up the app and never commits nor answers.",
  commit = 0,
  answer = { yes = 0, no = 0 },
  reminder_response = { 0, 0, 0, 0 },
}
