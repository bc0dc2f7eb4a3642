/* The sandbox: allow-listed globals, frozen tables, per-file environments, safe base functions. */
#include "internal.h"
#include <stdio.h>
#include <string.h>

static const char *const rr_base_allowed[] = {
    "assert", "error", "ipairs", "next", "pairs", "select", "tonumber", "tostring", "type",
    "rawequal", "rawget", "rawlen", "getmetatable", "_VERSION", NULL
};

int rr_pairs(lua_State *L);

/* ---- frozen tables ---- */

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

static int rr_frozen_pairs(lua_State *L) {
    return rr_pairs(L);   /* the contents, in the fixed order */
}

static int rr_frozen_len(lua_State *L) {
    rr_push_contents(L, 1);
    lua_pushinteger(L, (lua_Integer)luaL_len(L, -1));
    return 1;
}

static int rr_frozen_newindex(lua_State *L) {
    const char *what = "table";
    if (lua_getmetatable(L, 1)) {
        if (lua_rawgetp(L, -1, &rr_key_name) == LUA_TSTRING) what = lua_tostring(L, -1);
    }
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
    luaL_where(L, 1);
    lua_pushfstring(L, "cannot set '%s': %s is read-only", key, what);
    lua_concat(L, 2);
    return rr_raise(L, RR_RAISE_READONLY, 0);
}

/* Metamethods that a frozen table keeps from its original metatable (they work on the proxy). */
static const char *const rr_kept_events[] = {
    "__call", "__tostring", "__name", "__eq", "__lt", "__le", "__concat", "__unm", "__add",
    "__sub", "__mul", "__div", "__mod", "__pow", "__idiv", "__band", "__bor", "__bxor",
    "__shl", "__shr", "__bnot", "__len", "__pairs", NULL
};

