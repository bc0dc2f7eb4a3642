/* Layer 0. The state, its counting allocator and the error bookkeeping (rr_raise). Calls no other
   file of CLuaSupport (see internal.h for the order). */
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
const char rr_key_view = 0;

rr_runtime *rr_runtime_of(lua_State *L) {
    return *(rr_runtime **)lua_getextraspace(L);
}

int rr_random_stamp(const rr_runtime *rt, unsigned char out[64]) {
    if (!rt->random_state || rt->random_state_size == 0 || rt->random_state_size > 64) return 0;
    memcpy(out, rt->random_state, rt->random_state_size);
    return 1;
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
        lua_sethook(rt->L, lua_gethook(rt->L), LUA_MASKCOUNT | rt->line_mask, 1);
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
        lua_sethook(rt->L, lua_gethook(rt->L), LUA_MASKCOUNT | rt->line_mask, 1);
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
    free(rt->reads);
    rt->reads = NULL;
    free(rt->notes);
    rt->notes = NULL;
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

void rr_reset_raise(rr_runtime *rt) {
    rt->raised = RR_RAISE_NONE;
    rt->fatal = 0;
    rt->last_line = -1;
    rt->last_source[0] = '\0';
}
