/*
 * Layer 3. Explaining a call: which knobs and params it read, the notes it attached (`note`, the
 * one function here a rule calls whether explained or not: it then only checks its argument).
 * While explaining (never otherwise), the frozen tables of the rule files, and the params table of
 * each record the host writes, read their contents through a C closure instead of a table: rules
 * see the same values (the closure does what the table __index did), no Lua instruction runs and
 * the read allocates nothing in Lua, so results and budgets are those of a call not explained —
 * but for one thing: calling the closure may need one more call frame (CallInfo) than Lua has
 * cached, which it allocates (72 bytes, charged 68 instructions) and keeps for the next calls. A
 * read, or a note, is recorded in the runtime's own buffers (malloc'd, outside the Lua allocator)
 * only while rt->trace_reads is set, that is during a call the host explains. (The line the call
 * returns from is kept by the line hook, budget.c, from the level rr_trace_reads_begin notes.)
 * Calls tables.c (rr_is_frozen, rr_push_contents) and runtime.c.
 */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Registry: the set (weak keys) of the frozen tables already made to report their reads. */
static const char rr_key_traced = 0;

static int rr_is_identifier(const char *s, size_t n) {
    if (n == 0 || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'))) return 0;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return 0;
    }
    return 1;
}

/* The key at idx as it follows a path: `.name`, `[2]`, `["a b"]`, `[true]`. Never converts the key
   in place (lua_tostring on a number would allocate). */
static void rr_format_key(lua_State *L, int idx, char *out, size_t capacity) {
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        if (rr_is_identifier(s, n)) snprintf(out, capacity, ".%.*s", (int)n, s);
        else snprintf(out, capacity, "[\"%.*s\"]", (int)(n > 60 ? 60 : n), s);
        break;
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(out, capacity, "[%lld]", (long long)lua_tointeger(L, idx));
        else snprintf(out, capacity, "[%.17g]", (double)lua_tonumber(L, idx));
        break;
    case LUA_TBOOLEAN: snprintf(out, capacity, "[%s]", lua_toboolean(L, idx) ? "true" : "false"); break;
    default: snprintf(out, capacity, "[%s]", lua_typename(L, lua_type(L, idx))); break;
    }
}

/* Records the read of key (giving value) in the table named by the string at `path`: a knob
   (`escalation.max_tier`), or with is_param a param, named by its key alone (`freeze_max`). */
static void rr_record_read(lua_State *L, rr_runtime *rt, int path, int key, int value, int is_param) {
    if (rt->reads_count >= RR_TRACE_MAX_READS) {
        rt->reads_dropped++;
        return;
    }
    if (rt->reads_count == rt->reads_capacity) {
        int capacity = rt->reads_capacity ? rt->reads_capacity * 2 : 16;
        if (capacity > RR_TRACE_MAX_READS) capacity = RR_TRACE_MAX_READS;
        rr_knob_read *grown = realloc(rt->reads, (size_t)capacity * sizeof *grown);
        if (!grown) {
            rt->reads_dropped++;
            return;
        }
        rt->reads = grown;
        rt->reads_capacity = capacity;
    }
    rr_knob_read *r = &rt->reads[rt->reads_count++];
    char suffix[RR_TRACE_NAME_BYTES];
    rr_format_key(L, key, suffix, sizeof suffix);
    if (is_param) snprintf(r->name, sizeof r->name, "%s", suffix[0] == '.' ? suffix + 1 : suffix);
    else snprintf(r->name, sizeof r->name, "%s%s", lua_tostring(L, path), suffix);
    r->type = lua_type(L, value);
    r->is_integer = 0;
    r->cut = 0;
    r->is_param = is_param;
    r->text[0] = 0;
    switch (r->type) {
    case LUA_TBOOLEAN: snprintf(r->text, sizeof r->text, "%s", lua_toboolean(L, value) ? "true" : "false"); break;
    case LUA_TNUMBER:
        r->is_integer = lua_isinteger(L, value);
        if (r->is_integer) snprintf(r->text, sizeof r->text, "%lld", (long long)lua_tointeger(L, value));
        else snprintf(r->text, sizeof r->text, "%.17g", (double)lua_tonumber(L, value));
        break;
    case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, value, &n);
        if (n >= sizeof r->text) {
            n = sizeof r->text - 1;
            while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;   /* not inside a UTF-8 sequence */
            r->cut = 1;
        }
        memcpy(r->text, s, n);
        r->text[n] = 0;
        break;
    }
    default: break;
    }
}

/* __index of a traced frozen table: upvalue 1 its contents, upvalue 2 its path. */
static int rr_traced_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    lua_gettable(L, lua_upvalueindex(1));   /* what the contents table as __index gave */
    rr_runtime *rt = rr_runtime_of(L);
    if (rt->trace_reads) {
        int t = lua_type(L, 3);
        if (t != LUA_TTABLE && t != LUA_TFUNCTION) rr_record_read(L, rt, lua_upvalueindex(2), 2, 3, 0);
    }
    return 1;
}

/* __index of a traced params table: upvalue 1 its contents. */
static int rr_traced_param_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    rr_runtime *rt = rr_runtime_of(L);
    if (rt->trace_reads) {
        int t = lua_type(L, 3);
        if (t != LUA_TTABLE && t != LUA_TFUNCTION) rr_record_read(L, rt, 0, 2, 3, 1);
    }
    return 1;
}