void rr_freeze_shallow(lua_State *L, int idx, const char *what) {
    idx = lua_absindex(L, idx);
    if (rr_is_frozen(L, idx)) return;
    lua_newtable(L);                               /* contents */
    int contents = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {                     /* key value */
        lua_pushvalue(L, -2);                      /* key value key */
        lua_insert(L, -2);                         /* key key value */
        lua_rawset(L, contents);                   /* key */
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, idx);                        /* clearing a field during traversal is allowed */
    }
    lua_createtable(L, 0, 8);                      /* the new metatable */
    int mt = lua_gettop(L);
    if (lua_getmetatable(L, idx)) {                /* keep what the original metatable did */
        int old = lua_gettop(L);
        for (const char *const *e = rr_kept_events; *e; e++) {
            if (lua_getfield(L, old, *e) != LUA_TNIL) lua_setfield(L, mt, *e);
            else lua_pop(L, 1);
        }
        if (lua_getfield(L, old, "__index") != LUA_TNIL) {   /* inherited lookups */
            lua_createtable(L, 0, 1);
            lua_insert(L, -2);
            lua_setfield(L, -2, "__index");
            lua_setmetatable(L, contents);
        } else {
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pushvalue(L, contents);
    lua_setfield(L, mt, "__index");
    lua_pushcfunction(L, rr_frozen_newindex);
    lua_setfield(L, mt, "__newindex");
    if (lua_getfield(L, mt, "__pairs") == LUA_TNIL) {
        lua_pushcfunction(L, rr_frozen_pairs);
        lua_setfield(L, mt, "__pairs");
    }
    lua_pop(L, 1);
    if (lua_getfield(L, mt, "__len") == LUA_TNIL) {
        lua_pushcfunction(L, rr_frozen_len);
        lua_setfield(L, mt, "__len");
    }
    lua_pop(L, 1);
    lua_pushboolean(L, 0);
    lua_setfield(L, mt, "__metatable");
    lua_pushvalue(L, contents);
    lua_rawsetp(L, mt, &rr_key_frozen);
    lua_pushstring(L, what);
    lua_rawsetp(L, mt, &rr_key_name);
    lua_setmetatable(L, idx);
    lua_pop(L, 1);                                 /* contents */
}

/* A table that holds metamethods (a class or a metatable). Frozen, it is an empty proxy, and Lua
   looks metamethods up raw in a metatable, so it could no longer act as one. */
static int rr_looks_like_metatable(lua_State *L, int idx) {
    static const char *const events[] = { "__index", "__newindex", "__call", "__tostring",
        "__eq", "__lt", "__le", "__add", "__concat", "__len", "__close", "__mode", NULL };
    for (const char *const *e = events; *e; e++) {
        lua_pushstring(L, *e);
        int t = lua_rawget(L, idx);
        lua_pop(L, 1);
        if (t != LUA_TNIL) return 1;
    }
    return 0;
}

/* Freezes the class (or metatable) at idx like any table, and keeps, hidden in the proxy's
   metatable, the metatable its objects get from `setmetatable(obj, Class)`: a copy of its
   "__" fields, whose `__metatable` is the class itself. So `getmetatable(obj) == Class`, the
   class's fields are read-only like those of every rule table, and nothing a rule can reach
   writes into the copy. */
static void rr_freeze_class(lua_State *L, int idx, const char *what) {
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    int acting = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        size_t len;
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : NULL;
        if (key && len > 2 && key[0] == '_' && key[1] == '_') {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, acting);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_pushliteral(L, "__metatable");
    int protected = lua_rawget(L, acting) != LUA_TNIL;   /* by the rule itself: it stays so */
    lua_pop(L, 1);
    if (!protected) {
        lua_pushliteral(L, "__metatable");
        lua_pushvalue(L, idx);
        lua_rawset(L, acting);
    }
    lua_pushboolean(L, !protected);                      /* whether its objects may change class */
    lua_rawsetp(L, acting, &rr_key_acting);
    rr_freeze_shallow(L, idx, what);
    lua_getmetatable(L, idx);
    lua_pushvalue(L, acting);
    lua_rawsetp(L, -2, &rr_key_acting);
    lua_pop(L, 2);
}

/* Whether the table at idx is the metatable objects of a frozen class get (frozen in effect). */
static int rr_is_acting_metatable(lua_State *L, int idx) {
    int acting = lua_rawgetp(L, idx, &rr_key_acting) == LUA_TBOOLEAN;
    lua_pop(L, 1);
    return acting;
}

/* Pushes the metatable that objects of the frozen class at idx get, or returns 0. */
static int rr_push_acting_metatable(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
    if (lua_rawgetp(L, -1, &rr_key_acting) == LUA_TTABLE) {   /* only a frozen class's proxy has one */
        lua_remove(L, -2);
        return 1;
    }
    lua_pop(L, 2);
    return 0;
}

/* The chunk name (as messages give it: the file) of the Lua function at idx, read into ar. */
static const char *rr_chunk_of(lua_State *L, int idx, lua_Debug *ar) {
    lua_pushvalue(L, idx);
    lua_getinfo(L, ">S", ar);
    return ar->source[0] == '@' || ar->source[0] == '=' ? ar->source + 1 : ar->short_src;
}

/* Raises the error of a closure at idx that keeps state (see rr_check_kept_closure), if it does. */
static void rr_refuse_kept_state(lua_State *L, int idx) {
    char message[512];
    int line = 0;
    lua_pushvalue(L, idx);
    int verdict = rr_check_kept_closure(L, &line, message, sizeof message);
    lua_pop(L, 1);
    if (verdict == 0) return;
    lua_Debug ar;
    const char *source = rr_chunk_of(L, idx, &ar);
    if (verdict > 0 && line > 0) lua_pushfstring(L, "%s:%d: %s", source, line, message);
    else lua_pushfstring(L, "%s: %s", source, message);
    rr_raise(L, RR_RAISE_KEEPS_STATE, 0);
}

/* Whether the C function at idx keeps state of its own: a closure with upvalues that is neither
   a function of the sandbox nor a host function (rr_record_host_functions). */
static int rr_is_kept_iterator(lua_State *L, int idx) {
    if (!lua_iscfunction(L, idx) || lua_getupvalue(L, idx, 1) == NULL) return 0;   /* light: keeps nothing */
    lua_pop(L, 1);
    if (lua_tocfunction(L, idx) == rr_trampoline) return 0;
    int known = 0;
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &rr_key_hostfns) == LUA_TTABLE) {
        lua_pushvalue(L, idx);
        known = lua_rawget(L, -2) != LUA_TNIL;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return !known;
}

/* Raises the error of an iterator kept past loading, named by the upvalue of the Lua function at
   `holder` that keeps it (holder 0: found in a table). */
static void rr_refuse_kept_iterator(lua_State *L, int holder, const char *upvalue) {
    static const char *const why = "an iterator made while the file loaded (by string.gmatch or pairs) "
        "would carry its position from one call to the next: rules keep no state between calls "
        "(make it inside the function that uses it)";
    lua_Debug ar;
    if (holder) {
        const char *source = rr_chunk_of(L, holder, &ar);
        lua_pushfstring(L, "%s:%d: the function defined at line %d keeps '%s': %s", source, ar.linedefined,
                        ar.linedefined, upvalue, why);
    } else {
        lua_pushfstring(L, "a table of the file keeps %s", why);
    }
    rr_raise(L, RR_RAISE_KEEPS_STATE, 0);
}

/* Freezes every table reachable from the value at idx: through keys, values, metatables and the
   upvalues of Lua functions. With check_state, refuses a Lua function that assigns one of its
   upvalues (they are all closed once the file has loaded, so kept between calls). Uses an
   explicit work list, so deep nesting cannot overflow the C stack. */
