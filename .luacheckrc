-- luacheck configuration for rule files: `luacheck rules examples`.
std = "lua54"
-- Rule files run in rulesrun's sandbox: no os, io, package, debug, load*, dofile, collectgarbage.
not_globals = { "os", "io", "package", "debug", "load", "loadfile", "dofile", "require", "collectgarbage" }
max_line_length = 140
-- Type annotations (---@param …) cannot be wrapped.
max_comment_line_length = false
-- A rule function has a fixed signature (habit.streak(periods, task, user)): it may ignore arguments.
unused_args = false
-- A file of a folder that `extends` another sees that folder's same file as `base`.
read_globals = { base = { read_only = false, other_fields = true } }
-- Test files (`rulesrun test`, docs/testing-rules.md): their test_* functions are globals; the rule
-- modules and the expect_* helpers are globals the host provides.
files["**/tests/*.lua"] = {
  allow_defined_top = true,
  ignore = { "131" }, -- "unused global": a test_* function is called by the runner
  read_globals = { "escalation", "streaks", "pricing", "quests", "modes", "expect_eq", "expect_true", "expect_error" },
}
