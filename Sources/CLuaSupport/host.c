/*
 * Layer 2. The boundary with Swift: the trampoline through which Lua calls a host function, print
 * (to the host's log) and the message handler the host's lua_pcall uses (rr_traceback). Calls
 * runtime.c and budget.c (see internal.h for the order).
 */
#include "internal.h"
#include <stdio.h>
#include <string.h>

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
