-- luacheck configuration for rule files: `luacheck rules examples`.
std = "lua54"
-- Rule files run in rulesrun's sandbox: no os, io, package, debug, load*, dofile, collectgarbage.
not_globals = { "os", "io", "package", "debug", "load", "loadfile", "dofile", "require", "collectgarbage" }
max_line_length = 120
