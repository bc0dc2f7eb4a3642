/*
 * CLuaSupport: the part of the Lua runtime that must be written in C.
 *
 * - A counting allocator with a memory ceiling. While Swift code runs (host_depth > 0) it never
 *   refuses, so no allocation made on behalf of Swift can raise a Lua error through a Swift frame.
 * - An instruction-count hook that enforces a per-call budget and the memory ceiling with errors
 *   that carry `file:line`.
 * - The trampoline through which Lua calls Swift: the Swift function returns a status, and the
 *   error, if any, is raised here after the Swift frame has returned.
 * - The sandbox: an allow-list of library functions, read-only (frozen) tables, per-file
 *   environments, and replacements for the base functions that must not let a rule escape its
 *   budget (pcall, xpcall) or change what other rules see (rawset, setmetatable).
 *
 * Every function here that may raise is a lua_CFunction meant to run under lua_pcall.
 */
#ifndef CLUA_SUPPORT_H
#define CLUA_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

typedef struct lua_State lua_State;

/* What the last error raised by this runtime's own C code was about. */
enum {
    RR_RAISE_NONE = 0,
    RR_RAISE_HOST_FUNCTION = 1,   /* a Swift function reported a failure */
    RR_RAISE_BUDGET = 2,          /* the instruction budget ran out */
    RR_RAISE_MEMORY = 3,          /* the memory ceiling was reached */
    RR_RAISE_PATTERN = 4,         /* a pattern was refused as too costly for its subject */
    RR_RAISE_READONLY = 5,        /* an attempt to modify a read-only table or a host global */
    RR_RAISE_KEEPS_STATE = 6,     /* a file refused at load: a closure it made keeps state */
};

/* Calls from C into Swift. Neither may raise a Lua error. */
typedef int (*rr_dispatch_fn)(lua_State *L, void *context, int64_t function_id);
typedef void (*rr_log_fn)(void *context, const char *message, size_t length);

/* One read of a knob (a field of a frozen rule table that is not a table or a function) while a
   call was explained: `name` is its path from the file's table (`escalation.recover_after[2]`), the
   value its Lua type and its text (an integer, a float as %.17g, true/false, a string cut at
   RR_TRACE_TEXT_BYTES - 1 bytes with `cut` set). A read of a param (a field of the params table of
   a record, rr_trace_params) is recorded the same way, with `is_param` set and the param's name. */
#define RR_TRACE_NAME_BYTES 160
#define RR_TRACE_TEXT_BYTES 96
#define RR_TRACE_MAX_READS 256
typedef struct rr_knob_read {
    char name[RR_TRACE_NAME_BYTES];
    int type;                /* LUA_TNIL, LUA_TBOOLEAN, LUA_TNUMBER (integer: is_integer), LUA_TSTRING, other */
    int is_integer;
    int cut;
    int is_param;
    char text[RR_TRACE_TEXT_BYTES];
} rr_knob_read;

/* A note a rule attached to the call being explained (`note("night surcharge 50 %")`, trace.c): at
   most RR_TRACE_MAX_NOTES a call, each cut at RR_TRACE_NOTE_BYTES bytes (at a character) with `cut`
   set; `length` bytes of text (it may hold NULs). */
#define RR_TRACE_MAX_NOTES 8
#define RR_TRACE_NOTE_BYTES 200
typedef struct rr_note {
    char text[RR_TRACE_NOTE_BYTES];
    int length;
    int cut;
} rr_note;

