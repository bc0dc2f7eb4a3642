-- luacheck configuration for rule and persona files: `luacheck rules examples`.
-- The standard library is rulesrun's sandbox (docs/sandbox.md), mirrored from
-- Sources/CLuaSupport/sandbox.c: a global or library field outside it (coroutine, os, io, load,
-- require, string.dump, math.randomseed, …) is flagged as it would fail when the rule runs.
local function fields(names)
  local t = {}
  for name in names:gmatch("%S+") do t[name] = {} end
  return t
end
stds.rulesrun = {
  read_globals = {
    assert = {}, error = {}, ipairs = {}, next = {}, pairs = {}, pcall = {}, xpcall = {}, select = {},
    tonumber = {}, tostring = {}, type = {}, rawequal = {}, rawget = {}, rawlen = {}, rawset = {},
    setmetatable = {}, getmetatable = {}, print = {}, _VERSION = {},
    -- note(text): a reason attached to the call being explained (docs/rules.md)
    note = {},
    -- _G is the file's own environment: its globals over the sandbox's
    _G = { read_only = false, other_fields = true },
    -- string without dump
    string = { fields = fields("byte char find format gmatch gsub len lower match pack packsize rep reverse sub unpack upper") },
    table = { fields = fields("concat insert move pack remove sort unpack") },
    -- math without randomseed (the host seeds math.random)
    math = {
      fields = fields("abs ceil cos deg exp floor fmod huge log max maxinteger min mininteger modf pi rad random sin sqrt "
        .. "tan tointeger type ult acos asin atan"),
    },
    utf8 = { fields = fields("char charpattern codepoint codes len offset") },
  },
}
std = "rulesrun"
max_line_length = 140
-- Type annotations (---@param …) cannot be wrapped.
max_comment_line_length = false
-- A rule function has a fixed signature (habit.streak(periods, task, user)): it may ignore arguments.
unused_args = false
-- A file of a folder that `extends` another sees that folder's same file as `base`.
read_globals = { base = { read_only = false, other_fields = true } }
-- Test files (`rulesrun test`, docs/testing-rules.md): their test_* and prop_* functions and their
-- `cases` table are globals; the rule modules, the expect_* helpers, `gen`, `records`, `with_knobs`,
-- `table_test`, `skip` and `expect_failure` are globals the host provides. Property files (`compare --property`, examples/properties) see the helpers only.
files["**/tests/*.lua"] = {
  allow_defined_top = true,
  ignore = { "131" }, -- "unused global": a test_* function is called by the runner
  read_globals = {
    "escalation", "streaks", "pricing", "quests", "modes", "expect_eq", "expect_true", "expect_error", "gen",
    "with_knobs", "table_test", "skip", "expect_failure",
    records = { fields = { params = {}, price_context = {} } },
  },
}
files["examples/properties/*.lua"] = {
  allow_defined_top = true,
  ignore = { "131" },
  read_globals = { "expect_eq", "expect_true", "expect_error", "gen" },
}
-- The editor annotations (rules/.types) declare the host's own globals.
files["**/.types/*.lua"] = { globals = { "note" } }
