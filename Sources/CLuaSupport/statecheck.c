/* Refusing files that would keep state in Lua between calls.
 *
 * The globals of a file are sealed once it has loaded and its tables frozen, but a function can
 * still assign an upvalue: `local calls = 0` at file level, `calls = calls + 1` inside
 * `M.transition`. That counter would live in the Lua state, which serves many users (and a
 * different set of them for each --jobs and shard), so results would depend on scheduling.
 *
 * The check reads the bytecode of a chunk just loaded (lua_dump, not stripped) and walks its
 * function prototypes. An upvalue of a function nested in the main chunk is "persistent" when it
 * is, transitively, a local or an upvalue (_ENV) of the main chunk. Any OP_SETUPVAL on a
 * persistent upvalue, in any function but the main chunk, is refused, with the line of the
 * assignment. The main chunk may assign its own locals while it runs (that is loading).
 *
 * A closure made while the file loads (`local counter = make_counter()`) is checked the same way
 * once the file has run (rr_check_kept_closure, called for every function the sandbox reaches
 * when it freezes what the file defined): all its upvalues are closed by then, so any of them it
 * assigns, or that a function nested in it assigns through it, is kept between calls.
 *
 * The dump format is Lua 5.4's (ldump.c): a header, the number of upvalues of the main function,
 * then dumpFunction recursively. Sizes and ints are written by dumpSize: 7 bits a byte, most
 * significant first, the last byte marked with 0x80. Anything unexpected fails the check with an
 * internal error rather than reading out of bounds.
 *
 * Layer 2: calls budget.c only (rr_charge; see internal.h for the order).
 */
#include "internal.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if LUA_VERSION_NUM != 504
#error "statecheck.c reads the bytecode format of Lua 5.4"
#endif

/* Opcodes of Lua 5.4 (lopcodes.h; the same numbers from 5.4.0 to 5.4.6). */
enum { RR_OP_SETUPVAL = 10, RR_OP_SETTABUP = 15, RR_OP_SETFIELD = 18, RR_OP_CLOSURE = 79 };
#define RR_ABSLINEINFO (-0x80)      /* lineinfo entry meaning "see abslineinfo" */
#define RR_MAX_DEPTH 1000           /* nesting deeper than Lua's own limit means a corrupt dump */

static inline int rr_op(uint32_t i) { return (int)(i & 0x7F); }
static inline int rr_arg_a(uint32_t i) { return (int)((i >> 7) & 0xFF); }
static inline int rr_arg_k(uint32_t i) { return (int)((i >> 15) & 0x1); }
static inline int rr_arg_b(uint32_t i) { return (int)((i >> 16) & 0xFF); }
static inline int rr_arg_c(uint32_t i) { return (int)((i >> 24) & 0xFF); }
static inline int rr_arg_bx(uint32_t i) { return (int)(i >> 15); }

typedef struct { const char *s; size_t len; } rr_str;

typedef struct rr_proto {
    int linedefined;
    int is_vararg;
    int ncode;
    const unsigned char *code;       /* ncode instructions of 4 bytes, native order */
    int nk;
    rr_str *kstr;                    /* string constants (s == NULL for the others) */
    int nup;
    unsigned char *instack, *upidx;
    int np;
    struct rr_proto *p;
    int nlineinfo;
    const signed char *lineinfo;
    int nabs;
    int *abspc, *absline;
    int nloc;
    rr_str *locname;
    int *locstart, *locend;
    int nupname;
    rr_str *upname;
} rr_proto;

typedef struct {
    const unsigned char *p, *end;
    int failed;
} rr_reader;

/* ---- reading the dump ---- */

static int rr_read_byte(rr_reader *r) {
    if (r->failed || r->p >= r->end) { r->failed = 1; return 0; }
    return *r->p++;
}

static size_t rr_read_size(rr_reader *r) {
    size_t x = 0;
    for (;;) {
        int b = rr_read_byte(r);
        if (r->failed) return 0;
        if (x > (SIZE_MAX >> 7)) { r->failed = 1; return 0; }
        x = (x << 7) | (size_t)(b & 0x7F);
        if (b & 0x80) return x;
    }
}

static int rr_read_int(rr_reader *r) {
    size_t x = rr_read_size(r);
    if (x > INT_MAX) { r->failed = 1; return 0; }
    return (int)x;
}