typedef struct rr_runtime {
    lua_State *L;

    /* Memory. */
    size_t mem_used;
    size_t mem_peak;
    size_t mem_limit;        /* the ceiling; checked by the hook and by size-checking functions */
    size_t mem_hard_limit;   /* the allocator refuses beyond this */
    int host_depth;          /* > 0 while Swift code runs: never refuse then */
    /* Free lists of small blocks by 16-byte size class (Lua allocates and frees many small
       objects per call; recycling them avoids most malloc/free calls). */
    void *free_lists[17];
    int free_counts[17];

    /* Instruction budget of the current call (0 = unlimited). */
    int64_t budget;
    int64_t budget_remaining;
    int hook_interval;       /* instructions between two hook calls */
    int hook_count;          /* the count the hook is set to now (1 right after a memory watermark) */
    int64_t instructions_total; /* instructions counted by the hook over the state's life */
    size_t mem_watch;        /* crossing this makes the hook run at the next instruction */

    /* Pattern matching: refuse a find/match/gmatch/gsub whose worst case exceeds this many steps. */
    double pattern_step_limit;
    size_t pattern_max_length;

    /* Set by the C code that raised the error currently propagating; cleared when a rule's own
       pcall catches a recoverable one. budget/memory errors are fatal: pcall cannot catch them. */
    int raised;
    int fatal;

    /* Where the hook last saw Lua running (for memory errors raised by the allocator itself). */
    int last_line;
    char last_source[64];

    /* The line recorder (coverage.c): NULL until first started; line_mask is LUA_MASKLINE while it
       records, else 0 (then no line hook is installed). */
    struct rr_lines *lines;
    int line_mask;

    /* Knob reads while a call is explained (trace.c): recorded only while trace_reads is set. */
    int trace_reads;
    struct rr_knob_read *reads;
    int reads_count;
    int reads_capacity;
    int reads_dropped;       /* reads past RR_TRACE_MAX_READS in the current call */
    /* Notes of the call being explained (malloc'd on the first one, RR_TRACE_MAX_NOTES of them). */
    struct rr_note *notes;
    int notes_count;
    int notes_dropped;       /* notes past RR_TRACE_MAX_NOTES in the current call */
    /* The levels of the stack below the explained call's own frame, and the last line that frame
       ran (0: none yet): where it returned from, or raised (the line hook, budget.c, keeps it). */
    int trace_level;
    int return_line;

    /* Views (frozen.c): the bits of the declared fields that rules read through a view since the
       host last cleared it; RR_VIEW_ALL when a read could not be told apart (pairs, next, #, a
       field not declared). */
    uint64_t view_reads;
    /* Writes of rules into kept tables (frozen.c) over the state's life. */
    int64_t args_written;
    /* math.random's generator state (a userdata of the math library), to tell whether a call drew. */
    const void *random_state;
    size_t random_state_size;

    /* Swift. */
    rr_dispatch_fn dispatch;
    rr_log_fn log;
    void *context;
} rr_runtime;

/* A new state whose allocator counts into rt; rt->L is set. NULL if the state cannot be created. */
lua_State *rr_newstate(rr_runtime *rt);
/* The runtime of a state. */
rr_runtime *rr_runtime_of(lua_State *L);
/* Closes the state and releases the cached blocks; rt stays owned by the caller. */
void rr_close(rr_runtime *rt);

/* Arms the budget and the hook before a call into Lua (budget 0 = no budget, no hook). */
void rr_arm(rr_runtime *rt, int64_t budget);
/* Charges `cost` instructions of work the host did for the current call or load (converting its
   results). Never raises; returns 1 when the budget is used up (0 when there is none). */
int rr_charge_host(rr_runtime *rt, int64_t cost);
/* Writes the one message of a budget that ran out ("instruction budget exceeded (N instructions per
   call; memory allocated counts too)") into out; returns what snprintf does. Every budget error,
   C's or the host's, starts with it. */
int rr_budget_message(const rr_runtime *rt, char *out, size_t capacity);
/* The line recorder (coverage.c). Start: from the next call into Lua on, every line a chunk loaded
   from a file runs is counted (returns 0 when out of memory). Stop: no line hook any more (counts
   are kept). The counts are read per chunk: name (without '@') and counts[line] for line <
   size; reset zeroes them (chunks stay listed), free releases the recorder. */
