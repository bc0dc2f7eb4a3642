/*
 * Guards for the library functions that run long in C, where the instruction hook cannot fire:
 * pattern matching (backtracking can take polynomial or exponential time), the functions that
 * build one large string at once (string.rep, table.concat), and metering: every string, table
 * and utf8 function is charged against the call's instruction budget by the size of the strings
 * and tables it is given (one instruction per 64 bytes of string, per 8 table entries), so that
 * a few instructions calling C on large data cannot run for minutes.
 *
 * Layer 3: calls runtime.c, budget.c and tables.c (see internal.h for the order); installed by
 * sandbox.c.
 */
#include "internal.h"
#include <ctype.h>
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

/* Lua's character classes (%a, %d, ...), as lstrlib.c's match_class tests them. */
static int rr_class_match(int c, int cl) {
    int res;
    switch (tolower(cl)) {
        case 'a': res = isalpha(c); break;
        case 'c': res = iscntrl(c); break;
        case 'd': res = isdigit(c); break;
        case 'g': res = isgraph(c); break;
        case 'l': res = islower(c); break;
        case 'p': res = ispunct(c); break;
        case 's': res = isspace(c); break;
        case 'u': res = isupper(c); break;
        case 'w': res = isalnum(c); break;
        case 'x': res = isxdigit(c); break;
        default: return cl == c;
    }
    if (isupper(cl)) res = !res;
    return res != 0;
}

/* Whether byte c matches the single-character item [p, ep): a literal, '.', %x or a [set]. */
static int rr_single_match(int c, const char *p, const char *ep) {
    if (*p == '.') return 1;
    if (*p == '%') return p + 1 < ep ? rr_class_match(c, (unsigned char)p[1]) : 1;
    if (*p == '[') {
        const char *ec = ep - 1;                     /* the set's ']' */
        int sig = 1;
        if (p + 1 < ec && p[1] == '^') { sig = 0; p++; }
        while (++p < ec) {
            if (*p == '%') {
                p++;
                if (rr_class_match(c, (unsigned char)*p)) return sig;
            } else if (p + 2 < ec && p[1] == '-') {
                p += 2;
                if ((unsigned char)p[-2] <= c && c <= (unsigned char)*p) return sig;
            } else if ((unsigned char)*p == c) {
                return sig;
            }
        }
        return !sig;
    }
    return (unsigned char)*p == c;
}

/* Whether no byte matches both single-character items. */
static int rr_disjoint(const char *a, const char *aend, const char *b, const char *bend) {
    for (int c = 0; c < 256; c++)
        if (rr_single_match(c, a, aend) && rr_single_match(c, b, bend)) return 0;
    return 1;
}

/* What follows a repetition, after any '(' and ')' (captures consume nothing). */
enum { RR_FOLLOW_NOTHING, RR_FOLLOW_END, RR_FOLLOW_DISJOINT, RR_FOLLOW_OTHER };

static int rr_follower(const char *item, const char *item_end, const char *r, const char *end) {
    while (r < end && (*r == '(' || *r == ')')) r++;
    if (r == end) return RR_FOLLOW_NOTHING;
    if (*r == '$' && r + 1 == end) return RR_FOLLOW_END;
    if (*r == '%' && (r + 1 >= end || r[1] == 'b' || r[1] == 'f' || (r[1] >= '0' && r[1] <= '9')))
        return RR_FOLLOW_OTHER;
    const char *rend = rr_item_end(r, end);
    if (rend < end && (*rend == '*' || *rend == '-' || *rend == '?')) return RR_FOLLOW_OTHER;  /* may match empty */
    if (*r == '[' && (rend - r < 3 || rend[-1] != ']')) return RR_FOLLOW_OTHER;                  /* malformed set */
    if (*item == '[' && (item_end - item < 3 || item_end[-1] != ']')) return RR_FOLLOW_OTHER;
    return rr_disjoint(item, item_end, r, rend) ? RR_FOLLOW_DISJOINT : RR_FOLLOW_OTHER;
}