static const unsigned char *rr_read_block(rr_reader *r, size_t n) {
    if (r->failed || (size_t)(r->end - r->p) < n) { r->failed = 1; return NULL; }
    const unsigned char *b = r->p;
    r->p += n;
    return b;
}

static rr_str rr_read_string(rr_reader *r) {
    rr_str s = { NULL, 0 };
    size_t size = rr_read_size(r);
    if (r->failed || size == 0) return s;
    s.len = size - 1;
    s.s = (const char *)rr_read_block(r, s.len);
    if (!s.s) s.len = 0;
    return s;
}

/* calloc that treats 0 elements as a valid empty array. */
static void *rr_array(rr_reader *r, int n, size_t size) {
    if (r->failed) return NULL;
    if (n < 0 || (size_t)n > (size_t)(r->end - r->p) + 1) { r->failed = 1; return NULL; }  /* cannot be that many */
    void *a = calloc(n > 0 ? (size_t)n : 1, size);
    if (!a) r->failed = 1;
    return a;
}

static void rr_free_proto(rr_proto *f) {
    if (!f) return;
    if (f->p) for (int i = 0; i < f->np; i++) rr_free_proto(&f->p[i]);
    free(f->p);
    free(f->kstr);
    free(f->instack);
    free(f->upidx);
    free(f->abspc);
    free(f->absline);
    free(f->locname);
    free(f->locstart);
    free(f->locend);
    free(f->upname);
}

static void rr_read_function(rr_reader *r, rr_proto *f, int depth) {
    if (depth > RR_MAX_DEPTH) { r->failed = 1; return; }
    (void)rr_read_string(r);                      /* source (NULL when the parent's) */
    f->linedefined = rr_read_int(r);
    (void)rr_read_int(r);                         /* lastlinedefined */
    (void)rr_read_byte(r);                        /* numparams */
    f->is_vararg = rr_read_byte(r);
    (void)rr_read_byte(r);                        /* maxstacksize */
    /* code */
    f->ncode = rr_read_int(r);
    if (!r->failed && (size_t)f->ncode > (size_t)(r->end - r->p) / 4) { r->failed = 1; return; }
    f->code = rr_read_block(r, (size_t)f->ncode * 4);
    /* constants */
    f->nk = rr_read_int(r);
    f->kstr = rr_array(r, f->nk, sizeof(rr_str));
    for (int i = 0; i < f->nk && !r->failed; i++) {
        int tag = rr_read_byte(r);
        switch (tag) {
        case 0: case 1: case 17: break;                       /* nil, false, true */
        case 3: case 19: (void)rr_read_block(r, 8); break;    /* integer, float (8 bytes each) */
        case 4: case 20: f->kstr[i] = rr_read_string(r); break; /* short, long string */
        default: r->failed = 1;
        }
    }
    /* upvalues */
    f->nup = rr_read_int(r);
    f->instack = rr_array(r, f->nup, 1);
    f->upidx = rr_array(r, f->nup, 1);
    for (int i = 0; i < f->nup && !r->failed; i++) {
        f->instack[i] = (unsigned char)rr_read_byte(r);
        f->upidx[i] = (unsigned char)rr_read_byte(r);
        (void)rr_read_byte(r);                    /* kind */
    }
    /* nested functions */
    f->np = rr_read_int(r);
    f->p = rr_array(r, f->np, sizeof(rr_proto));
    for (int i = 0; i < f->np && !r->failed; i++) rr_read_function(r, &f->p[i], depth + 1);
    /* debug information */
    f->nlineinfo = rr_read_int(r);
    f->lineinfo = (const signed char *)rr_read_block(r, (size_t)f->nlineinfo);
    f->nabs = rr_read_int(r);
    f->abspc = rr_array(r, f->nabs, sizeof(int));
    f->absline = rr_array(r, f->nabs, sizeof(int));
    for (int i = 0; i < f->nabs && !r->failed; i++) {
        f->abspc[i] = rr_read_int(r);
        f->absline[i] = rr_read_int(r);
    }
    f->nloc = rr_read_int(r);
    f->locname = rr_array(r, f->nloc, sizeof(rr_str));
    f->locstart = rr_array(r, f->nloc, sizeof(int));
    f->locend = rr_array(r, f->nloc, sizeof(int));
    for (int i = 0; i < f->nloc && !r->failed; i++) {
        f->locname[i] = rr_read_string(r);
        f->locstart[i] = rr_read_int(r);
        f->locend[i] = rr_read_int(r);
    }
    f->nupname = rr_read_int(r);
    f->upname = rr_array(r, f->nupname, sizeof(rr_str));
    for (int i = 0; i < f->nupname && !r->failed; i++) f->upname[i] = rr_read_string(r);
}

