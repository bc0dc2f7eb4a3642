-- examples/earned-freezes/streaks.lua (extends ../../rules): Earned's streak with freezes, the
-- policy streaks.lua has and leaves off (freeze_max = 0). A user holds up to 2 freezes and earns one
-- every 3 qualifying days in a row; at the rollover of a day that did not qualify, earned.day_ends
-- spends one and the streak is kept (the decision `earned_days` shows "freeze_used": true and the
-- freezes left). Replay: rulesrun replay --rules examples/earned-freezes examples/earned-freezes/freeze-spent.jsonl
local M = base

M.earned.freeze_max = 2
M.earned.freeze_every_days = 3

return M
