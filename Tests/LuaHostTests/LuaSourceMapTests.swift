import LuaHost
import Testing

@Suite struct LuaSourceMapTests {
    @Test func assignmentsToTheReturnedTableAndNestedConstructors() {
        let map = LuaSourceMap(
            source: """
                -- a comment with { braces } and M.fake = 1
                local M = {}
                M.max_tier = 3
                M.tiers = {
                  { level = 1, recover_after = 1 },
                  { level = 2,
                    recover_after = "two" },  --[[ a long
                  comment ]]
                  [3] = { level = 3 },
                }
                M.reminders = { [0] = { "mid" }, ["odd key"] = 2 }
                function M.transition(state, result)
                  if result == "YES" then M.fake = { x = 1 } elseif result then return 1 else return 2 end
                  return state
                end
                M.after = true
                return M
                """)
        #expect(map.exactLine(for: "max_tier") == 3)
        #expect(map.exactLine(for: "tiers") == 4)
        #expect(map.exactLine(for: "tiers[1]") == 5)
        #expect(map.exactLine(for: "tiers[1].recover_after") == 5)
        #expect(map.exactLine(for: "tiers[2].recover_after") == 7)
        #expect(map.exactLine(for: "tiers[3].level") == 9)
        #expect(map.exactLine(for: "reminders[0]") == 11)
        #expect(map.exactLine(for: "reminders[\"odd key\"]") == 11)
        #expect(map.exactLine(for: "transition") == 12)
        #expect(map.exactLine(for: "fake") == nil)
        #expect(map.exactLine(for: "after") == 16)
        // Unknown paths fall back to their closest written ancestor.
        #expect(map.line(for: "tiers[2].typo") == 6)
        #expect(map.line(for: "nowhere") == 2)
    }

    @Test func aLiteralReturnedTable() {
        let map = LuaSourceMap(source: "return {\n  a = 1,\n  b = { c = [[x\ny]], d = 4 },\n}\n")
        #expect(map.exactLine(for: "a") == 2)
        #expect(map.exactLine(for: "b.d") == 4)
        #expect(map.line(for: "") == 1)
    }

    @Test func stringsContinuedOnTheNextLineKeepLinesRight() {
        let map = LuaSourceMap(source: "local M = {\n  a = \"one\\z\n     two { { {\",\n  b = 'x\\\ny',\n  c = 3,\n}\nreturn M\n")
        #expect(map.exactLine(for: "a") == 2)
        #expect(map.exactLine(for: "b") == 4)
        #expect(map.exactLine(for: "c") == 6)
    }

    @Test func braceBombsHiddenInAStringDoNotOverflowTheStack() {
        // `\z` hid 50,000 `{` from a tokenizer that ended the string at the line break: one
        // recursion per brace crashed the process. Real constructors nested that deep are not
        // Lua either (its parser stops at about 200 levels); the map stops recording past 200.
        let bomb = "local M = { padding = \"\\z\n" + String(repeating: "{", count: 50_000) + "\" }\nM.late = 1\nreturn M\n"
        let map = LuaSourceMap(source: bomb)
        #expect(map.exactLine(for: "padding") == 1)
        #expect(map.exactLine(for: "late") == 3)
        let deep = "return { x = " + String(repeating: "{", count: 50_000) + String(repeating: "}", count: 50_000) + ", y = 1 }\n"
        #expect(LuaSourceMap(source: deep).exactLine(for: "y") == 1)
    }
}
