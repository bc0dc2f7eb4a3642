/* The state, the counting allocator and the instruction-count hook. */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char rr_key_globals = 0;
const char rr_key_frozen = 0;
const char rr_key_name = 0;
const char rr_key_sealed = 0;
const char rr_key_acting = 0;
const char rr_key_hostfns = 0;
const char rr_key_randomseed = 0;

rr_runtime *rr_runtime_of(lua_State *L) {
    return *(rr_runtime **)lua_getextraspace(L);
}

#define RR_SMALL_MAX 256
#define RR_CACHE_PER_CLASS 1024

static inline int rr_class(size_t n) { return (int)((n + 15) >> 4); }

static void *rr_small_alloc(rr_runtime *rt, int c) {
    void *block = rt->free_lists[c];
    if (block) {
        rt->free_lists[c] = *(void **)block;
        rt->free_counts[c]--;
        return block;
    }
    return malloc((size_t)c << 4);
}

static void rr_small_free(rr_runtime *rt, void *block, int c) {
    if (rt->free_counts[c] < RR_CACHE_PER_CLASS) {
        *(void **)block = rt->free_lists[c];
        rt->free_lists[c] = block;
        rt->free_counts[c]++;
    } else {
        free(block);
    }
}

/* Grows or shrinks a block. Blocks of at most RR_SMALL_MAX bytes are malloc'ed with the size of
   their 16-byte class and recycled through free lists. */
static void *rr_resize(rr_runtime *rt, void *ptr, size_t old, size_t nsize) {
    int oc = (ptr && old <= RR_SMALL_MAX) ? rr_class(old) : 0;
    if (nsize == 0) {
        if (oc) rr_small_free(rt, ptr, oc); else free(ptr);
        return NULL;
    }
    if (nsize <= RR_SMALL_MAX) {
        int nc = rr_class(nsize);
        if (oc == nc) return ptr;
        void *p = rr_small_alloc(rt, nc);
        if (p && ptr) {
            memcpy(p, ptr, old < nsize ? old : nsize);
            if (oc) rr_small_free(rt, ptr, oc); else free(ptr);
        }
        return p;
    }
    if (oc) {
        void *p = malloc(nsize);
        if (p) {
            memcpy(p, ptr, old);
            rr_small_free(rt, ptr, oc);
        }
        return p;
    }
    return realloc(ptr, nsize);
}

/* Charges an allocation (or a growth) of `size` bytes made while Lua code runs: the time it takes
   is not in the instructions the hook counts. Allocating costs more than the bytes (the collector
   has to visit and free each object later: a rule that builds a table of 100,000 nested tables makes
   few instructions and much work), and copying costs per byte. When the charge uses up the budget,
   the hook looks at the next instruction and raises the budget error there, with the position. */
static void rr_charge_allocation(rr_runtime *rt, size_t size) {
    int64_t cost = RR_ALLOCATION_COST + (int64_t)(size / RR_BYTES_PER_INSTRUCTION);
    rt->budget_remaining -= cost;
    rt->instructions_total += cost;
    if (rt->budget_remaining <= 0 && rt->hook_interval > 0 && rt->hook_count != 1) {
        rt->hook_count = 1;
        lua_sethook(rt->L, lua_gethook(rt->L), LUA_MASKCOUNT, 1);
    }
}

/* Counts every byte Lua holds. Refuses to grow past the hard limit, except while Swift code runs:
   an allocation made on behalf of Swift must never make Lua raise through a Swift frame. */
static void *rr_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    rr_runtime *rt = (rr_runtime *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr) rr_resize(rt, ptr, old, 0);
        rt->mem_used -= old;
        return NULL;
    }
    if (nsize > old && rt->host_depth == 0 && rt->mem_hard_limit > 0 &&
        rt->mem_used - old + nsize > rt->mem_hard_limit) {
        return NULL;
    }
    void *p = rr_resize(rt, ptr, old, nsize);
    if (p == NULL) return NULL;
    if (nsize > old && rt->host_depth == 0 && rt->budget > 0) rr_charge_allocation(rt, nsize);
    rt->mem_used = rt->mem_used - old + nsize;
    if (rt->mem_used > rt->mem_peak) rt->mem_peak = rt->mem_used;
    if (rt->mem_watch > 0 && rt->mem_used > rt->mem_watch && rt->host_depth == 0 && rt->hook_interval > 0) {
        /* Memory is running high: have the hook look at the next instruction, so that the position
           is known (and the ceiling checked) before a larger allocation fails. */
        rt->mem_watch = rt->mem_used + rt->mem_limit / 8;
        rt->hook_count = 1;
        lua_sethook(rt->L, lua_gethook(rt->L), LUA_MASKCOUNT, 1);
    }
    return p;
}

