/*
 * Layer 4. The sandbox's globals: the allow-listed base functions, the replacements of those that
 * must not let a rule escape its budget (pcall, xpcall) or change what other rules see (rawset,
 * setmetatable), the guarded and frozen copies of the libraries, math.random seeded by the
 * host, and `note` (trace.c). Calls every file of layers 0 to 3 (see internal.h for the order).
 */
#include "internal.h"
#include <stdio.h>
#include <string.h>

static const char *const rr_base_allowed[] = {
    "assert", "error", "ipairs", "next", "pairs", "select", "tonumber", "tostring", "type",
    "rawequal", "getmetatable", "_VERSION", NULL
};


/* ---- base-function replacements ---- */

static int rr_pcall_status(lua_State *L, int status) {
    rr_runtime *rt = rr_runtime_of(L);
    if (status == LUA_OK) return lua_gettop(L);
    if (status == LUA_ERRMEM) { rt->raised = RR_RAISE_MEMORY; rt->fatal = 1; }
    if (rt->fatal) return lua_error(L);            /* budgets cannot be caught */
    if (rr_is_stack_overflow(L, -1)) rr_charge_stack_overflow(L, 1);
    rt->raised = RR_RAISE_NONE;                    /* the rule handled it */
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
}

static int rr_pcall(lua_State *L) {
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);                               /* true f args... */
    int status = lua_pcall(L, lua_gettop(L) - 2, LUA_MULTRET, 0);
    return rr_pcall_status(L, status);
}

/* Stands between xpcall and the rule's message handler (upvalue 1). The runtime's own fatal errors
   (budget, memory) pass through unchanged, without running the handler: a budget error raised by
   the count hook would run it inside the hook, where no hook fires, so a handler that loops would
   never stop; and a handler must not turn a budget error into something else. */
static int rr_message_handler(lua_State *L) {
    if (rr_runtime_of(L)->fatal) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int rr_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, rr_message_handler, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);                          /* f h args... true */
    lua_pushvalue(L, 1);                            /* f h args... true f */
    lua_rotate(L, 3, 2);                            /* f h true f args... */
    int status = lua_pcall(L, n - 2, LUA_MULTRET, 2);
    if (status == LUA_OK) return lua_gettop(L) - 2;
    int r = rr_pcall_status(L, status);
    return r;
}

static int rr_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (rr_is_frozen(L, 1)) {
        luaL_where(L, 1);
        lua_pushstring(L, "rawset: this table is read-only");
        lua_concat(L, 2);
        return rr_raise(L, RR_RAISE_READONLY, 0);
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* rawget and rawlen see the fields of the host's arguments (views and kept tables), which sit
   behind a proxy; a view counts it as reading every field. */
static int rr_rawget(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    rr_read_through_view(L, 1);
    lua_rawget(L, 1);
    return 1;
}

static int rr_rawlen(lua_State *L) {
    int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
    if (t == LUA_TTABLE) rr_read_through_view(L, 1);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

static int rr_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (rr_is_frozen(L, 1)) {
        luaL_where(L, 1);
        lua_pushstring(L, "setmetatable: this table is read-only");
        lua_concat(L, 2);
        return rr_raise(L, RR_RAISE_READONLY, 0);
    }
    lua_settop(L, 2);
    if (!rr_push_acting_metatable(L, 2)) lua_pushvalue(L, 2);   /* 3: what the table will get */
    if (t == LUA_TTABLE) {
        lua_pushstring(L, "__gc");
        if (lua_rawget(L, 3) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc metamethods are not allowed in rules");
        lua_pop(L, 1);
    }
    /* An object of a frozen class can change class; a metatable a rule protected stays. */
    int of_class = 0;
    if (lua_getmetatable(L, 1)) {
        of_class = lua_rawgetp(L, -1, &rr_key_acting) == LUA_TBOOLEAN && lua_toboolean(L, -1);
        lua_pop(L, 2);
    }
    if (!of_class && luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 3);
    lua_setmetatable(L, 1);
    lua_settop(L, 1);
    return 1;
}

/* ---- building the sandbox ---- */

static void rr_copy_library(lua_State *L, const char *name, lua_CFunction open,
                            const char *const *denied, int dst) {
    luaL_requiref(L, name, open, 0);
    int lib = lua_gettop(L);
    lua_newtable(L);
    int copy = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, lib)) {
        int skip = 0;
        if (lua_type(L, -2) == LUA_TSTRING)
            for (const char *const *d = denied; *d; d++)
                if (strcmp(lua_tostring(L, -2), *d) == 0) skip = 1;
        if (skip) { lua_pop(L, 1); continue; }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, copy);
    }
    if (strcmp(name, LUA_STRLIBNAME) == 0) rr_install_string_guards(L, copy);
    if (strcmp(name, LUA_TABLIBNAME) == 0) rr_install_table_guards(L, copy);
    if (strcmp(name, LUA_UTF8LIBNAME) == 0) rr_install_utf8_guards(L, copy);
    char what[64];
    snprintf(what, sizeof what, "the host library '%s'", name);
    rr_freeze_shallow(L, copy, what);
    lua_setfield(L, dst, name);
    lua_pop(L, 1);                                 /* lib */
}

