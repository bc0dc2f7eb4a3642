#include "CLuaSupport.h"
#include <lua5.4/lua.h>
int rr_support_version(void) { return LUA_VERSION_NUM; }
