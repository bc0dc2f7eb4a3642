/*
 * Layer 2. Reading tables as rules see them: the contents behind a frozen table's proxy, `pairs`
 * and `next` in a fixed order, and `tostring` without addresses. Calls runtime.c and budget.c
 * (see internal.h for the order); frozen.c, which makes the proxies, builds on it.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>

int rr_is_frozen(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    int frozen = lua_rawgetp(L, -1, &rr_key_frozen) == LUA_TTABLE;
    lua_pop(L, 2);
    return frozen;
}

void rr_push_contents(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TTABLE && lua_getmetatable(L, idx)) {
        if (lua_rawgetp(L, -1, &rr_key_frozen) == LUA_TTABLE) {
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 2);
    }
    lua_pushvalue(L, idx);
}

void rr_read_through_view(lua_State *L, int idx) {
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return;
    int view = lua_rawgetp(L, -1, &rr_key_view) != LUA_TNIL;
    lua_pop(L, 2);
    if (!view) return;
    rr_runtime_of(L)->view_reads = RR_VIEW_ALL;
    rr_push_contents(L, idx);
    lua_replace(L, idx);
}

/* The __pairs of a frozen table and of a file's environment: the sandbox's pairs on its contents
   (rr_pairs knows it from a rule's own __pairs). */
int rr_frozen_pairs(lua_State *L) {
    return rr_pairs(L);   /* the contents, in the fixed order */
}

/* ---- pairs in a fixed order ---- */

/* Lua seeds its string hashes from the clock and addresses, so the stock `pairs` visits the keys
   of a table in an order that changes from one process to the next. Rules must give the same
   results every run, so the sandbox's `pairs` visits keys in a fixed order: numbers ascending,
   then strings by their bytes, then false and true; keys of other types (tables, functions) come
   last, in no fixed order. It iterates over a snapshot of the keys: fields added during the loop
   are not visited, fields cleared during it are skipped. */

static int rr_key_rank(lua_State *L, int i) {
    switch (lua_type(L, i)) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3;
    }
}

/* Whether key x comes before key y in the fixed order (keys of other types: never). */
static int rr_key_before(lua_State *L, int x, int y) {
    int ra = rr_key_rank(L, x), rb = rr_key_rank(L, y);
    if (ra != rb) return ra < rb;
    if (ra == 0) return lua_compare(L, x, y, LUA_OPLT);
    if (ra == 1) {
        size_t la, lb;
        const char *a = lua_tolstring(L, x, &la), *b = lua_tolstring(L, y, &lb);
        int c = memcmp(a, b, la < lb ? la : lb);
        return c < 0 || (c == 0 && la < lb);
    }
    if (ra == 2) return !lua_toboolean(L, x) && lua_toboolean(L, y);
    return 0;
}

static int rr_key_less(lua_State *L) {
    lua_pushboolean(L, rr_key_before(L, 1, 2));
    return 1;
}

/* `next` in the order of `pairs`: Lua's own order depends on string hashes seeded per state, so
   the first key `next` gives would differ from one worker to another. Each call scans the table
   (charged); the keys of other types (tables, functions) come last, in Lua's order. The contents
   of a frozen table are visited, not its empty proxy. */
int rr_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    rr_read_through_view(L, 1);
    rr_push_contents(L, 1);                           /* 3: the entries */
    lua_pushnil(L);                                   /* 4: the next key, when found */
    int from = lua_isnil(L, 2) ? -1 : rr_key_rank(L, 2);
    if (from < 3) {
        lua_Integer n = 0;
        lua_pushnil(L);
        while (lua_next(L, 3)) {
            lua_pop(L, 1);
            n++;
            if (rr_key_rank(L, -1) < 3 && (from < 0 || rr_key_before(L, 2, -1))
                && (lua_isnil(L, 4) || rr_key_before(L, -1, 4))) {
                lua_pushvalue(L, -1);
                lua_replace(L, 4);
            }
        }
        rr_charge_size(L, (double)n);
        if (!lua_isnil(L, 4)) goto found;
        lua_pushnil(L);                               /* then the keys of other types, from the first */
    } else {
        lua_pushvalue(L, 2);
    }
    while (lua_next(L, 3)) {
        lua_pop(L, 1);
        if (rr_key_rank(L, -1) == 3) { lua_replace(L, 4); goto found; }
    }
    lua_pushnil(L);
    return 1;
