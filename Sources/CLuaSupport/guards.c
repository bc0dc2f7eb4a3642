/*
 * Guards for the library functions that run long in C, where the instruction hook cannot fire:
 * pattern matching (backtracking can take polynomial or exponential time), the functions that
 * build one large string at once (string.rep, table.concat), and metering: every string, table
 * and utf8 function is charged against the call's instruction budget by the size of the strings
 * and tables it is given (one instruction per 64 bytes of string, per 8 table entries), so that
 * a few instructions calling C on large data cannot run for minutes.
 */
#include "internal.h"
#include <math.h>
#include <string.h>

/* Where the set that starts at p (just after its '[') ends: after its ']'. */
static const char *rr_set_end(const char *p, const char *end) {
    if (p < end && *p == '^') p++;
    do {                                    /* a ']' right after '[' or '[^' belongs to the set */
        if (p >= end) return end;
        if (*p == '%' && p + 1 < end) p++;
        p++;
    } while (p < end && *p != ']');
    return p < end ? p + 1 : end;
}

/* Where the item that starts at p ends (p < end). Handles %x, %bxy, %f[set], [set] and single chars. */
static const char *rr_item_end(const char *p, const char *end) {
    if (*p == '%') {
        if (p + 1 >= end) return end;
        if (p[1] == 'b') return p + 4 <= end ? p + 4 : end;
        if (p[1] == 'f') return p + 2 < end && p[2] == '[' ? rr_set_end(p + 3, end) : p + 2;
        return p + 2;
    }
    if (*p == '[') return rr_set_end(p + 1, end);
    return p + 1;
}

/*
 * An upper bound of the steps Lua's backtracking matcher may take. Every `*`, `+` or `-` that is
 * followed by more pattern is a choice point that can try up to n+1 lengths; k of them together
 * can try C(n+k, k) combinations. `?` doubles the paths. %b scans up to n, and so does a
 * back-reference (%1-%9). Each unanchored start position repeats the whole search.
 */
double rr_pattern_cost(const char *p, size_t plen, size_t n, int anchored_allowed) {
    const char *end = p + plen;
    int anchored = 0;
    if (anchored_allowed && p < end && *p == '^') { anchored = 1; p++; }
    double cost = 1.0;
    int k = 0;
    double nn = (double)n;
    while (p < end) {
        char c = *p;
        if (c == '(' || c == ')') { p++; continue; }
        if (c == '$' && p + 1 == end) break;
        if (c == '%' && p + 1 < end && p[1] == 'b') cost *= nn + 1;          /* scans up to n */
        if (c == '%' && p + 1 < end && p[1] >= '1' && p[1] <= '9') cost *= nn + 1; /* compares up to n */
        const char *next = rr_item_end(p, end);
        if (next < end && (*next == '*' || *next == '+' || *next == '-' || *next == '?')) {
            int last = next + 1 >= end || (next + 2 == end && next[1] == '$');
            if (*next == '?') { if (!last) cost *= 2; }
            else if (!last) { k++; cost *= (nn + k) / k; }
            next++;
        }
        p = next;
    }
    double starts = anchored ? 1.0 : nn + 1;
    return starts * cost * (double)(plen + 1);
}

/* Charges `cost` instructions to the current call; raises the budget error when it runs out. */
static void rr_charge(lua_State *L, double cost) {
    rr_runtime *rt = rr_runtime_of(L);
    if (rt->budget <= 0 || cost < 1) return;
    int64_t n = cost > 9e18 ? (int64_t)9e18 : (int64_t)cost;
    rt->budget_remaining -= n;
    rt->instructions_total += n;
    if (rt->budget_remaining <= 0) {
        luaL_where(L, 1);
        lua_pushfstring(L, "instruction budget exceeded (%I instructions per call; library calls count the size "
                           "of the strings and tables they work on)", (lua_Integer)rt->budget);
        lua_concat(L, 2);
        rr_raise(L, RR_RAISE_BUDGET, 1);
    }
}

