/*
 * Layer 1. The instruction budget of a call: the count hook (which also checks the memory ceiling,
 * with a position), arming it, the charges for work the hook cannot count (library calls, sorting,
 * stack overflows, the host's conversions) and the one message of a budget that ran out. Calls
 * runtime.c only (see internal.h for the order).
 */
#include "internal.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The one message of a budget that ran out, whoever finds it out (the hook, a charge, the host
   converting results): "instruction budget exceeded (N instructions per call; memory allocated
   counts too)". Returns what snprintf does. */
int rr_budget_message(const rr_runtime *rt, char *out, size_t capacity) {
    return snprintf(out, capacity, "instruction budget exceeded (%lld instructions per call; memory allocated "
                    "counts too)", (long long)rt->budget);
}

/* Raises the budget error: the position on top of the stack (a string, possibly empty), then the
   message, then ": cause" when cause is not NULL. */
static int rr_raise_budget(lua_State *L, const char *cause) {
    char message[160];
    rr_budget_message(rr_runtime_of(L), message, sizeof message);
    lua_pushstring(L, message);
    if (cause) lua_pushfstring(L, ": %s", cause);
    lua_concat(L, cause ? 3 : 2);
    return rr_raise(L, RR_RAISE_BUDGET, 1);
}

static void rr_hook(lua_State *L, lua_Debug *ar) {
    rr_runtime *rt = rr_runtime_of(L);
    if (ar->event == LUA_HOOKLINE) {
        /* The line recorder's event (see coverage.c): counts nothing against the budget, whose
           count events come on their own. */
        if (lua_getinfo(L, "S", ar)) rr_lines_record(rt, ar->source, ar->currentline);
        /* While a call is explained: the last line its own frame ran (not a function it calls, nor
           one it tail-calls), which is the line it returns from. */
        if (rt->trace_reads) {
            lua_Debug above;
            if (!lua_getstack(L, rt->trace_level + 1, &above) && lua_getinfo(L, "t", ar) && !ar->istailcall)
                rt->return_line = ar->currentline;
        }
        return;
    }
    if (ar->event != LUA_HOOKCOUNT) return;
    rt->budget_remaining -= rt->hook_count;
    rt->instructions_total += rt->hook_count;
    if (rt->hook_count != rt->hook_interval) {
        rt->hook_count = rt->hook_interval;
        lua_sethook(L, rr_hook, LUA_MASKCOUNT | rt->line_mask, rt->hook_interval);
    }
    if (lua_getinfo(L, "Sl", ar)) {
        rt->last_line = ar->currentline;
        /* short_src is at most LUA_IDSIZE (60) bytes with its NUL; copied without snprintf, which
           parses its format at every hook */
        size_t n = strnlen(ar->short_src, sizeof rt->last_source - 1);
        memcpy(rt->last_source, ar->short_src, n);
        rt->last_source[n] = '\0';
    }
    if (rt->mem_limit > 0 && rt->mem_used > rt->mem_limit) {
        lua_gc(L, LUA_GCCOLLECT, 0);
        if (rt->mem_used > rt->mem_limit) {
            lua_pushfstring(L, "%s:%d: memory limit exceeded (%I bytes allowed, %I in use)",
                            rt->last_source, rt->last_line,
                            (lua_Integer)rt->mem_limit, (lua_Integer)rt->mem_used);
            rr_raise(L, RR_RAISE_MEMORY, 1);
        }
    }
    if (rt->budget > 0 && rt->budget_remaining <= 0) {
        lua_pushfstring(L, "%s:%d: ", rt->last_source, rt->last_line);
        rr_raise_budget(L, NULL);
    }
}