/* ---- what the prototypes say ---- */

static uint32_t rr_instruction(const rr_proto *f, int pc) {
    uint32_t i;
    memcpy(&i, f->code + (size_t)pc * 4, 4);
    return i;
}

/* The source line of instruction pc (as luaG_getfuncline), or 0 when unknown. */
static int rr_line_at(const rr_proto *f, int pc) {
    if (pc < 0 || pc >= f->nlineinfo) return 0;
    int line = f->linedefined, abs = 0;
    for (int i = 0; i <= pc; i++) {
        if (f->lineinfo[i] == RR_ABSLINEINFO) {
            while (abs < f->nabs && f->abspc[abs] < i) abs++;
            if (abs >= f->nabs || f->abspc[abs] != i) return 0;
            line = f->absline[abs];
        } else {
            line += f->lineinfo[i];
        }
    }
    return line;
}

/* The name of the n-th (1-based) local active at pc, as luaF_getlocalname. */
static rr_str rr_local_name(const rr_proto *f, int n, int pc) {
    rr_str none = { NULL, 0 };
    for (int i = 0; i < f->nloc && f->locstart[i] <= pc; i++) {
        if (pc < f->locend[i] && --n == 0) return f->locname[i];
    }
    return none;
}

static int rr_is_string(rr_str s) { return s.s != NULL; }

/* How the parent names its child proto `child`: the field or global the closure is stored in
   right after OP_CLOSURE, or the local it goes into. */
static rr_str rr_function_name(const rr_proto *parent, int child) {
    rr_str none = { NULL, 0 };
    if (!parent) return none;
    for (int pc = 0; pc < parent->ncode; pc++) {
        uint32_t i = rr_instruction(parent, pc);
        if (rr_op(i) != RR_OP_CLOSURE || rr_arg_bx(i) != child) continue;
        int reg = rr_arg_a(i);
        if (pc + 1 < parent->ncode) {
            uint32_t next = rr_instruction(parent, pc + 1);
            int op = rr_op(next);
            if ((op == RR_OP_SETFIELD || op == RR_OP_SETTABUP) && !rr_arg_k(next) && rr_arg_c(next) == reg) {
                int key = rr_arg_b(next);
                if (key < parent->nk && rr_is_string(parent->kstr[key])) return parent->kstr[key];
            }
        }
        rr_str local = rr_local_name(parent, reg + 1, pc + 1);
        if (rr_is_string(local)) return local;
        return none;
    }
    return none;
}

/* Where a persistent upvalue comes from. */
enum { RR_UP_NOT = 0, RR_UP_FILE_LOCAL = 1, RR_UP_ENV = 2, RR_UP_KEPT = 3 };

typedef struct {
    char *message;
    size_t capacity;
    int line;
    int found;
} rr_verdict;

static void rr_describe(rr_verdict *v, const rr_proto *f, const rr_proto *parent, int child,
                        int pc, int up, int origin) {
    rr_str name = rr_function_name(parent, child);
    rr_str var = up < f->nupname ? f->upname[up] : (rr_str){ NULL, 0 };
    char function[160], variable[100];
    if (rr_is_string(name))
        snprintf(function, sizeof function, "function '%.*s'", (int)(name.len > 80 ? 80 : name.len), name.s);
    else
        snprintf(function, sizeof function, "the function defined at line %d", f->linedefined);
    if (rr_is_string(var))
        snprintf(variable, sizeof variable, "%.*s", (int)(var.len > 80 ? 80 : var.len), var.s);
    else
        snprintf(variable, sizeof variable, "upvalue %d", up + 1);
    int line = rr_line_at(f, pc);
    v->line = line > 0 ? line : f->linedefined;
    v->found = 1;
    if (origin == RR_UP_ENV || strcmp(variable, "_ENV") == 0)
        snprintf(v->message, v->capacity,
                 "%s assigns to '%s', the environment of the file: rules keep no state between calls "
                 "and cannot replace their environment", function, variable);
    else if (origin == RR_UP_KEPT)
        snprintf(v->message, v->capacity,
                 "%s assigns to '%s', a variable it keeps from the function that made it while the file "
                 "loaded: rules keep no state between calls (use a local inside the function)",
                 function, variable);
    else
        snprintf(v->message, v->capacity,
                 "%s assigns to '%s', a local of the file: rules keep no state between calls "
                 "(use a local inside the function)", function, variable);
}