/* Charges for visiting `entries` table entries (one instruction per 8). */
void rr_charge_size(lua_State *L, double entries) {
    rr_charge(L, entries / 8.0);
}

/* The size of the arguments: string bytes / 64 + table entries / 8. */
static double rr_arguments_cost(lua_State *L) {
    double cost = 0;
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        int t = lua_type(L, i);
        if (t == LUA_TSTRING) {
            cost += (double)lua_rawlen(L, i) / 64.0;
        } else if (t == LUA_TTABLE) {
            rr_push_contents(L, i);
            cost += (double)lua_rawlen(L, -1) / 8.0;
            lua_pop(L, 1);
        }
    }
    return cost;
}

/* Runs the original library function (upvalue 1) in this same Lua call frame, so that its
   errors name the rule's line (a lua_call would add a C frame between them). The standard
   library's functions have no upvalues of their own, so calling them directly is safe. */
static int rr_call_original(lua_State *L) {
    lua_CFunction original = lua_tocfunction(L, lua_upvalueindex(1));
    return original(L);
}

/* Calls the original function after charging for its arguments. */
static int rr_metered(lua_State *L) {
    rr_charge(L, rr_arguments_cost(L));
    return rr_call_original(L);
}

static int rr_guarded_match(lua_State *L, const char *fname, int anchored_allowed, int plain_arg) {
    rr_runtime *rt = rr_runtime_of(L);
    rr_charge(L, rr_arguments_cost(L));
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    (void)s;
    int plain = plain_arg > 0 && lua_toboolean(L, plain_arg);
    if (!plain) {
        if (rt->pattern_max_length > 0 && lp > rt->pattern_max_length) {
            luaL_where(L, 1);
            lua_pushfstring(L, "%s: pattern of %I bytes is longer than the %I allowed",
                            fname, (lua_Integer)lp, (lua_Integer)rt->pattern_max_length);
            lua_concat(L, 2);
            return rr_raise(L, RR_RAISE_PATTERN, 0);
        }
        double cost = rr_pattern_cost(p, lp, ls, anchored_allowed);
        if (rt->pattern_step_limit > 0 && cost > rt->pattern_step_limit) {
            luaL_where(L, 1);
            lua_pushfstring(L, "%s: pattern '%s' could backtrack for about %f steps on a subject of "
                               "%I bytes (at most %f allowed); use a simpler pattern or a shorter subject",
                            fname, p, (lua_Number)cost, (lua_Integer)ls, (lua_Number)rt->pattern_step_limit);
            lua_concat(L, 2);
            return rr_raise(L, RR_RAISE_PATTERN, 0);
        }
    }
    return rr_call_original(L);
}

static int rr_find(lua_State *L)   { return rr_guarded_match(L, "string.find", 1, 4); }
static int rr_match(lua_State *L)  { return rr_guarded_match(L, "string.match", 1, 0); }
static int rr_gmatch(lua_State *L) { return rr_guarded_match(L, "string.gmatch", 0, 0); }  /* '^' is no anchor there */
static int rr_gsub(lua_State *L)   { return rr_guarded_match(L, "string.gsub", 1, 0); }

static int rr_too_big(lua_State *L, const char *fname, double bytes) {
    rr_runtime *rt = rr_runtime_of(L);
    luaL_where(L, 1);
    lua_pushfstring(L, "%s: the result would take %f bytes, more than the memory limit allows "
                       "(%I bytes, %I in use)", fname, (lua_Number)bytes,
                    (lua_Integer)rt->mem_limit, (lua_Integer)rt->mem_used);
    lua_concat(L, 2);
    return rr_raise(L, RR_RAISE_MEMORY, 0);
}

static double rr_room(rr_runtime *rt) {
    if (rt->mem_limit == 0) return INFINITY;
    return rt->mem_used >= rt->mem_limit ? 0.0 : (double)(rt->mem_limit - rt->mem_used);
}

static int rr_rep(lua_State *L) {
    size_t l, lsep = 0;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n > 0) {
        double bytes = (double)n * (double)l + (double)(n - 1) * (double)lsep;
        if (bytes > rr_room(rr_runtime_of(L))) return rr_too_big(L, "string.rep", bytes);
        rr_charge(L, bytes / 64.0);
    }
    return rr_call_original(L);
}

