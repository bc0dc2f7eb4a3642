/*
 * Layer 3. Making tables read-only: freezing a table in place (its contents move behind an empty
 * proxy), classes whose objects keep working, freezing everything a loaded file can reach (and
 * refusing there what would keep state between calls), and the tables the host passes to rules
 * (input tables; kept tables, which count the writes of rules; views, which record their reads).
 * Calls runtime.c, host.c, tables.c and statecheck.c (see internal.h for the order).
 */
#include "internal.h"
#include <string.h>

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
int rr_push_acting_metatable(lua_State *L, int idx) {
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
void rr_freeze_reachable(lua_State *L, int idx, const char *what, int freeze_root, int check_state) {
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

static int rr_input_newindex(lua_State *L) {
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
    luaL_where(L, 1);
    lua_pushfstring(L, "cannot set '%s': the tables the host passes to a rule are read-only", key);
    lua_concat(L, 2);
    return rr_raise(L, RR_RAISE_READONLY, 0);
}

/* __newindex of a kept table: upvalue 1 its contents. A field it has is set there (and counted in
   rt->args_written: the host then fills every kept table again); a new one is refused, as an input
   table refuses it. */
static int rr_kept_newindex(lua_State *L) {
    lua_settop(L, 3);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) == LUA_TNIL) {
        lua_settop(L, 3);
        return rr_input_newindex(L);
    }
    lua_pop(L, 1);
    lua_rawset(L, lua_upvalueindex(1));
    rr_runtime_of(L)->args_written++;
    return 0;
}

/* What views and kept tables share: pushes an empty proxy, its contents and its metatable, which
   holds `pairs` and `len`, no metatable for rules, the contents (for rr_push_contents; and
   read-only for rawset and setmetatable) and the name for messages. The caller adds __index,
   __newindex and its rr_key_view, then sets the metatable. */
static void rr_push_argument_proxy(lua_State *L, int narr, int nrec, lua_CFunction pairs, lua_CFunction len) {
    lua_createtable(L, 0, 0);                     /* the proxy */
    lua_createtable(L, narr, nrec);               /* contents */
    lua_createtable(L, 0, 9);
    lua_pushcfunction(L, len);
    lua_setfield(L, -2, "__len");
    lua_pushcfunction(L, pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, -2);
    lua_rawsetp(L, -2, &rr_key_frozen);
    lua_pushliteral(L, "a table passed in by the host");
    lua_rawsetp(L, -2, &rr_key_name);
}

void rr_push_kept_table(lua_State *L, int narr, int nrec) {
    rr_push_argument_proxy(L, narr, nrec, rr_frozen_pairs, rr_frozen_len);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, rr_kept_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 1);
    lua_rawsetp(L, -2, &rr_key_view);
    lua_setmetatable(L, -3);
    lua_pop(L, 1);                                 /* contents */
}

void rr_fill_int_records(lua_State *L, int list, int elements, const int64_t *values, int n, int previous,
                         const int64_t *kept, int nkept) {
    int key = lua_gettop(L);
    rr_push_contents(L, list);
    int slots = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        if (i <= nkept && kept[i - 1] == values[i - 1]) continue;   /* its table still holds it */
        if (lua_rawgeti(L, elements, i) != LUA_TTABLE) {
            lua_pop(L, 1);
            rr_push_kept_table(L, 0, 1);
            lua_pushvalue(L, -1);
            lua_rawseti(L, elements, i);
        }
        rr_push_contents(L, -1);
        lua_pushvalue(L, key);
        lua_pushinteger(L, (lua_Integer)values[i - 1]);
        lua_rawset(L, -3);
        lua_pop(L, 1);
        lua_rawseti(L, slots, i);
    }
    for (int i = n + 1; i <= previous; i++) {
        lua_pushnil(L);
        lua_rawseti(L, slots, i);
    }
    lua_settop(L, key - 1);
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

/* ---- views: a record whose reads are recorded ---- */

/* __index of a view: upvalue 1 its contents, upvalue 2 its declared fields (name -> bit). The
   value is the contents' own (nil for a field the host did not write); a field not declared marks
   every field read, whether it has a value or not. */
static int rr_view_index(lua_State *L) {
    rr_runtime *rt = rr_runtime_of(L);
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TNUMBER) rt->view_reads |= (uint64_t)1 << lua_tointeger(L, 3);
    else rt->view_reads = RR_VIEW_ALL;
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
}

/* pairs over a view reads every field: the sandbox's pairs over its contents. */
static int rr_view_pairs(lua_State *L) {
    rr_read_through_view(L, 1);
    return rr_pairs(L);
}

static int rr_view_len(lua_State *L) {
    rr_runtime_of(L)->view_reads = RR_VIEW_ALL;
    return rr_frozen_len(L);
}

void rr_push_view_table(lua_State *L, int nrec) {
    rr_push_argument_proxy(L, 0, nrec, rr_view_pairs, rr_view_len);
    int mt = lua_gettop(L), contents = mt - 1, proxy = mt - 2;
    lua_createtable(L, 0, nrec);                  /* declared fields */
    lua_pushvalue(L, contents);
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, rr_view_index, 2);
    lua_setfield(L, mt, "__index");
    lua_rawsetp(L, mt, &rr_key_view);             /* the declared fields */
    lua_pushcfunction(L, rr_input_newindex);
    lua_setfield(L, mt, "__newindex");
    lua_setmetatable(L, proxy);
    lua_settop(L, proxy);
}

void rr_view_declare(lua_State *L, int view, int bit) {
    view = lua_absindex(L, view);
    if (!lua_getmetatable(L, view)) { lua_pop(L, 1); return; }
    lua_rawgetp(L, -1, &rr_key_view);             /* name mt fields */
    lua_pushvalue(L, -3);
    lua_pushinteger(L, bit);
    lua_rawset(L, -3);
    lua_pop(L, 3);
}

