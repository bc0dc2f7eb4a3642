/*
 * Layer 0. The line recorder: how many times each line of each chunk ran, for `rulesrun test
 * --coverage` and whoever needs the lines a call executed. Off (no line hook at all) until
 * rr_lines_start; the hook of budget.c passes each line event here (one hook function for both
 * events, so that the instruction budget counts exactly the same with or without recording).
 * Only chunks loaded from files (names starting with '@') are recorded. Calls nothing.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>

typedef struct rr_chunk_lines {
    char *name;            /* the chunk name without '@' */
    const char *seen;      /* the last source pointer Lua gave for it (checked with strcmp) */
    int64_t *counts;       /* counts[line], line 0 unused */
    int size;              /* entries in counts */
} rr_chunk_lines;

struct rr_lines {
    rr_chunk_lines *chunks;
    int count, capacity;
    int last;              /* index of the chunk of the last event */
};

static rr_chunk_lines *rr_lines_chunk(struct rr_lines *r, const char *source) {
    if (r->last < r->count) {
        rr_chunk_lines *c = &r->chunks[r->last];
        if (c->seen == source || strcmp(c->name, source + 1) == 0) { c->seen = source; return c; }
    }
    for (int i = 0; i < r->count; i++) {
        if (strcmp(r->chunks[i].name, source + 1) == 0) {
            r->chunks[i].seen = source;
            r->last = i;
            return &r->chunks[i];
        }
    }
    if (r->count == r->capacity) {
        int capacity = r->capacity ? r->capacity * 2 : 8;
        rr_chunk_lines *chunks = realloc(r->chunks, (size_t)capacity * sizeof *chunks);
        if (!chunks) return NULL;
        r->chunks = chunks;
        r->capacity = capacity;
    }
    char *name = strdup(source + 1);
    if (!name) return NULL;
    r->chunks[r->count] = (rr_chunk_lines){ name, source, NULL, 0 };
    r->last = r->count;
    return &r->chunks[r->count++];
}

void rr_lines_record(rr_runtime *rt, const char *source, int line) {
    struct rr_lines *r = rt->lines;
    if (!r || !source || source[0] != '@' || line <= 0) return;
    rr_chunk_lines *c = rr_lines_chunk(r, source);
    if (!c) return;
    if (line >= c->size) {
        int size = c->size ? c->size : 64;
        while (size <= line) size *= 2;
        int64_t *counts = realloc(c->counts, (size_t)size * sizeof *counts);
        if (!counts) return;
        memset(counts + c->size, 0, (size_t)(size - c->size) * sizeof *counts);
        c->counts = counts;
        c->size = size;
    }
    c->counts[line]++;
}

int rr_lines_start(rr_runtime *rt) {
    if (!rt->lines) {
        rt->lines = calloc(1, sizeof(struct rr_lines));
        if (!rt->lines) return 0;
    }
    rt->line_mask = LUA_MASKLINE;
    return 1;
}

void rr_lines_stop(rr_runtime *rt) {
    rt->line_mask = 0;
}

int rr_lines_chunks(const rr_runtime *rt) {
    return rt->lines ? rt->lines->count : 0;
}

const char *rr_lines_chunk_name(const rr_runtime *rt, int i) {
    return rt->lines && i >= 0 && i < rt->lines->count ? rt->lines->chunks[i].name : NULL;
}

const int64_t *rr_lines_counts(const rr_runtime *rt, int i, int *size) {
    *size = 0;
    if (!rt->lines || i < 0 || i >= rt->lines->count) return NULL;
    *size = rt->lines->chunks[i].size;
    return rt->lines->chunks[i].counts;
}

void rr_lines_reset(rr_runtime *rt) {
    struct rr_lines *r = rt->lines;
    if (!r) return;
    for (int i = 0; i < r->count; i++) {
        if (r->chunks[i].counts) memset(r->chunks[i].counts, 0, (size_t)r->chunks[i].size * sizeof(int64_t));
    }
}

void rr_lines_free(rr_runtime *rt) {
    struct rr_lines *r = rt->lines;
    rt->line_mask = 0;
    if (!r) return;
    for (int i = 0; i < r->count; i++) {
        free(r->chunks[i].name);
        free(r->chunks[i].counts);
    }
    free(r->chunks);
    free(r);
    rt->lines = NULL;
}