static int rr_concat(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    size_t lsep = 0;
    luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    lua_Integer last = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
    double bytes = 0;
    double room = rr_room(rr_runtime_of(L));
    for (lua_Integer k = i; k <= last && bytes <= room; k++) {
        lua_geti(L, 1, k);
        size_t len = 0;
        if (lua_type(L, -1) == LUA_TSTRING) lua_tolstring(L, -1, &len);
        else len = 32;  /* numbers; anything else fails in table.concat itself */
        lua_pop(L, 1);
        bytes += (double)len + (k < last ? (double)lsep : 0);
        if (k == LUA_MAXINTEGER) break;
    }
    if (bytes > room) return rr_too_big(L, "table.concat", bytes);
    rr_charge(L, bytes / 64.0 + (double)(last >= i ? last - i + 1 : 0) / 8.0);
    return rr_call_original(L);
}

/* string.format without addresses: `%p` is refused and a table or function given to `%s` is
   written as `tostring` writes it (rr_push_tostring); Lua would print its address, which differs
   from one run to the next. */
static int rr_format(lua_State *L) {
    size_t len;
    const char *f = luaL_checklstring(L, 1, &len);
    int arg = 1, top = lua_gettop(L);
    for (size_t i = 0; i < len; i++) {
        if (f[i] != '%') continue;
        if (++i < len && f[i] == '%') continue;
        while (i < len && strchr("-+ #0123456789.", f[i])) i++;   /* flags, width, precision */
        if (i >= len) break;                                     /* Lua reports it */
        arg++;
        if (f[i] == 'p')
            return luaL_error(L, "string.format: '%%p' is not available in rules "
                                 "(an address differs from one run to the next)");
        if (f[i] == 's' && arg <= top) {
            int t = lua_type(L, arg);
            if (t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD || t == LUA_TLIGHTUSERDATA) {
                rr_push_tostring(L, arg);
                lua_replace(L, arg);
            }
        }
    }
    rr_charge(L, rr_arguments_cost(L));
    return rr_call_original(L);
}

static void rr_wrap(lua_State *L, int lib, const char *name, lua_CFunction f) {
    lua_getfield(L, lib, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, lib, name);
}

/* Wraps every plain C function of the library at `lib` in the meter (the guards above are
   closures, already charging for their work). */
static void rr_meter_library(lua_State *L, int lib) {
    lua_pushnil(L);
    while (lua_next(L, lib)) {                       /* key value */
        if (lua_type(L, -2) == LUA_TSTRING && lua_iscfunction(L, -1)) {
            int guarded = lua_getupvalue(L, -1, 1) != NULL;
            if (guarded) {
                lua_pop(L, 1);                       /* the guard's upvalue */
            } else {
                lua_pushvalue(L, -2);                /* key value key */
                lua_pushvalue(L, -2);                /* key value key value */
                lua_pushcclosure(L, rr_metered, 1);  /* key value key metered */
                lua_rawset(L, lib);                  /* replacing an existing field during traversal is allowed */
            }
        }
        lua_pop(L, 1);                               /* key */
    }
}

void rr_install_string_guards(lua_State *L, int strlib) {
    rr_wrap(L, strlib, "find", rr_find);
    rr_wrap(L, strlib, "format", rr_format);
    rr_wrap(L, strlib, "match", rr_match);
    rr_wrap(L, strlib, "gmatch", rr_gmatch);
    rr_wrap(L, strlib, "gsub", rr_gsub);
    rr_wrap(L, strlib, "rep", rr_rep);
    rr_meter_library(L, strlib);
}

void rr_install_table_guards(lua_State *L, int tablib) {
    rr_wrap(L, tablib, "concat", rr_concat);
    rr_meter_library(L, tablib);
}

void rr_install_utf8_guards(lua_State *L, int utf8lib) {
    rr_meter_library(L, utf8lib);
}
