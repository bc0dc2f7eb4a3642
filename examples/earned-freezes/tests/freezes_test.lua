-- Unit tests of examples/earned-freezes/streaks.lua (rulesrun test examples/earned-freezes).
-- The figures are those of the file's header: "A user holds up to 2 freezes and earns one every 3
-- qualifying days in a row; at the rollover of a day that did not qualify, earned.day_ends spends
-- one and the streak is kept".

local function day(qualified, streak_count, freezes)
  return { date = "2026-03-04", weekday = 3, qualified = qualified, streak_count = streak_count, freezes = freezes }
end

function test_the_policy_is_on()
  expect_eq(streaks.earned.freeze_max, 2)
  expect_eq(streaks.earned.freeze_every_days, 3)
end

-- "earns one every 3 qualifying days in a row": the 3rd and the 6th day of the streak.
function test_every_third_qualifying_day_earns_a_freeze()
  expect_eq(streaks.earned.day_ends(day("HABITS", 2, 0)), { streak_count = 2, freezes = 0 })
  expect_eq(streaks.earned.day_ends(day("HABITS", 3, 0)), { streak_count = 3, freezes = 1 })
  expect_eq(streaks.earned.day_ends(day("FOCUS", 4, 1)), { streak_count = 4, freezes = 1 })
  expect_eq(streaks.earned.day_ends(day("FOCUS", 6, 1)), { streak_count = 6, freezes = 2 })
end

-- "A user holds up to 2 freezes": the 9th day earns none beyond them.
function test_at_most_two_freezes_are_held()
  expect_eq(streaks.earned.day_ends(day("FOCUS", 9, 2)), { streak_count = 9, freezes = 2 })
end

-- "at the rollover of a day that did not qualify, earned.day_ends spends one and the streak is kept".
function test_a_day_that_did_not_qualify_spends_a_freeze()
  expect_eq(streaks.earned.day_ends(day(nil, 3, 1)), { streak_count = 3, freezes = 0 })
  expect_eq(streaks.earned.day_ends(day(nil, 5, 2)), { streak_count = 5, freezes = 1 })
end

-- Without a freeze left, the document's rule: the streak resets.
function test_without_a_freeze_the_streak_resets()
  expect_eq(streaks.earned.day_ends(day(nil, 4, 0)), { streak_count = 0, freezes = 0 })
end