void rr_arm(rr_runtime *rt, int64_t budget) {
    rt->budget = budget > 0 ? budget : 0;
    rt->budget_remaining = rt->budget;
    rt->mem_watch = rt->mem_limit / 2;
    if (rt->budget > 0 || rt->mem_limit > 0) {
        /* The hook counts instructions, and also checks the memory ceiling with a position. When it
           is already installed with this interval, it is left as it is: the first hook of the call
           may then come up to one interval early, which only makes the budget stricter. */
        int interval = rt->budget > 0 && rt->budget < 1000 ? (int)rt->budget : 1000;
        if (interval != rt->hook_interval || rt->hook_count != interval || lua_gethook(rt->L) != rr_hook
            || lua_gethookmask(rt->L) != (LUA_MASKCOUNT | rt->line_mask)) {
            rt->hook_interval = interval;
            rt->hook_count = interval;
            lua_sethook(rt->L, rr_hook, LUA_MASKCOUNT | rt->line_mask, interval);
        }
    } else {
        rt->hook_interval = 0;
        rt->hook_count = 0;
        rt->mem_watch = 0;
        /* Without a budget, the line recorder's hook alone, if it records. */
        lua_sethook(rt->L, rt->line_mask ? rr_hook : NULL, rt->line_mask, 0);
    }
}

/* Whether the value at idx is Lua's message for a stack overflow ("stack overflow", "C stack
   overflow", with the position in front). */
int rr_is_stack_overflow(lua_State *L, int idx) {
    static const char suffix[] = "stack overflow";
    size_t n, k = sizeof suffix - 1;
    if (lua_type(L, idx) != LUA_TSTRING) return 0;
    const char *s = lua_tolstring(L, idx, &n);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Charges a stack overflow: reaching Lua's limit (a million stack slots) counts some hundred
   thousand instructions, but growing, moving and unwinding that stack takes about a tenth of a
   second, the time of tens of millions. Without the charge, a rule that recursed for ever would
   cost validation (which goes on past a failing input) minutes. With `raise`, the budget error
   is raised at once when the charge uses it up; else it is raised at the next instruction hook. */
void rr_charge_stack_overflow(lua_State *L, int raise) {
    rr_runtime *rt = rr_runtime_of(L);
    if (rt->budget <= 0) return;
    rt->budget_remaining -= RR_STACK_OVERFLOW_COST;
    rt->instructions_total += RR_STACK_OVERFLOW_COST;
    if (raise && rt->budget_remaining <= 0) {
        char cause[80];
        snprintf(cause, sizeof cause, "a stack overflow counts as %d instructions", RR_STACK_OVERFLOW_COST);
        luaL_where(L, 1);
        rr_raise_budget(L, cause);
    }
}

/* Charges `cost` instructions to the current call; raises the budget error when it runs out. */
void rr_charge(lua_State *L, double cost) {
    rr_runtime *rt = rr_runtime_of(L);
    if (rt->budget <= 0 || cost < 1) return;
    int64_t n = cost > 9e18 ? (int64_t)9e18 : (int64_t)cost;
    rt->budget_remaining -= n;
    rt->instructions_total += n;
    if (rt->budget_remaining <= 0) {
        luaL_where(L, 1);
        rr_raise_budget(L, "library calls count the size of the strings and tables they work on");
    }
}

/* Charges for visiting `entries` table entries in C, comparing or copying each (20 to 50 ns an
   entry): four instructions each. */
void rr_charge_size(lua_State *L, double entries) {
    rr_charge(L, entries * 4.0);
}

/* Charges for sorting `n` values: about n log2 n comparisons, `per_comparison` instructions each
   (a comparison done in C takes 20 ns, one through a C comparator called by table.sort 100 ns; a
   Lua comparator's own instructions are counted as it runs). */
void rr_charge_sort(lua_State *L, double n, double per_comparison) {
    if (n > 1) rr_charge(L, n * log2(n) * per_comparison);
}

/* Charges work the host did for the current call or load; never raises (see CLuaSupport.h). */
int rr_charge_host(rr_runtime *rt, int64_t cost) {
    if (rt->budget <= 0 || cost <= 0) return 0;
    rt->budget_remaining -= cost;
    rt->instructions_total += cost;
    return rt->budget_remaining <= 0;
}
