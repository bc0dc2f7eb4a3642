/* Shared by the C files of CLuaSupport; not part of its public header. */
#ifndef RR_INTERNAL_H
#define RR_INTERNAL_H

#include "CLuaSupport.h"
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>

/* Light-userdata keys: Lua code cannot forge them. */
extern const char rr_key_globals;   /* registry: the sandbox globals */
extern const char rr_key_frozen;    /* metatable of a frozen table: the table holding its contents */
extern const char rr_key_name;      /* metatable of a frozen table: what it is, for messages */
extern const char rr_key_acting;    /* metatable of a frozen class: the metatable its objects get */
extern const char rr_key_sealed;
extern const char rr_key_hostfns;   /* registry: set of the sandbox's C functions */    /* metatable of an environment: true once its chunk has run */
extern const char rr_key_randomseed;/* registry: the original math.randomseed */

/* Raises err (a string on top of the stack) on behalf of this runtime's own checks. */
int rr_raise(lua_State *L, int kind, int fatal);

/* Freezes the table at idx in place (shallow). `what` describes it in error messages. */
void rr_freeze_shallow(lua_State *L, int idx, const char *what);

/* Checks the Lua function on top of the stack, a closure that outlived the loading of its file,
   for an assignment to one of its upvalues (in it or in a function nested in it that shares the
   upvalue): that variable is kept between calls. Same results as rr_check_no_state. */
int rr_check_kept_closure(lua_State *L, int *line, char *message, size_t capacity);

/* The C function behind every host function (rr_push_host_function). */
int rr_trampoline(lua_State *L);

/* Base-library replacements (sandbox.c) and guarded string/table functions (guards.c). */
int rr_pcall(lua_State *L);
int rr_xpcall(lua_State *L);
int rr_rawset(lua_State *L);
int rr_setmetatable(lua_State *L);
int rr_print(lua_State *L);
void rr_install_string_guards(lua_State *L, int strlib);
void rr_install_table_guards(lua_State *L, int tablib);
void rr_install_utf8_guards(lua_State *L, int utf8lib);
void rr_push_contents(lua_State *L, int idx);
/* Whether Lua's tostring shows a value of type t as an address ("table: 0x55..."). */
static inline int rr_prints_address(int t) {
    return t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD || t == LUA_TLIGHTUSERDATA;
}
/* Pushes tostring(value at idx) without addresses (see sandbox.c). */
void rr_push_tostring(lua_State *L, int idx);
/* Charges `cost` instructions to the current call; raises the budget error when it runs out. */
void rr_charge(lua_State *L, double cost);
/* Charges for visiting `entries` table entries against the call's instruction budget. */
void rr_charge_size(lua_State *L, double entries);
/* Instructions charged for a stack overflow (see rr_charge_stack_overflow). */
#define RR_STACK_OVERFLOW_COST 20000000
/* Whether the value at idx is Lua's stack overflow message. */
int rr_is_stack_overflow(lua_State *L, int idx);
/* Charges a stack overflow to the call's budget; with `raise`, raises the budget error if it runs out. */
void rr_charge_stack_overflow(lua_State *L, int raise);
/* What an allocation made by Lua code costs, in instructions: RR_ALLOCATION_COST each, plus one per
   RR_BYTES_PER_INSTRUCTION bytes allocated (see rr_charge_allocation). */
#define RR_ALLOCATION_COST 64
#define RR_BYTES_PER_INSTRUCTION 16
/* Charges for sorting `n` values (n log2 n comparisons, `per_comparison` instructions each). */
void rr_charge_sort(lua_State *L, double n, double per_comparison);

#endif