/* Checks `f` (child number `child` of `parent`) and its nested functions. At depth 0, `f` is a
   closure that outlived the loading of its file, so every upvalue it has is kept between calls;
   at depth 1, a function of the main chunk. parent_origin[i] says where the parent's upvalue i
   comes from. */
static void rr_check_proto(rr_verdict *v, const rr_proto *f, const rr_proto *parent, int child,
                           int depth, const unsigned char *parent_origin, int parent_nup) {
    unsigned char *origin = calloc(f->nup > 0 ? (size_t)f->nup : 1, 1);
    if (!origin) { v->found = -1; snprintf(v->message, v->capacity, "out of memory"); return; }
    for (int u = 0; u < f->nup; u++) {
        if (depth == 0)      /* made while the file loaded: its upvalues are all closed now */
            origin[u] = RR_UP_KEPT;
        else if (depth == 1) /* a local of the main chunk, or its own upvalue (_ENV) */
            origin[u] = f->instack[u] ? RR_UP_FILE_LOCAL : RR_UP_ENV;
        else if (!f->instack[u] && f->upidx[u] < parent_nup)
            origin[u] = parent_origin[f->upidx[u]];
        else
            origin[u] = RR_UP_NOT;   /* a local of the enclosing function: allowed */
    }
    for (int pc = 0; pc < f->ncode && !v->found; pc++) {
        uint32_t i = rr_instruction(f, pc);
        if (rr_op(i) != RR_OP_SETUPVAL) continue;
        int up = rr_arg_b(i);
        if (up < f->nup && origin[up] != RR_UP_NOT) rr_describe(v, f, parent, child, pc, up, origin[up]);
    }
    int nested = depth == 0 ? 2 : depth + 1;   /* what a kept closure nests is never the main chunk's */
    for (int c = 0; c < f->np && !v->found; c++) rr_check_proto(v, &f->p[c], f, c, nested, origin, f->nup);
    free(origin);
}

typedef struct { unsigned char *data; size_t size, capacity; int failed; } rr_buffer;

static int rr_dump_writer(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    rr_buffer *b = ud;
    if (b->failed) return 1;
    if (b->size + size > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->size + size) capacity *= 2;
        unsigned char *data = realloc(b->data, capacity);
        if (!data) { b->failed = 1; return 1; }
        b->data = data;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, p, size);
    b->size += size;
    return 0;
}

/* Checks a dump; see rr_check_no_state (closure 0) and rr_check_kept_closure (closure 1). */
static int rr_check_dump(const unsigned char *data, size_t size, int closure, int *line, char *message,
                         size_t capacity) {
    static const unsigned char header[] = {
        0x1B, 'L', 'u', 'a', 0x54, 0x00, 0x19, 0x93, '\r', '\n', 0x1A, '\n',
        4 /* sizeof(Instruction) */, sizeof(lua_Integer), sizeof(lua_Number)
    };
    rr_reader r = { data, data + size, 0 };
    const unsigned char *h = rr_read_block(&r, sizeof header);
    if (!h || memcmp(h, header, sizeof header) != 0) {
        snprintf(message, capacity, "internal error: the bytecode of the file has an unexpected header");
        return -1;
    }
    lua_Integer test_int; lua_Number test_num;
    const unsigned char *ti = rr_read_block(&r, sizeof test_int);
    const unsigned char *tn = rr_read_block(&r, sizeof test_num);
    if (!ti || !tn) goto corrupt;
    memcpy(&test_int, ti, sizeof test_int);
    memcpy(&test_num, tn, sizeof test_num);
    if (test_int != 0x5678 || test_num != (lua_Number)370.5) goto corrupt;
    (void)rr_read_byte(&r);                       /* upvalues of the main function */
    rr_proto main_proto;
    memset(&main_proto, 0, sizeof main_proto);
    rr_read_function(&r, &main_proto, 0);
    if (r.failed || r.p != r.end) { rr_free_proto(&main_proto); goto corrupt; }
    rr_verdict v = { message, capacity, 0, 0 };
    if (closure)
        rr_check_proto(&v, &main_proto, NULL, 0, 0, NULL, 0);
    else
        for (int c = 0; c < main_proto.np && !v.found; c++)
            rr_check_proto(&v, &main_proto.p[c], &main_proto, c, 1, NULL, 0);
    rr_free_proto(&main_proto);
    if (v.found == 1) { *line = v.line; return 1; }
    if (v.found < 0) return -1;
    return 0;
corrupt:
    snprintf(message, capacity, "internal error: the bytecode of the file cannot be read");
    return -1;
}

