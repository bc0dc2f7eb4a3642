import CLua
import CLuaSupport

extension LuaHost {
    /// The one place where a Lua status and the message on top of the stack become a `LuaError`.
    func error(status: Int32, chunk: String?) -> LuaError {
        var text = "unknown error"
        var length = 0
        if lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER, let cString = lua_tolstring(L, -1, &length) {
            // A message that is not UTF-8 (`error("\\xff")`) keeps its bytes visible as `\xFF`.
            text = VisibleText.decoding(UnsafeRawBufferPointer(start: cString, count: length), escapingControls: false)
        } else if lua_type(L, -1) != LUA_TNONE {
            text = "(error object is a \(String(cString: clua_typename(L, -1))) value)"
        }
        var traceback: String?
        if let range = text.range(of: "\nstack traceback:\n") {
            traceback = String(text[range.lowerBound...].dropFirst())
            text = String(text[..<range.lowerBound])
        }
        let raised = runtime.pointee.raised
        let kind: LuaError.Kind
        switch status {
        case LUA_ERRSYNTAX: kind = .syntax
        case LUA_ERRMEM: kind = .memory
        default:
            switch Int(raised) {
            case RR_RAISE_BUDGET, RR_RAISE_PATTERN: kind = .instructionBudget
            case RR_RAISE_MEMORY: kind = .memory
            case RR_RAISE_HOST_FUNCTION: kind = .hostFunction
            case RR_RAISE_KEEPS_STATE: kind = .keepsState
            default: kind = .runtime
            }
        }
        var failure = LuaError(kind: kind, file: chunk, message: text, traceback: traceback)
        if let position = LuaError.parsePosition(text) {
            failure.file = fullChunkName(position.file)
            failure.line = position.line
            failure.message = position.rest
        } else if kind == .memory {
            // Raised by the allocator itself: Lua keeps no position; use where the hook last saw it.
            let line = Int(runtime.pointee.last_line)
            if line > 0 {
                failure.file = fullChunkName(
                    withUnsafeBytes(of: runtime.pointee.last_source) {
                        String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self))
                    })
                failure.line = line
            }
            failure.message = "not enough memory (the limit is \(limits.memoryBytes) bytes)"
        }
        return failure
    }

    /// The one message of a budget that ran out (C's `rr_budget_message`), which every budget error
    /// starts with: `instruction budget exceeded (N instructions per call; memory allocated counts too)`.
    func budgetMessage() -> String {
        var buffer = [CChar](repeating: 0, count: 160)
        _ = buffer.withUnsafeMutableBufferPointer { rr_budget_message(runtime, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A chunk's name as Lua's messages give it (`short_src`: a name longer than 60 bytes is cut
    /// from the left, `...el/personas/x.lua`), in full when one chunk loaded here ends with it.
    func fullChunkName(_ shown: String) -> String {
        guard shown.hasPrefix("...") else { return shown }
        let tail = shown.dropFirst(3)
        let matches = chunkNames.filter { $0.hasSuffix(tail) }
        return matches.count == 1 ? matches.first! : shown
    }
}