int rr_lines_start(rr_runtime *rt);
void rr_lines_stop(rr_runtime *rt);
int rr_lines_chunks(const rr_runtime *rt);
const char *rr_lines_chunk_name(const rr_runtime *rt, int i);
const int64_t *rr_lines_counts(const rr_runtime *rt, int i, int *size);
void rr_lines_reset(rr_runtime *rt);
void rr_lines_free(rr_runtime *rt);
/* The lines of the Lua function on top of the stack (a chunk just loaded) that have code, in the
   functions it defines, nested at any depth, but not in the main chunk itself (its lines run once,
   when the file loads): lines[line] is set to 1 for line < capacity, or to 2 for a line whose only
   code is the return the compiler adds at a function's `end`. Returns 0, or -1 when the
   bytecode cannot be read. Leaves the stack as it is; never raises. */
int rr_function_lines(lua_State *L, unsigned char *lines, int capacity);

/* Resets the error bookkeeping before a call into Lua. */
void rr_reset_raise(rr_runtime *rt);

/* lua_CFunctions, run under lua_pcall: */
/* (seed) -> builds the sandbox globals (kept in the registry). */
int rr_sandbox_open(lua_State *L);
/* (chunk [, base]) -> sets a new per-file environment as the chunk's _ENV (with the global `base`
   when given); returns nothing. */
int rr_sandbox_setenv(lua_State *L);
/* (chunk, basechunk...) -> calls chunk; then seals its environment (and those of the base chunks)
   and freezes every table reachable from its results and from the globals of all of them.
   Returns the chunk's results. */
int rr_sandbox_runchunk(lua_State *L);
/* (chunk) -> calls the chunk of a file another file extends; seals its environment but freezes
   nothing (the extending file may still change the table); returns the table it returned. */
int rr_sandbox_runbase(lua_State *L);
/* (seed) -> reseeds math.random. */
int rr_reseed(lua_State *L);
/* (table) -> freezes a table and every table reachable from it (in place). */
int rr_freeze_deep(lua_State *L);

/* Checks the Lua function on top of the stack (a chunk just loaded, not yet run) for functions that
   would keep state between calls: an assignment, in any function but the main chunk, to a local of
   the main chunk or to its _ENV. Returns 0 when there is none; 1 when there is one (`line` is the
   line of the assignment, `message` says which function and variable); -1 when the bytecode cannot
   be read (`message` says so). Leaves the stack as it is; never raises. */
int rr_check_no_state(lua_State *L, int *line, char *message, size_t capacity);
/* The same check on a dump (lua_dump, not stripped) given as bytes (exposed for tests). */
int rr_check_dump_for_tests(const unsigned char *data, size_t size, int *line, char *message, size_t capacity);
/* The dump of the Lua function on top of the stack (not stripped), malloc'ed; NULL on failure
   (exposed for tests). */
unsigned char *rr_dump_for_tests(lua_State *L, size_t *size);

/* Message handler for lua_pcall: the message followed by "\nstack traceback:\n...". */
int rr_traceback(lua_State *L);

/* Pushes a C closure that calls back into Swift with function_id; name is for messages. */
void rr_push_host_function(lua_State *L, int64_t function_id, const char *name);

/* Pushes a table for the arguments the host passes to rules: new keys, rawset and setmetatable
   are refused; the host refills it for every call. Allocates: call in host mode. */
void rr_push_input_table(lua_State *L, int nrec);

/* Pushes a kept table: an empty proxy in front of its contents (rr_push_contents gives them; the
   host writes there), for the lists the host keeps between calls and refills only where their
   values changed. Rules read it as an input table; they may set a field it has (the write goes to
   the contents and counts in rt->args_written, after which the host fills every kept table again)
   but not add one; rawset and setmetatable are refused. Allocates: call in host mode. */
void rr_push_kept_table(lua_State *L, int narr, int nrec);

