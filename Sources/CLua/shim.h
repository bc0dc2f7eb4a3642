/*
 * CLua: Lua 5.4 as Swift sees it.
 *
 * Swift cannot call C macros or variadic functions. Lua implements a good part of its API as
 * function-like macros (lua_pcall, lua_pop, lua_tostring, lua_newtable, lua_upvalueindex, ...) and
 * lua_gc is variadic. Each gets a static inline wrapper here, with the same name prefixed by
 * `clua_`, so that no Lua constant or macro body is copied into Swift.
 */
#ifndef CLUA_SHIM_H
#define CLUA_SHIM_H

#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>

/* Pseudo-indices and constants that are macro expressions. */
static inline int clua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int clua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int clua_multret(void) { return LUA_MULTRET; }
static inline lua_Integer clua_ridx_globals(void) { return LUA_RIDX_GLOBALS; }
static inline int clua_noref(void) { return LUA_NOREF; }
static inline int clua_refnil(void) { return LUA_REFNIL; }

/* Calls. */
static inline int clua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}

/* Stack manipulation. */
static inline void clua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void clua_insert(lua_State *L, int idx) { lua_insert(L, idx); }
static inline void clua_remove(lua_State *L, int idx) { lua_remove(L, idx); }
static inline void clua_replace(lua_State *L, int idx) { lua_replace(L, idx); }

/* Pushing and converting. */
static inline void clua_newtable(lua_State *L) { lua_newtable(L); }
static inline void clua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }
static inline void clua_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline const char *clua_tostring(lua_State *L, int idx) { return lua_tostring(L, idx); }
static inline lua_Number clua_tonumber(lua_State *L, int idx) { return lua_tonumber(L, idx); }
static inline lua_Integer clua_tointeger(lua_State *L, int idx) { return lua_tointeger(L, idx); }

/* Type tests. */
static inline const char *clua_typename(lua_State *L, int idx) { return luaL_typename(L, idx); }
static inline int clua_isfunction(lua_State *L, int idx) { return lua_isfunction(L, idx); }
static inline int clua_istable(lua_State *L, int idx) { return lua_istable(L, idx); }
static inline int clua_isnil(lua_State *L, int idx) { return lua_isnil(L, idx); }
static inline int clua_isnoneornil(lua_State *L, int idx) { return lua_isnoneornil(L, idx); }

/* The extra space of a state: one pointer that the host uses to find its own data. */
static inline void *clua_getextraspace(lua_State *L) { return lua_getextraspace(L); }

/* Loading. */
static inline int clua_loadbufferx(lua_State *L, const char *buff, size_t sz, const char *name, const char *mode) {
    return luaL_loadbufferx(L, buff, sz, name, mode);
}

/* lua_gc is variadic. */
static inline int clua_gc_count_kb(lua_State *L) { return lua_gc(L, LUA_GCCOUNT, 0); }
static inline int clua_gc_count_b(lua_State *L) { return lua_gc(L, LUA_GCCOUNTB, 0); }
static inline int clua_gc_collect(lua_State *L) { return lua_gc(L, LUA_GCCOLLECT, 0); }
static inline int clua_gc_stop(lua_State *L) { return lua_gc(L, LUA_GCSTOP, 0); }
static inline int clua_gc_restart(lua_State *L) { return lua_gc(L, LUA_GCRESTART, 0); }
static inline int clua_gc_generational(lua_State *L) { return lua_gc(L, LUA_GCGEN, 0, 0); }
static inline int clua_gc_incremental(lua_State *L) { return lua_gc(L, LUA_GCINC, 0, 0, 0); }

/* The Lua release the package is built with ("Lua 5.4.6"), for `rulesrun --version`. */
static inline const char *clua_release(void) { return LUA_RELEASE; }

#endif
