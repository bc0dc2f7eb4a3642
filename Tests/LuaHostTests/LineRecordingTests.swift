import LuaHost
import Testing

/// The line recorder behind coverage: counts per chunk and line, readable and reset between calls,
/// with no effect on the instruction budget; the lines that have code; `if` arms from line counts.
@Suite struct LineRecordingTests {
    static let source = """
        local M = {}

        -- a comment
        function M.sign(x)
          if x > 0 then
            return 1
          elseif x < 0 then
            return -1
          end
          return 0
        end

        function M.loop(n)
          local total = 0
          for i = 1, n do
            total = total + i
          end
          return total
        end

        return M
        """

    static func load(_ host: LuaHost) throws -> (sign: LuaFunction, loop: LuaFunction) {
        let module = try #require(try host.load(source, chunkName: "sign.lua").first?.tableValue)
        return (try #require(module["sign"].functionValue), try #require(module["loop"].functionValue))
    }

    @Test func countsEachLineEachCallRanAndResetsWhenTaken() throws {
        let host = try LuaHost()
        let f = try Self.load(host)
        host.startLineRecording()
        _ = try host.call(f.sign, .integer(5))
        _ = try host.call(f.sign, .integer(-5))
        let counts = try #require(host.takeLineCounts().chunks["sign.lua"])
        #expect(counts == [5: 2, 6: 1, 7: 1, 8: 1])
        // Taken: the next call's lines alone (what an explanation of one call needs). Lua gives a
        // numeric for's loop-back instruction the line of its `for`.
        _ = try host.call(f.loop, .integer(3))
        #expect(host.takeLineCounts().chunks["sign.lua"] == [14: 1, 15: 4, 16: 3, 18: 1])
        host.stopLineRecording()
        _ = try host.call(f.sign, .integer(0))
        #expect(host.takeLineCounts().isEmpty)
    }

    @Test func loadingIsNotRecordedBeforeStarting() throws {
        let host = try LuaHost()
        let f = try Self.load(host)
        #expect(host.takeLineCounts().isEmpty)
        _ = try host.call(f.sign, .integer(1))
        #expect(host.takeLineCounts().isEmpty)
    }

    /// The line hook shares the budget's hook function: the instructions counted, and where a
    /// budget runs out, are the same with and without recording.
    @Test func theBudgetCountsTheSameWhileRecording() throws {
        func run(recording: Bool) throws -> (instructions: Int64, error: LuaError) {
            let host = try LuaHost(limits: LuaLimits(instructionsPerCall: 10_007))
            let f = try Self.load(host)
            if recording { host.startLineRecording() }
            let before = host.instructionsRun
            _ = try host.call(f.loop, .integer(100))
            let used = host.instructionsRun - before
            do {
                _ = try host.call(f.loop, .integer(1_000_000))
            } catch let error as LuaError {
                return (used, error)
            }
            Issue.record("expected the budget to run out")
            return (used, LuaError(kind: .runtime, message: ""))
        }
        let plain = try run(recording: false), recorded = try run(recording: true)
        #expect(plain.instructions == recorded.instructions)
        #expect(plain.error.kind == .instructionBudget)
        #expect(plain.error.description == recorded.error.description)
    }

    @Test func executableLinesLeaveOutBlankCommentsFunctionEndsAndTheTopLevel() throws {
        let host = try LuaHost()
        let (code, ends) = try host.executableLines(of: Array(Self.source.utf8), chunkName: "sign.lua")
        #expect(code == [5, 6, 7, 8, 10, 14, 15, 16, 18])  // 17, the `end` of the for: its jump is on line 15
        #expect(ends.isSuperset(of: [11, 19]))
    }

    @Test func ifArmsAreJudgedFromLineCounts() throws {
        let source = """
            local M = {}
            function M.f(x, y)
              if x then return 1 end
              if y then
                y = y + 1
              end
              return y
            end
            return M
            """
        let host = try LuaHost()
        let (code, ends) = try host.executableLines(of: Array(source.utf8), chunkName: "f.lua")
        let arms = LuaBranch.arms(in: source, codeLines: code, endLines: ends)
        #expect(arms.map(\.kind) == [.then, .implicitElse, .then, .implicitElse])
        #expect(arms.map(\.line) == [3, 3, 5, 4])
        let module = try #require(try host.load(source, chunkName: "f.lua").first?.tableValue)
        let f = try #require(module["f"].functionValue)
        host.startLineRecording()
        _ = try host.call(f, .boolean(false), .integer(1))  // line 3 falls through; y's then arm runs
        let counts = host.takeLineCounts()
        let ran = arms.map { arm in arm.ran { counts.count("f.lua", line: $0) } }
        #expect(ran == [false, true, true, false])
    }
}