/* Fills a kept list of one-field records for a rule call: for i = 1..n, the kept table
   elements[i] (made when missing) gets key = values[i-1] and the list's slot i is set to it, except
   where i <= nkept and kept[i-1] == values[i-1] (the previous fill, which no rule changed since:
   the element and its slot still hold it); slots n+1..previous become nil. list (a kept table) and
   elements are absolute stack indices; the key is on top of the stack and is popped. Allocates only
   for new elements: call in host mode. */
void rr_fill_int_records(lua_State *L, int list, int elements, const int64_t *values, int n, int previous,
                         const int64_t *kept, int nkept);

/* Every field of a view. */
#define RR_VIEW_ALL UINT64_MAX
/* Pushes a view for a record the host passes to a rule: an empty read-only proxy (as a frozen
   table is: rr_push_contents gives the table the host writes the fields into) whose fields are read
   through a C __index that adds, to rt->view_reads, the bit of each field read. The fields are
   declared with rr_view_declare; reading one not declared, `pairs`, `next` or `#` on the view adds
   RR_VIEW_ALL, as does the sandbox's rawget (which, like its rawlen, reads through the proxy).
   Rules see the same values and run the same instructions as with an input table, but every write
   is refused. Allocates: call in host mode. */
void rr_push_view_table(lua_State *L, int nrec);
/* Declares the field whose name is on top of the stack (popped) as bit `bit` (0...62) of the view
   at index `view`. Allocates: call in host mode. */
void rr_view_declare(lua_State *L, int view, int bit);
/* Copies math.random's generator state into out (size rt->random_state_size, at most 64 bytes):
   a call drew from math.random if the state differs after it. Returns 0 when there is no state. */
int rr_random_stamp(const rr_runtime *rt, unsigned char out[64]);

/* If the table at idx is frozen, pushes the table that holds its contents; else pushes it again. */
void rr_push_contents(lua_State *L, int idx);
/* Whether the value at idx is a frozen table. */
int rr_is_frozen(lua_State *L, int idx);

/* The sandbox globals table (the raw one, never exposed to rules). */
void rr_push_sandbox_globals(lua_State *L);

/* Worst-case step estimate of matching pattern p against a subject of length n (exposed for tests). */
double rr_pattern_cost(const char *p, size_t plen, size_t n, int anchored_allowed);

/* Explaining (trace.c). Makes every frozen table reachable from the table at idx (a rule file's
   table, named `name`) report its reads: its __index becomes a C closure that reads the contents as
   before (rules see the same values; no instruction runs; only the call of the closure may need a
   call frame Lua has not cached, 72 bytes) and, while
   rt->trace_reads is set, records the read in rt->reads. Tables already made so keep their first
   (shortest) name. Allocates (the closures and names): call in host mode, under lua_pcall. Once
   made, the tables stay so for the life of the state. */
int rr_trace_knobs(lua_State *L);
/* Makes the params table at idx (a kept table, rr_push_kept_table, that the host fills with a rule
   file's params) report its reads as rr_trace_knobs makes a knob table: each read of a field that
   is not a table or a function is recorded, while rt->trace_reads is set, with is_param and the
   field as its name. With `writable`, a rule may also add fields to it (as to the plain table the
   host passes when not explaining), not only set those it has. Allocates: call in host mode. */
void rr_trace_params(lua_State *L, int idx, int writable);
/* Starts recording knob and param reads, notes and the returning line of the call about to be
   made (clears what was recorded); stops recording. */
void rr_trace_reads_begin(rr_runtime *rt);
void rr_trace_reads_end(rr_runtime *rt);

/* The build id of the loaded image holding `address` (the executable or a shared library), read
   from the image in memory: its length (at most `capacity` bytes written to `out`), 0 when the
   image has none or the system cannot tell (Linux only). */
size_t rr_build_id(const void *address, unsigned char *out, size_t capacity);
/* The address of the symbol `name` as the process resolves it (the library that defines it), or NULL. */
const void *rr_symbol_address(const char *name);

#endif