static int rr_check_function(lua_State *L, int closure, int *line, char *message, size_t capacity) {
    *line = 0;
    if (capacity > 0) message[0] = '\0';
    if (lua_type(L, -1) != LUA_TFUNCTION || lua_iscfunction(L, -1)) {
        snprintf(message, capacity, "internal error: no Lua function to check");
        return -1;
    }
    rr_buffer b = { NULL, 0, 0, 0 };
    int status = lua_dump(L, rr_dump_writer, &b, 0);
    int result;
    if (status != 0 || b.failed) {
        snprintf(message, capacity, "internal error: the bytecode of the file cannot be written");
        result = -1;
    } else {
        result = rr_check_dump(b.data, b.size, closure, line, message, capacity);
    }
    free(b.data);
    /* Each function the loaded file keeps is dumped again: charged to the load's budget, one
       instruction per 8 bytes, or 10,000 closures of one huge function would load for ages. */
    if (closure) rr_charge(L, (double)b.size / 8.0);
    return result;
}

int rr_check_no_state(lua_State *L, int *line, char *message, size_t capacity) {
    return rr_check_function(L, 0, line, message, capacity);
}

int rr_check_kept_closure(lua_State *L, int *line, char *message, size_t capacity) {
    return rr_check_function(L, 1, line, message, capacity);
}

/* Marks the lines of f's code, and of the functions nested in it, as luaG's activelines does, less
   the function's last instruction (the return the compiler adds at its `end`, which a function
   that returns explicitly never reaches). */
static void rr_mark_lines(const rr_proto *f, unsigned char *lines, int capacity) {
    int line = f->linedefined, abs = 0;
    for (int pc = 0; pc < f->nlineinfo && pc < f->ncode; pc++) {
        if (f->lineinfo[pc] == RR_ABSLINEINFO) {
            while (abs < f->nabs && f->abspc[abs] < pc) abs++;
            if (abs >= f->nabs || f->abspc[abs] != pc) return;
            line = f->absline[abs];
        } else {
            line += f->lineinfo[pc];
        }
        if (line <= 0 || line >= capacity || (pc == 0 && f->is_vararg)) continue;  /* VARARGPREP */
        if (pc < f->ncode - 1) lines[line] = 1;
        else if (lines[line] == 0) lines[line] = 2;                                  /* the final return */
    }
    for (int c = 0; c < f->np; c++) rr_mark_lines(&f->p[c], lines, capacity);
}

int rr_function_lines(lua_State *L, unsigned char *lines, int capacity) {
    size_t size = 0;
    unsigned char *data = rr_dump_for_tests(L, &size);
    if (!data) return -1;
    static const size_t header = 12 + 3 + sizeof(lua_Integer) + sizeof(lua_Number) + 1;
    rr_reader r = { data, data + size, 0 };
    int result = -1;
    if (size > header) {
        r.p += header;                            /* checked by rr_check_no_state when the file loaded */
        rr_proto main_proto;
        memset(&main_proto, 0, sizeof main_proto);
        rr_read_function(&r, &main_proto, 0);
        if (!r.failed) {
            for (int c = 0; c < main_proto.np; c++) rr_mark_lines(&main_proto.p[c], lines, capacity);
            result = 0;
        }
        rr_free_proto(&main_proto);
    }
    free(data);
    return result;
}

int rr_check_dump_for_tests(const unsigned char *data, size_t size, int *line, char *message, size_t capacity) {
    *line = 0;
    if (capacity > 0) message[0] = '\0';
    return rr_check_dump(data, size, 0, line, message, capacity);
}

unsigned char *rr_dump_for_tests(lua_State *L, size_t *size) {
    rr_buffer b = { NULL, 0, 0, 0 };
    *size = 0;
    if (lua_type(L, -1) != LUA_TFUNCTION || lua_iscfunction(L, -1)) return NULL;
    if (lua_dump(L, rr_dump_writer, &b, 0) != 0 || b.failed) { free(b.data); return NULL; }
    *size = b.size;
    return b.data;
}
