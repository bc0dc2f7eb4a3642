import CLua
import CLuaSupport
public final class LuaHost {}