static int rr_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "rulesrun: unprotected Lua error (a bug in rulesrun): %s\n", msg ? msg : "?");
    abort();
    return 0;
}

lua_State *rr_newstate(rr_runtime *rt) {
    lua_State *L = lua_newstate(rr_alloc, rt);
    if (L == NULL) return NULL;
    *(rr_runtime **)lua_getextraspace(L) = rt;
    rt->L = L;
    lua_atpanic(L, rr_panic);
    lua_setwarnf(L, NULL, NULL);
    return L;
}

void rr_close(rr_runtime *rt) {
    if (rt->L) {
        rt->host_depth++;
        lua_close(rt->L);
        rt->host_depth--;
        rt->L = NULL;
    }
    for (int c = 0; c < 17; c++) {
        while (rt->free_lists[c]) {
            void *block = rt->free_lists[c];
            rt->free_lists[c] = *(void **)block;
            free(block);
        }
        rt->free_counts[c] = 0;
    }
}

int rr_raise(lua_State *L, int kind, int fatal) {
    rr_runtime *rt = rr_runtime_of(L);
    rt->raised = kind;
    if (fatal) rt->fatal = 1;
    return lua_error(L);
}

static void rr_hook(lua_State *L, lua_Debug *ar) {
    rr_runtime *rt = rr_runtime_of(L);
    if (ar->event != LUA_HOOKCOUNT) return;
    rt->budget_remaining -= rt->hook_count;
    rt->instructions_total += rt->hook_count;
    if (rt->hook_count != rt->hook_interval) {
        rt->hook_count = rt->hook_interval;
        lua_sethook(L, rr_hook, LUA_MASKCOUNT, rt->hook_interval);
    }
    if (lua_getinfo(L, "Sl", ar)) {
        rt->last_line = ar->currentline;
        snprintf(rt->last_source, sizeof rt->last_source, "%s", ar->short_src);
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
        lua_pushfstring(L, "%s:%d: instruction budget exceeded (%I instructions per call; memory allocated "
                           "counts too)", rt->last_source, rt->last_line, (lua_Integer)rt->budget);
        rr_raise(L, RR_RAISE_BUDGET, 1);
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
        if (interval != rt->hook_interval || rt->hook_count != interval || lua_gethook(rt->L) != rr_hook) {
            rt->hook_interval = interval;
            rt->hook_count = interval;
            lua_sethook(rt->L, rr_hook, LUA_MASKCOUNT, interval);
        }
    } else {
        rt->hook_interval = 0;
        rt->hook_count = 0;
        rt->mem_watch = 0;
        lua_sethook(rt->L, NULL, 0, 0);
    }
}

void rr_reset_raise(rr_runtime *rt) {
    rt->raised = RR_RAISE_NONE;
    rt->fatal = 0;
    rt->last_line = -1;
    rt->last_source[0] = '\0';
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
        luaL_where(L, 1);
        lua_pushfstring(L, "instruction budget exceeded by a stack overflow (one counts as %d instructions; %I per call)",
                        RR_STACK_OVERFLOW_COST, (lua_Integer)rt->budget);
        lua_concat(L, 2);
        rr_raise(L, RR_RAISE_BUDGET, 1);
    }
}

/* The levels a traceback shows before it leaves the rest out when the stack is deeper. */
#define RR_TRACEBACK_LEVELS 12