found:
    lua_settop(L, 4);
    lua_pushvalue(L, 4);
    lua_rawget(L, 3);
    return 2;
}

/* Pushes what `tostring` gives for the value at idx, without the addresses Lua prints for tables,
   functions, userdata and threads ("table: 0x55…"): they differ from one run to the next. Such a
   value prints as its `__tostring`, else its `__name`, else its type. */
void rr_push_tostring(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int shown = luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL;   /* pushes nothing when there is none */
    if (shown) lua_pop(L, 1);                                          /* luaL_tolstring calls it */
    if (shown || !rr_prints_address(lua_type(L, idx))) {
        luaL_tolstring(L, idx, NULL);
        return;
    }
    int name = luaL_getmetafield(L, idx, "__name");
    if (name != LUA_TSTRING) {
        if (name != LUA_TNIL) lua_pop(L, 1);
        lua_pushstring(L, luaL_typename(L, idx));
    }
}

int rr_tostring(lua_State *L) {
    luaL_checkany(L, 1);
    rr_push_tostring(L, 1);
    return 1;
}

/* Upvalues: the sorted keys, the table, the position reached. */
static int rr_ordered_next(lua_State *L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    for (;;) {
        i++;
        if (lua_rawgeti(L, lua_upvalueindex(1), i) == LUA_TNIL) return 1;   /* the end: nil */
        lua_pushinteger(L, i);
        lua_replace(L, lua_upvalueindex(3));
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 2;      /* key, value */
        lua_pop(L, 2);                                                      /* cleared meanwhile */
    }
}

static int rr_integer_order(const void *a, const void *b) {
    lua_Integer x = *(const lua_Integer *)a, y = *(const lua_Integer *)b;
    return (x > y) - (x < y);
}

/* Sorts the n keys of the sequence at `keys` when they are all integers (days, ids, positions:
   the usual case), in C: the same order as rr_key_less, without a Lua call per comparison.
   Returns 0, having done nothing, when a key is not an integer. */
static int rr_sort_integer_keys(lua_State *L, int keys, lua_Integer n) {
    for (lua_Integer i = 1; i <= n; i++) {
        int integer = lua_rawgeti(L, keys, i) == LUA_TNUMBER && lua_isinteger(L, -1);
        lua_pop(L, 1);
        if (!integer) return 0;
    }
    lua_Integer *sorted = (lua_Integer *)lua_newuserdatauv(L, (size_t)n * sizeof(lua_Integer), 0);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, keys, i);
        sorted[i - 1] = lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    qsort(sorted, (size_t)n, sizeof(lua_Integer), rr_integer_order);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_pushinteger(L, sorted[i - 1]);
        lua_rawseti(L, keys, i);
    }
    lua_pop(L, 1);
    return 1;
}

int rr_pairs(lua_State *L) {
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        if (lua_tocfunction(L, -1) != rr_frozen_pairs) {           /* the rule's own __pairs */
            lua_pushvalue(L, 1);
            lua_call(L, 1, 3);
            return 3;
        }
        lua_pop(L, 1);                                              /* a frozen table: its contents */
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    rr_push_contents(L, 1);
    int t = lua_gettop(L);
    lua_newtable(L);
    int keys = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++n);
    }
    rr_charge_size(L, (double)n);
    rr_charge_sort(L, (double)n, 32.0);   /* rr_key_less, called through table.sort (charged alike in C) */
    if (n > 1 && !rr_sort_integer_keys(L, keys, n)) {
        luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 0);   /* the real library, already loaded */
        lua_getfield(L, -1, "sort");
        lua_pushvalue(L, keys);
        lua_pushcfunction(L, rr_key_less);
        lua_call(L, 2, 0);
        lua_pop(L, 1);
    }
    lua_pushvalue(L, keys);
    lua_pushvalue(L, t);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, rr_ordered_next, 3);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}
