/*
 * Shared by the C files of CLuaSupport; not part of its public header.
 *
 * Each file has one concern, and the files form a line: a file calls only the files of lower
 * layers (never one of its own layer or above), and this header declares them in that order,
 * one section per file.
 *
 *   0  runtime.c      the state, the counting allocator, raising an error (rr_raise)
 *   0  coverage.c     the line recorder: how often each line of each chunk ran
 *   1  budget.c       the instruction budget: the count hook, charges, the one budget message
 *   2  host.c         the boundary with Swift: host functions, print, the traceback handler
 *   2  tables.c       reading tables as rules see them: frozen contents, ordered pairs/next, tostring
 *   2  statecheck.c   the bytecode check for functions that would keep state between calls
 *   3  frozen.c       making tables read-only (and refusing kept state while freezing a file)
 *   3  trace.c        explaining a call: the knobs and params it reads (read through a closure), its notes
 *   3  guards.c       the guarded and metered string, table and utf8 libraries
 *   4  sandbox.c      the sandbox's globals: allowed base functions, replacements, libraries
 *   5  environment.c  each file's environment, running a file and sealing it
 *
 * Files of one layer do not call each other. The call graph:
 *   budget -> runtime, coverage;  host, tables, statecheck -> budget, runtime;
 *   frozen -> tables, host (rr_trampoline), statecheck, runtime;  trace -> tables, runtime;
 *   guards -> tables, budget, runtime;  sandbox -> frozen, trace, guards, tables, host, budget, runtime;
 *   environment -> sandbox, frozen, tables, runtime.
 */
#ifndef RR_INTERNAL_H
#define RR_INTERNAL_H

#include "CLuaSupport.h"
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>

/* ---- 0 runtime.c ---- */

/* Light-userdata keys: Lua code cannot forge them. */
extern const char rr_key_globals;   /* registry: the sandbox globals */
extern const char rr_key_frozen;    /* metatable of a frozen table: the table holding its contents */
extern const char rr_key_name;      /* metatable of a frozen table: what it is, for messages */
extern const char rr_key_acting;    /* metatable of a frozen class: the metatable its objects get */
extern const char rr_key_sealed;    /* metatable of an environment: true once its chunk has run */
extern const char rr_key_hostfns;   /* registry: set of the sandbox's C functions */
extern const char rr_key_randomseed;/* registry: the original math.randomseed */
extern const char rr_key_view;      /* metatable of a view or a kept table (frozen.c) */

/* Raises err (a string on top of the stack) on behalf of this runtime's own checks. */
int rr_raise(lua_State *L, int kind, int fatal);

/* What an allocation made by Lua code costs, in instructions: RR_ALLOCATION_COST each, plus one per
   RR_BYTES_PER_INSTRUCTION bytes allocated (charged by the allocator; the hook raises). */
#define RR_ALLOCATION_COST 64
#define RR_BYTES_PER_INSTRUCTION 16

/* ---- 0 coverage.c ---- */

/* Counts one line event of `source` (Lua's chunk name, '@' first for files). */
void rr_lines_record(rr_runtime *rt, const char *source, int line);

/* ---- 1 budget.c ---- */

/* Charges `cost` instructions to the current call; raises the budget error when it runs out. */
void rr_charge(lua_State *L, double cost);
/* Charges for visiting `entries` table entries against the call's instruction budget. */
void rr_charge_size(lua_State *L, double entries);
/* Charges for sorting `n` values (n log2 n comparisons, `per_comparison` instructions each). */
void rr_charge_sort(lua_State *L, double n, double per_comparison);
/* Instructions charged for a stack overflow (see rr_charge_stack_overflow). */
#define RR_STACK_OVERFLOW_COST 20000000
/* Whether the value at idx is Lua's stack overflow message. */
int rr_is_stack_overflow(lua_State *L, int idx);
/* Charges a stack overflow to the call's budget; with `raise`, raises the budget error if it runs out. */
void rr_charge_stack_overflow(lua_State *L, int raise);

/* ---- 2 host.c ---- */

/* The C function behind every host function (rr_push_host_function). */
int rr_trampoline(lua_State *L);
/* The sandbox's print: to the host's log, charged. */
int rr_print(lua_State *L);

/* ---- 2 tables.c ---- */

/* (rr_is_frozen and rr_push_contents are in the public header.) */
/* The __pairs of a frozen table or an environment: the sandbox's pairs on its contents. */
int rr_frozen_pairs(lua_State *L);
/* The sandbox's pairs, next and tostring: a fixed order, no addresses. */
int rr_pairs(lua_State *L);
int rr_next(lua_State *L);
int rr_tostring(lua_State *L);
/* When the value at idx (an absolute index) is a view or a kept table (a proxy of the host's
   arguments), marks every field of it read (rt->view_reads) and replaces it with its contents. */
void rr_read_through_view(lua_State *L, int idx);
/* Whether Lua's tostring shows a value of type t as an address ("table: 0x55..."). */
static inline int rr_prints_address(int t) {
    return t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD || t == LUA_TLIGHTUSERDATA;
}
/* Pushes tostring(value at idx) without addresses. */
void rr_push_tostring(lua_State *L, int idx);

/* ---- 2 statecheck.c ---- */

/* Checks the Lua function on top of the stack, a closure that outlived the loading of its file,
   for an assignment to one of its upvalues (in it or in a function nested in it that shares the
   upvalue): that variable is kept between calls. Same results as rr_check_no_state. */
int rr_check_kept_closure(lua_State *L, int *line, char *message, size_t capacity);

/* ---- 3 frozen.c ---- */

/* Freezes the table at idx in place (shallow). `what` describes it in error messages. */
void rr_freeze_shallow(lua_State *L, int idx, const char *what);
/* Freezes every table reachable from the value at idx (freeze_root: the value itself too); with
   check_state, refuses a function or an iterator that would keep state between calls. */
void rr_freeze_reachable(lua_State *L, int idx, const char *what, int freeze_root, int check_state);
/* Pushes the metatable that objects of the frozen class at idx get, or returns 0. */
int rr_push_acting_metatable(lua_State *L, int idx);

/* ---- 3 trace.c ---- */

/* The sandbox's note(text): while a call is explained, attaches text to it (rt->notes); otherwise
   does nothing. A text that is not a string is an error at the calling line. */
int rr_add_note(lua_State *L);

/* ---- 3 guards.c ---- */

void rr_install_string_guards(lua_State *L, int strlib);
void rr_install_table_guards(lua_State *L, int tablib);
void rr_install_utf8_guards(lua_State *L, int utf8lib);

/* ---- 4 sandbox.c, 5 environment.c: only what the public header declares ---- */

#endif