int rr_traceback(lua_State *L) {
    /* The message is taken with its length: a NUL in it (error("a\0b")) must not cut it short. */
    size_t len = 0;
    const char *msg = lua_tolstring(L, 1, &len);
    if (msg == NULL) {
        /* An error object that is not a string carries no position: add the line of the first
           Lua function on the stack (the one that raised it), as error("text") would. */
        lua_Debug ar;
        int placed = 0;
        for (int level = 1; !placed && lua_getstack(L, level, &ar); level++)
            placed = lua_getinfo(L, "Sl", &ar) && ar.currentline > 0;
        if (placed) lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
        else lua_pushliteral(L, "");
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            lua_concat(L, 2);
        else {
            if (lua_gettop(L) > 2) lua_pop(L, 1);
            lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
            lua_concat(L, 2);
        }
        msg = lua_tolstring(L, -1, &len);
    } else if (rr_is_stack_overflow(L, 1)) {
        rr_charge_stack_overflow(L, 0);
    }
    lua_Debug ar;
    if (!lua_getstack(L, 2 * RR_TRACEBACK_LEVELS, &ar)) {
        lua_pushlstring(L, msg, len);
        lua_pushliteral(L, "\n");
        luaL_traceback(L, L, NULL, 1);             /* "stack traceback:…", as after a message */
        lua_concat(L, 3);
        return 1;
    }
    /* A deep stack: luaL_traceback would find its last levels by walking it some forty times
       (lua_getstack counts the levels from the top), half a second at a stack overflow. The
       first levels are where the error is. */
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addlstring(&b, msg, len);                 /* msg stays on the stack, below the buffer */
    luaL_addstring(&b, "\nstack traceback:");
    for (int level = 1; level <= RR_TRACEBACK_LEVELS && lua_getstack(L, level, &ar); level++) {
        lua_getinfo(L, "Sln", &ar);
        if (ar.currentline > 0) lua_pushfstring(L, "\n\t%s:%d: in ", ar.short_src, ar.currentline);
        else lua_pushfstring(L, "\n\t%s: in ", ar.short_src);
        luaL_addvalue(&b);
        if (ar.name != NULL) lua_pushfstring(L, "%s '%s'", ar.namewhat, ar.name);
        else if (*ar.what == 'm') lua_pushliteral(L, "main chunk");
        else lua_pushfstring(L, "function <%s:%d>", ar.short_src, ar.linedefined);
        luaL_addvalue(&b);
    }
    luaL_addstring(&b, "\n\t...\t(deeper levels left out)");
    luaL_pushresult(&b);
    return 1;
}

/* ---- Lua calling Swift ---- */

int rr_trampoline(lua_State *L) {
    rr_runtime *rt = rr_runtime_of(L);
    int64_t id = (int64_t)lua_tointeger(L, lua_upvalueindex(1));
    rt->host_depth++;
    int n = rt->dispatch(L, rt->context, id);
    rt->host_depth--;
    if (n < 0) {
        /* The Swift side left its message on top; add where the rule called it. */
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return rr_raise(L, RR_RAISE_HOST_FUNCTION, 0);
    }
    return n;
}

void rr_push_host_function(lua_State *L, int64_t function_id, const char *name) {
    lua_pushinteger(L, (lua_Integer)function_id);
    lua_pushstring(L, name);
    lua_pushcclosure(L, rr_trampoline, 2);
}

/*
 * print: the arguments as Lua's print writes them (tab-separated), to the host's log. One call
 * logs at most RR_PRINT_MAX bytes, cut at a UTF-8 character boundary and followed by
 * "… (N bytes)". Every byte logged costs an instruction, and the text it formats one per 64 bytes,
 * so a loop cannot flood the log.
 */
#define RR_PRINT_MAX 4096

int rr_print(lua_State *L) {
    rr_runtime *rt = rr_runtime_of(L);
    int n = lua_gettop(L);
    char out[RR_PRINT_MAX + 64];
    size_t used = 0;         /* bytes kept in out (at most RR_PRINT_MAX) */
    size_t total = 0;        /* bytes of the whole text */
    int cut_before = -1;     /* the first byte of the text left out */
    for (int i = 1; i <= n; i++) {
        if (i > 1) {
            if (used < RR_PRINT_MAX) out[used++] = '\t';
            else if (cut_before < 0) cut_before = '\t';
            total++;
        }
        size_t len;
        const char *piece = luaL_tolstring(L, i, &len);
        size_t take = RR_PRINT_MAX - used < len ? RR_PRINT_MAX - used : len;
        memcpy(out + used, piece, take);
        if (take < len && cut_before < 0) cut_before = (unsigned char)piece[take];
        used += take;
        total += len;
        lua_pop(L, 1);
    }
    if (total > used) {
        /* Do not cut a character in two: drop the start of one whose next byte was left out. */
        if ((cut_before & 0xC0) == 0x80) {
            while (used > 0 && ((unsigned char)out[used - 1] & 0xC0) == 0x80) used--;
            if (used > 0 && ((unsigned char)out[used - 1] & 0xC0) == 0xC0) used--;
        }
        used += (size_t)snprintf(out + used, sizeof out - used, "\xE2\x80\xA6 (%zu bytes)", total);
    }
    rr_charge(L, (double)used + (double)total / 64.0);
    if (rt->log) {
        rt->host_depth++;
        rt->log(rt->context, out, used);
        rt->host_depth--;
    }
    return 0;
}

int rr_charge_host(rr_runtime *rt, int64_t cost) {
    if (rt->budget <= 0 || cost <= 0) return 0;
    rt->budget_remaining -= cost;
    rt->instructions_total += cost;
    return rt->budget_remaining <= 0;
}
