import CLua
import CLuaSupport

/// Recording the lines rules run (coverage), and the lines that can run.
///
/// Recording installs Lua's line hook next to the instruction-count hook (one hook function
/// dispatching on the event), so the instruction budget counts exactly what it counts without it;
/// when not recording, no line hook is installed at all. Counts accumulate until taken:
/// `takeLineCounts()` after each call gives the lines that call executed (what an explanation of
/// one decision needs), after a whole run the lines the run executed.
extension LuaHost {
    /// Counts every line of a file's chunk that runs from the next call into Lua on.
    package func startLineRecording() {
        _ = rr_lines_start(runtime)  // 0 only when out of memory: then nothing is recorded
    }

    /// Stops counting (the counts so far stay, for `takeLineCounts`).
    package func stopLineRecording() {
        rr_lines_stop(runtime)
    }

    /// Whether lines are being recorded.
    package var isRecordingLines: Bool { runtime.pointee.line_mask != 0 }

    /// The counts recorded since recording started or the counts were last taken, and zeroes them.
    package func takeLineCounts() -> LineCounts {
        defer { rr_lines_reset(runtime) }
        return lineCounts()
    }

    /// The counts recorded since recording started or the counts were last taken, left as they
    /// are (what one part of a run added is the difference of two readings, `LineCounts.since`).
    package func lineCounts() -> LineCounts {
        var result = LineCounts()
        for i in 0..<rr_lines_chunks(runtime) {
            guard let name = rr_lines_chunk_name(runtime, i) else { continue }
            var size: Int32 = 0
            guard let counts = rr_lines_counts(runtime, i, &size) else { continue }
            var lines: [Int: Int] = [:]
            for line in 0..<Int(size) where counts[line] > 0 { lines[line] = Int(counts[line]) }
            if !lines.isEmpty { result.chunks[String(cString: name), default: [:]].merge(lines, uniquingKeysWith: +) }
        }
        return result
    }

    /// The lines of a file that have code in the functions it defines (at any depth), from Lua's
    /// own debug information, as it would compile `bytes` under `chunkName`: no blank line,
    /// comment, or `end` of a function (those are `functionEnds`: the lines whose only code is the
    /// return Lua adds there, which a function that returns explicitly never reaches). The file's
    /// top level is left out: it runs once, when the file loads. Throws a syntax error as `load`
    /// would.
    package func executableLines(of bytes: [UInt8], chunkName: String) throws -> (code: Set<Int>, functionEnds: Set<Int>) {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let lineCount = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let status = hostMode {
            Self.text(of: bytes).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    clua_loadbufferx(L, $0.baseAddress, $0.count, "@" + chunkName, "t")
                }
            }
        }
        guard status == LUA_OK else { throw error(status: status, chunk: chunkName) }
        var marks = [UInt8](repeating: 0, count: lineCount + 2)
        let read = hostMode { rr_function_lines(L, &marks, Int32(marks.count)) }
        guard read == 0 else {
            throw LuaError(kind: .syntax, file: chunkName, message: "internal error: the bytecode of the file cannot be read")
        }
        return (Set(marks.indices.filter { marks[$0] == 1 }), Set(marks.indices.filter { marks[$0] == 2 }))
    }
}