/*
 * An upper bound of the steps Lua's backtracking matcher may take (each step costing at most a
 * pass over the pattern, for sets: the factor plen + 1).
 *
 * A repetition (`*`, `+`, `-`) of a single-character item X tries up to n+1 lengths. It is a
 * choice point when what follows can match after any of them; k choice points together can try
 * C(n+k, k) combinations of lengths (their sum is at most n), and `?` doubles the paths. When what
 * follows must start with a character X cannot match (`%d+:`, `[^,]*,`), only the longest run can
 * go on: the others fail at once, so the repetition costs a scan of up to n+1 characters on each
 * path instead of multiplying the paths. The same holds before a final `$`, which each length
 * tests once: `a*$` scans the rest of the subject from every start position, n²/2 steps when the
 * search is unanchored. A repetition with nothing after it always succeeds, so its scan happens
 * once per match, and matches do not overlap: it adds n+1 to the whole search. %b scans up to n,
 * and so does a back-reference (%1-%9). Each unanchored start position repeats the whole search.
 */
double rr_pattern_cost(const char *p, size_t plen, size_t n, int anchored_allowed) {
    const char *end = p + plen;
    int anchored = 0;
    if (anchored_allowed && p < end && *p == '^') { anchored = 1; p++; }
    double nn = (double)n;
    double paths = 1.0;     /* combinations of choices */
    double scans = 0;       /* items that scan up to n+1 characters on each path */
    double final_scan = 0;  /* a last repetition's scan, once per match */
    int k = 0;
    while (p < end) {
        char c = *p;
        if (c == '(' || c == ')') { p++; continue; }
        if (c == '$' && p + 1 == end) break;
        if (c == '%' && p + 1 < end && (p[1] == 'b' || (p[1] >= '0' && p[1] <= '9'))) {
            scans += 1;                                 /* scans or compares up to n, no choice */
            p = rr_item_end(p, end);
            continue;
        }
        if (c == '%' && p + 1 < end && p[1] == 'f') { p = rr_item_end(p, end); continue; }
        const char *next = rr_item_end(p, end);
        if (next < end && *next == '?') {
            int last = next + 1 >= end || (next + 2 == end && next[1] == '$');
            if (!last) paths *= 2;
            p = next + 1;
            continue;
        }
        if (next < end && (*next == '*' || *next == '+' || *next == '-')) {
            switch (rr_follower(p, next, next + 1, end)) {
                case RR_FOLLOW_NOTHING:  final_scan = nn + 1; break;
                case RR_FOLLOW_END:
                case RR_FOLLOW_DISJOINT: scans += 1; break;
                default:                 k++; paths *= (nn + k) / k; break;
            }
            p = next + 1;
            continue;
        }
        p = next;
    }
    double starts = anchored ? 1.0 : nn + 1;
    double step = (double)(plen + 1);
    return starts * paths * step * (1.0 + scans * (nn + 1)) + final_scan * step;
}

/* The size of the arguments: string bytes / bytes_per_instruction + table entries / 8. A function
   that goes through every byte of its strings in C (upper, reverse, utf8.len, format's %s) takes
   about a nanosecond a byte, half an instruction: RR_SCANNED_BYTES. One that copies or looks
   at a part of them (len, sub, byte, the subject of a pattern, which is charged for its scan):
   RR_COPIED_BYTES. */
#define RR_SCANNED_BYTES 2.0
#define RR_COPIED_BYTES 64.0
/* A call of a library function written in C costs 25 ns or more (string.format 100 to 300 ns),
   the time of ten instructions: each call costs RR_LIBRARY_CALL_COST, each value it returns
   RR_RESULT_COST, and each conversion of a format RR_FORMAT_ITEM_COST more. */
