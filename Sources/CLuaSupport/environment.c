/*
 * Layer 5. The environment of each rule file: its own globals over the sandbox's, sealed once the
 * file has loaded, and running a file (or a file another extends), after which what it defined is
 * frozen. Calls sandbox.c and the layers below it (see internal.h for the order).
 */
#include "internal.h"

static int rr_env_newindex(lua_State *L) {
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
    rr_push_sandbox_globals(L);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, -2) != LUA_TNIL) {
        luaL_where(L, 1);
        lua_pushfstring(L, "cannot assign global '%s': it is provided by the host and read-only", key);
        lua_concat(L, 2);
        return rr_raise(L, RR_RAISE_READONLY, 0);
    }
    lua_getmetatable(L, 1);
    if (lua_rawgetp(L, -1, &rr_key_sealed) == LUA_TBOOLEAN && lua_toboolean(L, -1)) {
        luaL_where(L, 1);
        lua_pushfstring(L, "cannot assign global '%s' after the file has loaded: "
                           "rules cannot keep state between calls (use a local)", key);
        lua_concat(L, 2);
        return rr_raise(L, RR_RAISE_READONLY, 0);
    }
    lua_settop(L, 3);
    lua_rawset(L, lua_upvalueindex(1));
    return 0;
}

int rr_sandbox_setenv(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int given_base = lua_gettop(L) >= 2 && !lua_isnil(L, 2) ? 2 : 0;
    lua_newtable(L);                                   /* own: the file's own globals */
    int own = lua_gettop(L);
    if (given_base) {                                  /* the extended folder's same file, as `base` */
        lua_pushvalue(L, given_base);
        lua_setfield(L, own, "base");
    }
    lua_createtable(L, 0, 1);
    rr_push_sandbox_globals(L);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, own);
    lua_newtable(L);                                   /* env: what the chunk sees as _ENV */
    int env = lua_gettop(L);
    lua_createtable(L, 0, 6);
    lua_pushvalue(L, own);           lua_setfield(L, -2, "__index");
    lua_pushvalue(L, own);
    lua_pushcclosure(L, rr_env_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, rr_frozen_pairs); lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);           lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, own);           lua_rawsetp(L, -2, &rr_key_frozen);
    lua_pushliteral(L, "the environment of a rule file"); lua_rawsetp(L, -2, &rr_key_name);
    lua_pushboolean(L, 0);           lua_rawsetp(L, -2, &rr_key_sealed);
    lua_setmetatable(L, env);
    lua_pushvalue(L, env);
    lua_setfield(L, own, "_G");
    lua_pushvalue(L, env);
    if (lua_setupvalue(L, 1, 1) == NULL) lua_pop(L, 1);
    return 0;
}

#define RR_RULE_TABLE "a table of a rule file (rules cannot change it after loading)"

/* Seals the environment of the chunk at `chunk`; with `freeze`, freezes what it defined. */
static void rr_seal_env(lua_State *L, int chunk, int freeze) {
    if (lua_getupvalue(L, chunk, 1) != NULL) {
        int env = lua_gettop(L);
        if (lua_type(L, env) == LUA_TTABLE && lua_getmetatable(L, env)) {
            lua_pushboolean(L, 1);
            lua_rawsetp(L, -2, &rr_key_sealed);
            lua_pop(L, 1);
            if (freeze) {
                rr_push_contents(L, env);
                rr_freeze_reachable(L, lua_gettop(L), RR_RULE_TABLE, 0, 1);
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
}

int rr_sandbox_runchunk(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int base = lua_gettop(L);
    lua_pushvalue(L, 1);
    lua_call(L, 0, LUA_MULTRET);
    int nres = lua_gettop(L) - base;
    /* Seal the environment and freeze what the file defined, and what the files it extends did. */
    for (int chunk = 1; chunk <= base; chunk++)
        if (lua_type(L, chunk) == LUA_TFUNCTION) rr_seal_env(L, chunk, 1);
    for (int i = base + 1; i <= base + nres; i++)
        rr_freeze_reachable(L, i, RR_RULE_TABLE, 1, 1);
    return nres;
}

int rr_sandbox_runbase(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 1);
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (!lua_istable(L, -1)) {
        lua_pushliteral(L, "a rule file that another extends must return a table");
        return lua_error(L);
    }
    rr_seal_env(L, 1, 0);
    return 1;
}