/* __newindex of a writable traced params table: upvalue 1 its contents, which take any field, as
   the plain table a rule gets when not explaining does. */
static int rr_traced_param_newindex(lua_State *L) {
    lua_settop(L, 3);
    lua_rawset(L, lua_upvalueindex(1));
    return 0;
}

void rr_trace_params(lua_State *L, int idx, int writable) {
    idx = lua_absindex(L, idx);
    if (!lua_getmetatable(L, idx)) return;
    int mt = lua_gettop(L);
    if (lua_rawgetp(L, mt, &rr_key_frozen) != LUA_TTABLE) {
        lua_settop(L, mt - 1);
        return;
    }
    int contents = lua_gettop(L);
    lua_pushliteral(L, "__index");
    lua_pushvalue(L, contents);
    lua_pushcclosure(L, rr_traced_param_index, 1);
    lua_rawset(L, mt);
    if (writable) {
        lua_pushliteral(L, "__newindex");
        lua_pushvalue(L, contents);
        lua_pushcclosure(L, rr_traced_param_newindex, 1);
        lua_rawset(L, mt);
    }
    lua_settop(L, mt - 1);
}

int rr_add_note(lua_State *L) {
    if (lua_type(L, 1) != LUA_TSTRING) {
        const char *found = lua_isnone(L, 1) ? "no value" : luaL_typename(L, 1);
        return luaL_error(L, "note: expected a string (the note's text), found %s", found);
    }
    rr_runtime *rt = rr_runtime_of(L);
    if (!rt->trace_reads) return 0;
    if (rt->notes_count >= RR_TRACE_MAX_NOTES) {
        rt->notes_dropped++;
        return 0;
    }
    if (!rt->notes) {
        rt->notes = malloc(RR_TRACE_MAX_NOTES * sizeof *rt->notes);
        if (!rt->notes) {
            rt->notes_dropped++;
            return 0;
        }
    }
    rr_note *note = &rt->notes[rt->notes_count++];
    size_t n;
    const char *s = lua_tolstring(L, 1, &n);
    note->cut = 0;
    if (n > RR_TRACE_NOTE_BYTES) {
        n = RR_TRACE_NOTE_BYTES;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;   /* not inside a UTF-8 sequence */
        note->cut = 1;
    }
    memcpy(note->text, s, n);
    note->length = (int)n;
    return 0;
}

int rr_trace_knobs(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TSTRING);
    lua_settop(L, 2);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &rr_key_traced) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_rawsetp(L, LUA_REGISTRYINDEX, &rr_key_traced);
    }
    int traced = 3;
    lua_newtable(L); int work = 4;        /* a queue of {table, path}: the shortest path names a table */
    lua_Integer head = 1, tail = 0;
    lua_pushvalue(L, 1); lua_rawseti(L, work, ++tail);
    lua_pushvalue(L, 2); lua_rawseti(L, work, ++tail);
    while (head < tail) {
        lua_rawgeti(L, work, head++); int t = lua_gettop(L);
        lua_rawgeti(L, work, head++); int path = lua_gettop(L);
        lua_pushvalue(L, t);
        int seen = lua_rawget(L, traced) != LUA_TNIL;
        lua_pop(L, 1);
        if (seen || !rr_is_frozen(L, t)) {
            lua_settop(L, work);
            continue;
        }
        lua_pushvalue(L, t); lua_pushboolean(L, 1); lua_rawset(L, traced);
        lua_getmetatable(L, t); int mt = lua_gettop(L);
        rr_push_contents(L, t); int contents = lua_gettop(L);
        lua_pushliteral(L, "__index");
        lua_rawget(L, mt);
        if (lua_rawequal(L, -1, contents)) {   /* a plain frozen table (a class keeps its own __index) */
            lua_pushliteral(L, "__index");
            lua_pushvalue(L, contents);
            lua_pushvalue(L, path);
            lua_pushcclosure(L, rr_traced_index, 2);
            lua_rawset(L, mt);
        }
        lua_pop(L, 1);
        lua_pushnil(L);
        while (lua_next(L, contents)) {
            if (lua_type(L, -1) == LUA_TTABLE) {
                char suffix[RR_TRACE_NAME_BYTES];
                rr_format_key(L, -2, suffix, sizeof suffix);
                lua_rawseti(L, work, ++tail);
                lua_pushfstring(L, "%s%s", lua_tostring(L, path), suffix);
                lua_rawseti(L, work, ++tail);
            } else {
                lua_pop(L, 1);
            }
        }
        lua_settop(L, work);
    }
    return 0;
}

void rr_trace_reads_begin(rr_runtime *rt) {
    rt->reads_count = 0;
    rt->reads_dropped = 0;
    rt->notes_count = 0;
    rt->notes_dropped = 0;
    rt->return_line = 0;
    lua_Debug ar;
    int level = 0;
    while (lua_getstack(rt->L, level, &ar)) level++;
    rt->trace_level = level;
    rt->trace_reads = 1;
}

void rr_trace_reads_end(rr_runtime *rt) { rt->trace_reads = 0; }
