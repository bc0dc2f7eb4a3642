---@meta
-- Editor annotations (LuaLS) for what rulesrun passes to rule functions. Not loaded by rulesrun
-- (hidden folders are not part of a rule set); `.luarc.json` at the repository root points the
-- language server here.

---@class EscalationState
---@field current_tier integer 0–3
---@field consecutive_misses integer
---@field consecutive_successes integer

---@class CheckIn
---@field result "YES"|"NO"|"MISSED"

---@class CheckInWindow
---@field open_minutes integer the commitment deadline, minutes after local midnight
---@field close_minutes integer the check-in window close, minutes after local midnight
---@field open string "HH:MM"
---@field close string "HH:MM"

---@class PressureStreak
---@field current_streak integer
---@field longest_streak integer

---@class PressureDay
---@field result "YES"|"NO"|"MISSED"
---@field shield_used boolean
---@field date string "YYYY-MM-DD", the local day of the result
---@field weekday integer ISO weekday 1 (Monday)…7
---@field committed boolean the user set a commitment that day

---@class HabitPeriod
---@field start_date string "YYYY-MM-DD", the period's first local day
---@field end_date string "YYYY-MM-DD", its last
---@field weekday integer? ISO weekday 1 (Monday)…7, day periods only
---@field scheduled boolean false for a day a specific-days task is not scheduled on
---@field completions integer completions of the task in the period
---@field value number the sum of the completions' values (0 when none)
---@field status "done"|"partial"|"skipped"|"frozen"|"missed"|"open" the host's reading
---@field freezes_equipped integer
---@field opened boolean? the user opened the app that day (with `habit.track_app_opens` only)

---@class HabitTask
---@field name string
---@field measurement "daily"|"weekly"|"monthly"
---@field frequency { kind: "daily"|"weekdays"|"times_in_days"|"every_n_days"|"days_of_month", weekdays: integer[], times: integer?, days: integer?, every: integer?, days_of_month: integer[] }
---@field window integer days past today, and before the first period, a streak may count (0 for daily tasks)
---@field times_per_day integer
---@field goal { type: string, target: number?, direction: "at_least" }
---@field start_date string "YYYY-MM-DD", the day the task was created
---@field params table

---@class HabitUser
---@field timezone string
---@field day_starts_at string "HH:MM"

---@class HabitStreak
---@field current integer
---@field best { first: string, last: string, length: integer }[]? at most 10, longest first
---@field score number? 0…1

---@class MigaDay
---@field exits integer counting events ("exit_to_focus") that day

---@class EarnedDay
---@field focus_minutes integer completed focus minutes in the day
---@field habit_completions integer habit completions that were not award-suspended

---@class EarnedDayEnd
---@field date string "YYYY-MM-DD", the Earned day that ends
---@field weekday integer ISO weekday 1 (Monday)…7
---@field qualified "FOCUS"|"HABITS"|nil how the day qualified for the streak
---@field streak_count integer the count at the day's end (counting the day when it qualified)
---@field freezes integer streak freezes held

---@class EarnedStreak
---@field streak_count integer 0, or the day's count (a qualified day keeps it)
---@field freezes integer 0…100

---@class QuestGate
---@field strictness "GENTLE"|"STRICT"|"HARD"
---@field quest_type "BREATHING"|"COPY_TEXT"|"QR_SCAN"
---@field quest_unlocks_today integer quest unlocks of this app granted today
---@field minutes_since_last_quest_unlock integer|nil
---@field qr_key_set boolean

---@class EmergencyGate
---@field emergency_used_today integer emergency unlocks used today
---@field same_app_as_last_emergency boolean the last emergency unlock was for this app

---@class FocusSession
---@field actual_minutes integer
---@field planned_minutes integer
---@field completed boolean ran to its planned end
---@field ended_early boolean

---@class HabitCompletion
---@field reward_credits integer the habit's reward
---@field completions_in_window integer habit completions in the suspension window before this one

---@class PriceContext
---@field minutes integer the unlock length priced
---@field app string the app id
---@field unlocks_today integer unlocks granted today, any app
---@field unlocks_today_app integer unlocks of this app granted today
---@field hour integer local hour 0–23
---@field minute integer local minute 0–59
---@field weekday integer ISO weekday 1 (Monday)…7
---@field mode string? the name of the mode in force, nil when a focus session blocks
---@field strictness "GENTLE"|"STRICT"|"HARD"
---@field streak integer the Earned streak count
---@field balance integer the credit balance
---@field params table the params pricing.lua declares, at their defaults

---@class LocalMoment
---@field weekday integer ISO weekday 1 (Monday)…7
---@field minutes integer minutes since local midnight

---@class ModeWindow
---@field days_mask integer bit 0 Monday … bit 6 Sunday
---@field start_minutes integer
---@field end_minutes integer

---@class EarnedMode
---@field priority integer
---@field strictness "GENTLE"|"STRICT"|"HARD"
---@field manual_state "AUTO"|"FORCED_ON"|"FORCED_OFF"
---@field override_in_force boolean the manual state is effective and has not expired
---@field windows ModeWindow[]

--- In a rule folder that `extends` another: the same file of that folder, as it returned it (not yet
--- frozen). Change a knob or replace a function, then return it.
---@type table
base = {}

--- Attaches a short reason to the call that makes it: `replay --explain` shows it under the call
--- (`note: night surcharge 50 %`), and so does a failing test's list of calls. At most 8 a call, of
--- 200 bytes each (a longer one is cut, then `…`). Does nothing, at the cost of a call, when not
--- explaining. A text that is not a string is an error at the calling line.
---@param text string
function note(text) end