static void rr_freeze_reachable(lua_State *L, int idx, const char *what, int freeze_root, int check_state) {
    idx = lua_absindex(L, idx);
    lua_newtable(L); int seen = lua_gettop(L);
    lua_newtable(L); int work = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushvalue(L, idx); lua_rawseti(L, work, ++n);
    while (n > 0) {
        lua_rawgeti(L, work, n);
        lua_pushnil(L); lua_rawseti(L, work, n--);
        int v = lua_gettop(L);
        int t = lua_type(L, v);
        int visited = 1;
        if (t == LUA_TTABLE || t == LUA_TFUNCTION) {
            lua_pushvalue(L, v);
            visited = lua_rawget(L, seen) != LUA_TNIL;
            lua_pop(L, 1);
        }
        if (visited) {
            lua_settop(L, v - 1);
            continue;
        }
        lua_pushvalue(L, v); lua_pushboolean(L, 1); lua_rawset(L, seen);
        if (t == LUA_TFUNCTION) {
            if (check_state && rr_is_kept_iterator(L, v)) rr_refuse_kept_iterator(L, 0, NULL);
            if (!lua_iscfunction(L, v)) {
                if (check_state) rr_refuse_kept_state(L, v);
                const char *name;
                for (int i = 1; (name = lua_getupvalue(L, v, i)) != NULL; i++) {
                    int ut = lua_type(L, -1);
                    if (check_state && rr_is_kept_iterator(L, lua_gettop(L))) rr_refuse_kept_iterator(L, v, name);
                    if (ut == LUA_TTABLE || ut == LUA_TFUNCTION) lua_rawseti(L, work, ++n);
                    else lua_pop(L, 1);
                }
            }
        } else if (!rr_is_frozen(L, v) && !rr_is_acting_metatable(L, v)) {
            int is_root = lua_rawequal(L, v, idx);
            /* the metatable of an environment's globals is the sandbox's own: not the file's */
            if ((freeze_root || !is_root) && lua_getmetatable(L, v)) lua_rawseti(L, work, ++n);
            lua_pushnil(L);
            while (lua_next(L, v)) {
                int kt = lua_type(L, -2), vt = lua_type(L, -1);
                if (vt == LUA_TTABLE || vt == LUA_TFUNCTION) lua_rawseti(L, work, ++n);
                else lua_pop(L, 1);
                if (kt == LUA_TTABLE || kt == LUA_TFUNCTION) { lua_pushvalue(L, -1); lua_rawseti(L, work, ++n); }
            }
            if (freeze_root || !is_root) {
                if (rr_looks_like_metatable(L, v)) rr_freeze_class(L, v, what);
                else rr_freeze_shallow(L, v, what);
            }
        }
        lua_settop(L, v - 1);
    }
    lua_pop(L, 2);
}

int rr_freeze_deep(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    const char *what = luaL_optstring(L, 2, "this table");
    rr_freeze_reachable(L, 1, what, 1, 0);
    lua_settop(L, 1);
    return 1;
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

static int rr_tostring(lua_State *L) {
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
    rr_charge_sort(L, (double)n, 32.0);   /* rr_key_less, called through table.sort */
    if (n > 1) {
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

int rr_pcall(lua_State *L) {
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

int rr_xpcall(lua_State *L) {
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

int rr_rawset(lua_State *L) {
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

int rr_setmetatable(lua_State *L) {
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
    lua_pushcfunction(L, rr_setmetatable); lua_setfield(L, g, "setmetatable");
    lua_pushcfunction(L, rr_print);        lua_setfield(L, g, "print");
    lua_pushcfunction(L, rr_pairs);        lua_setfield(L, g, "pairs");
    lua_pushcfunction(L, rr_next);         lua_setfield(L, g, "next");
    lua_pushcfunction(L, rr_tostring);     lua_setfield(L, g, "tostring");

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

/* ---- per-file environments ---- */

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

int rr_reseed(lua_State *L) {
    lua_Integer seed = luaL_checkinteger(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &rr_key_randomseed);
    lua_pushinteger(L, seed);
    lua_call(L, 1, 0);
    return 0;
}

static int rr_input_newindex(lua_State *L) {
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
    luaL_where(L, 1);
    lua_pushfstring(L, "cannot set '%s': the tables the host passes to a rule are read-only", key);
    lua_concat(L, 2);
    return rr_raise(L, RR_RAISE_READONLY, 0);
}

void rr_fill_int_records(lua_State *L, int list, int elements, const int64_t *values, int n, int previous) {
    int key = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        if (lua_rawgeti(L, elements, i) != LUA_TTABLE) {
            lua_pop(L, 1);
            rr_push_input_table(L, 1);
            lua_pushvalue(L, -1);
            lua_rawseti(L, elements, i);
        }
        lua_pushvalue(L, key);
        lua_pushinteger(L, (lua_Integer)values[i - 1]);
        lua_rawset(L, -3);
        lua_rawseti(L, list, i);
    }
    for (int i = n + 1; i <= previous; i++) {
        lua_pushnil(L);
        lua_rawseti(L, list, i);
    }
    lua_pop(L, 1);
}

void rr_push_input_table(lua_State *L, int nrec) {
    lua_createtable(L, 0, nrec);
    lua_createtable(L, 0, 4);
    lua_pushcfunction(L, rr_input_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, -2);
    lua_rawsetp(L, -2, &rr_key_frozen);          /* read-only for rawset and setmetatable */
    lua_pushliteral(L, "a table passed in by the host");
    lua_rawsetp(L, -2, &rr_key_name);
    lua_setmetatable(L, -2);
}