#define RR_LIBRARY_CALL_COST 16.0
#define RR_RESULT_COST 8.0
#define RR_FORMAT_ITEM_COST 16.0
static double rr_arguments_cost(lua_State *L, double bytes_per_instruction) {
    double cost = RR_LIBRARY_CALL_COST;
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        int t = lua_type(L, i);
        if (t == LUA_TSTRING) {
            cost += (double)lua_rawlen(L, i) / bytes_per_instruction;
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

/* Calls the original function after charging for its arguments, then charges one instruction for
   each value it returns (string.byte(s, 1, -1), string.unpack and utf8.codepoint return one per
   byte or field). */
static int rr_metered(lua_State *L) {
    rr_charge(L, rr_arguments_cost(L, RR_SCANNED_BYTES));
    int n = rr_call_original(L);
    rr_charge(L, (double)n * RR_RESULT_COST);
    return n;
}

/* The same for the functions that only look at part of their strings (string.len, sub, byte, char). */
static int rr_metered_light(lua_State *L) {
    rr_charge(L, rr_arguments_cost(L, RR_COPIED_BYTES));
    int n = rr_call_original(L);
    rr_charge(L, (double)n * RR_RESULT_COST);
    return n;
}

/* lstrlib.c's posrelatI: a start position (1-based, negative from the end) clipped to 1. */
static size_t rr_start_index(lua_Integer pos, size_t len) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

/* Whether a pattern has none of the characters that make it a pattern (string.find then does a
   plain search, as lstrlib.c's nospecials decides). */
static int rr_no_specials(const char *p, size_t lp) {
    for (size_t i = 0; i < lp; i++)
        if (p[i] != '\0' && strchr("^$*+?.([%-", p[i])) return 0;
    return 1;
}

/*
 * string.find's plain search, done here as Lua's lmemfind does it (memchr for the first byte, then
 * memcmp of the rest), but charged as it goes: every place where the first byte occurs costs one
 * instruction and one per 64 bytes of the memcmp (lp - 1). Finding the first bytes costs no more
 * than the subject's size, already charged. So the search costs what it does — at worst
 * (ls - lp + 1) · lp bytes compared, `string.rep("a", 1 << 20):find(string.rep("a", 1 << 19) .. "b",
 * 1, true)` — rather than nothing, and it stops at the budget (or at the pattern step limit).
 */
static int rr_plain_find(lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    rr_runtime *rt = rr_runtime_of(L);
    size_t init = rr_start_index(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) { lua_pushnil(L); return 1; }
    if (lp == 0) {
        lua_pushinteger(L, (lua_Integer)init + 1);
        lua_pushinteger(L, (lua_Integer)init);
        return 2;
    }
    if (lp > ls - init) { lua_pushnil(L); return 1; }
    const char *s1 = s + init;
    size_t l1 = ls - init - (lp - 1);
    double per_candidate = 1.0 + (double)(lp - 1) / 64.0;
    double pending = 0, steps = 0;
    const char *hit = NULL;
    while (l1 > 0 && (hit = memchr(s1, p[0], l1)) != NULL) {
        pending += per_candidate;
        if (pending >= 4096) {
            rr_charge(L, pending);
            steps += pending;
            pending = 0;
            if (rt->pattern_step_limit > 0 && steps > rt->pattern_step_limit) {
                luaL_where(L, 1);
                lua_pushfstring(L, "string.find: a plain search for %I bytes in a subject of %I bytes took more "
                                   "than %f steps (at most %f allowed); use a shorter string or subject",
                                (lua_Integer)lp, (lua_Integer)ls, (lua_Number)steps,
                                (lua_Number)rt->pattern_step_limit);
                lua_concat(L, 2);
                return rr_raise(L, RR_RAISE_PATTERN, 0);
            }
        }
        if (memcmp(hit + 1, p + 1, lp - 1) == 0) break;
        l1 -= (size_t)(hit + 1 - s1);
        s1 = hit + 1;
        hit = NULL;
    }
    rr_charge(L, pending);
    if (hit == NULL) { lua_pushnil(L); return 1; }
    lua_pushinteger(L, (lua_Integer)(hit - s) + 1);
    lua_pushinteger(L, (lua_Integer)(hit - s) + (lua_Integer)lp);
    return 2;
}

static int rr_guarded_match(lua_State *L, const char *fname, int anchored_allowed, int plain_arg) {
    rr_runtime *rt = rr_runtime_of(L);
    rr_charge(L, rr_arguments_cost(L, RR_COPIED_BYTES));
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int plain = plain_arg > 0 && lua_toboolean(L, plain_arg);
    if (plain) return rr_plain_find(L, s, ls, p, lp);
    if (rt->pattern_max_length > 0 && lp > rt->pattern_max_length) {
        luaL_where(L, 1);
        lua_pushfstring(L, "%s: pattern of %I bytes is longer than the %I allowed",
                        fname, (lua_Integer)lp, (lua_Integer)rt->pattern_max_length);
        lua_concat(L, 2);
        return rr_raise(L, RR_RAISE_PATTERN, 0);
    }
    if (plain_arg > 0 && rr_no_specials(p, lp)) return rr_plain_find(L, s, ls, p, lp);  /* find: Lua searches plainly too */
    double cost = rr_pattern_cost(p, lp, ls, anchored_allowed);
    if (rt->pattern_step_limit > 0 && cost > rt->pattern_step_limit) {
        luaL_where(L, 1);
        lua_pushfstring(L, "%s: pattern '%s' could backtrack for about %f steps on a subject of "
                           "%I bytes (at most %f allowed); use a simpler pattern or a shorter subject",
                        fname, p, (lua_Number)cost, (lua_Integer)ls, (lua_Number)rt->pattern_step_limit);
        lua_concat(L, 2);
        return rr_raise(L, RR_RAISE_PATTERN, 0);
    }
    /* An unanchored pattern is tried at every position of the subject, in C (10 ns a position):
       four instructions a byte (the search may stop earlier; charged as if it did not). gsub
       always goes to the end and copies or replaces as it goes: eight a byte. */
    if (!(anchored_allowed && lp > 0 && p[0] == '^'))
        rr_charge(L, (double)ls * (strcmp(fname, "string.gsub") == 0 ? 8.0 : 4.0));
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
    if (n <= 0 || (l == 0 && lsep == 0)) {
        /* Lua would copy nothing n times: string.rep("", math.maxinteger) loops for ages. */
        lua_pushliteral(L, "");
        return 1;
    }
    double bytes = (double)n * (double)l + (double)(n - 1) * (double)lsep;
    if (bytes > rr_room(rr_runtime_of(L))) return rr_too_big(L, "string.rep", bytes);
    /* Lua copies the string once per repetition (a call of memcpy each): one instruction each. */
    rr_charge(L, RR_LIBRARY_CALL_COST + bytes / 64.0 + (double)n);
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
    /* Each element costs a lookup and a buffer append (25 ns an element of one byte, five times that
       in a frozen table, read through its metatable): 32 instructions. */
    rr_charge(L, RR_LIBRARY_CALL_COST + bytes / 64.0 + (double)(last >= i ? last - i + 1 : 0) * 32.0);
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
        if (++i < len && f[i] == '%') { rr_charge(L, RR_FORMAT_ITEM_COST); continue; }
        while (i < len && strchr("-+ #0123456789.", f[i])) i++;   /* flags, width, precision */
        if (i >= len) break;                                     /* Lua reports it */
        arg++;
        if (f[i] == 'p')
            return luaL_error(L, "string.format: '%%p' is not available in rules "
                                 "(an address differs from one run to the next)");
        if (f[i] == 's' && arg <= top) {
            if (rr_prints_address(lua_type(L, arg))) {
                rr_push_tostring(L, arg);
                lua_replace(L, arg);
            }
        }
        rr_charge(L, RR_FORMAT_ITEM_COST);
        if (f[i] == 'q' && arg <= top && lua_type(L, arg) == LUA_TSTRING)
            rr_charge(L, (double)lua_rawlen(L, arg) * 16.0);   /* %q escapes byte by byte: up to 50 ns a byte (snprintf for a control character) */
    }
    /* string.format costs 100 to 300 ns a call, the time of a hundred instructions. */
    rr_charge(L, rr_arguments_cost(L, RR_SCANNED_BYTES) + 4 * RR_LIBRARY_CALL_COST);
    return rr_call_original(L);
}

/* table.move copies e - f + 1 elements, whatever the tables hold: one instruction each
   (table.move({}, 1, math.maxinteger - 1, 1) would otherwise run for ages). */
static int rr_move(lua_State *L) {
    rr_charge(L, rr_arguments_cost(L, RR_COPIED_BYTES));
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    if (e >= f) rr_charge(L, (double)e - (double)f + 1.0);
    return rr_call_original(L);
}

/* table.unpack pushes j - i + 1 values, whatever the table holds: one instruction each. More than
   the stack can hold is refused by Lua at once ("too many results to unpack"), so it costs nothing. */
static int rr_unpack(lua_State *L) {
    rr_charge(L, rr_arguments_cost(L, RR_COPIED_BYTES));
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer j = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    double count = i <= j ? (double)j - (double)i + 1.0 : 0.0;
    if (count <= 1000000.0) rr_charge(L, count);   /* LUAI_MAXSTACK */
    return rr_call_original(L);
}

/* table.sort compares about n log2 n pairs, which its arguments' size (n / 8) does not cover. */
static int rr_sort(lua_State *L) {
    rr_charge(L, rr_arguments_cost(L, RR_COPIED_BYTES));
    luaL_checktype(L, 1, LUA_TTABLE);
    rr_charge_sort(L, (double)luaL_len(L, 1), 8.0);
    return rr_call_original(L);
}

/* table.insert(t, pos, v) and table.remove(t, pos) shift the elements after pos one by one (a
   read and a write each, 10 to 15 ns): four instructions an element shifted. */
static int rr_shifting(lua_State *L) {
    rr_charge(L, rr_arguments_cost(L, RR_COPIED_BYTES));
    if (lua_type(L, 1) == LUA_TTABLE && lua_isinteger(L, 2) && lua_gettop(L) >= 2) {
        rr_push_contents(L, 1);
        double n = (double)lua_rawlen(L, -1), pos = (double)lua_tointeger(L, 2);
        lua_pop(L, 1);
        if (pos >= 1 && pos <= n + 1) rr_charge(L, (n - pos + 1) * 4.0);
    }
    return rr_call_original(L);
}

static void rr_wrap(lua_State *L, int lib, const char *name, lua_CFunction f) {
    lua_getfield(L, lib, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, lib, name);
}

/* Wraps every plain C function of the library at `lib` in the meter (the guards above are
   closures, already charging for their work); string.len, sub, byte and char in the light one. */
static void rr_meter_library(lua_State *L, int lib, int is_string_library) {
    lua_pushnil(L);
    while (lua_next(L, lib)) {                       /* key value */
        if (lua_type(L, -2) == LUA_TSTRING && lua_iscfunction(L, -1)) {
            int guarded = lua_getupvalue(L, -1, 1) != NULL;
            if (guarded) {
                lua_pop(L, 1);                       /* the guard's upvalue */
            } else {
                const char *name = lua_tostring(L, -2);
                int light = is_string_library && (strcmp(name, "len") == 0 || strcmp(name, "sub") == 0 ||
                                                      strcmp(name, "byte") == 0 || strcmp(name, "char") == 0);
                lua_pushvalue(L, -2);                /* key value key */
                lua_pushvalue(L, -2);                /* key value key value */
                lua_pushcclosure(L, light ? rr_metered_light : rr_metered, 1);  /* key value key metered */
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
    rr_meter_library(L, strlib, 1);
}

void rr_install_table_guards(lua_State *L, int tablib) {
    rr_wrap(L, tablib, "concat", rr_concat);
    rr_wrap(L, tablib, "move", rr_move);
    rr_wrap(L, tablib, "unpack", rr_unpack);
    rr_wrap(L, tablib, "sort", rr_sort);
    rr_wrap(L, tablib, "insert", rr_shifting);
    rr_wrap(L, tablib, "remove", rr_shifting);
    rr_meter_library(L, tablib, 0);
}

void rr_install_utf8_guards(lua_State *L, int utf8lib) {
    rr_meter_library(L, utf8lib, 0);
}