/* Records the C functions of the sandbox globals and libraries (registry, rr_key_hostfns): the
   only C closures with upvalues a file may keep once it has loaded. Any other (what
   `string.gmatch` or `pairs` return: iterators) carries a position that calls would share. */
static void rr_record_c_functions(lua_State *L, int set, int table, int depth) {
    rr_push_contents(L, table);
    int contents = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, contents)) {
        if (lua_iscfunction(L, -1)) { lua_pushvalue(L, -1); lua_pushboolean(L, 1); lua_rawset(L, set); }
        else if (depth > 0 && lua_type(L, -1) == LUA_TTABLE) rr_record_c_functions(L, set, lua_gettop(L), depth - 1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static void rr_record_host_functions(lua_State *L, int g) {
    lua_newtable(L);
    rr_record_c_functions(L, lua_gettop(L), g, 1);   /* the globals and their libraries */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &rr_key_hostfns);
}

int rr_sandbox_open(lua_State *L) {
    lua_Integer seed = luaL_checkinteger(L, 1);
    /* The real libraries are opened where rules cannot reach them; the sandbox copies from them. */
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    int base = lua_gettop(L);
    lua_newtable(L);
    int g = lua_gettop(L);
    for (const char *const *name = rr_base_allowed; *name; name++) {
        lua_getfield(L, base, *name);
        lua_setfield(L, g, *name);
    }
    lua_pushcfunction(L, rr_pcall);        lua_setfield(L, g, "pcall");
    lua_pushcfunction(L, rr_xpcall);       lua_setfield(L, g, "xpcall");
    lua_pushcfunction(L, rr_rawset);       lua_setfield(L, g, "rawset");
    lua_pushcfunction(L, rr_rawget);       lua_setfield(L, g, "rawget");
    lua_pushcfunction(L, rr_rawlen);       lua_setfield(L, g, "rawlen");
    lua_pushcfunction(L, rr_setmetatable); lua_setfield(L, g, "setmetatable");
    lua_pushcfunction(L, rr_print);        lua_setfield(L, g, "print");
    lua_pushcfunction(L, rr_pairs);        lua_setfield(L, g, "pairs");
    lua_pushcfunction(L, rr_next);         lua_setfield(L, g, "next");
    lua_pushcfunction(L, rr_tostring);     lua_setfield(L, g, "tostring");
    lua_pushcfunction(L, rr_add_note);     lua_setfield(L, g, "note");

    static const char *const no_string[] = { "dump", NULL };
    static const char *const no_math[] = { "randomseed", NULL };
    static const char *const none[] = { NULL };
    rr_copy_library(L, LUA_STRLIBNAME, luaopen_string, no_string, g);
    rr_copy_library(L, LUA_TABLIBNAME, luaopen_table, none, g);
    rr_copy_library(L, LUA_MATHLIBNAME, luaopen_math, no_math, g);
    rr_copy_library(L, LUA_UTF8LIBNAME, luaopen_utf8, none, g);

    /* math.random, seeded by the host; rules cannot reseed it. */
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 0);
    lua_getfield(L, -1, "randomseed");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &rr_key_randomseed);
    if (lua_getupvalue(L, -1, 1) != NULL) {       /* the generator's state, shared with random */
        rr_runtime *rt = rr_runtime_of(L);
        if (lua_type(L, -1) == LUA_TUSERDATA && lua_rawlen(L, -1) <= 64) {
            rt->random_state = lua_touserdata(L, -1);
            rt->random_state_size = lua_rawlen(L, -1);
        }
        lua_pop(L, 1);
    }
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    lua_pop(L, 1);

    /* Strings index the sandboxed string table, and their metatable is protected. */
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_getfield(L, g, LUA_STRLIBNAME);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    lua_pushvalue(L, g);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &rr_key_globals);
    rr_record_host_functions(L, g);
    return 0;
}

void rr_push_sandbox_globals(lua_State *L) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &rr_key_globals);
}

int rr_reseed(lua_State *L) {
    lua_Integer seed = luaL_checkinteger(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &rr_key_randomseed);
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    return 0;
}
