import Foundation
import LuaHost
import Testing

/// `.luacheckrc` mirrors the sandbox (docs/sandbox.md): every global and library field a rule can
/// use passes luacheck, and what the sandbox leaves out (coroutine, io, os, load, require,
/// string.dump, math.randomseed, …) is flagged, as it fails when the rule runs. And `luacheck rules
/// examples` stays clean. luacheck is installed by `scripts/test` (lua-check), as the README's
/// test command; run alone, these tests need it on PATH.
@Suite struct LuacheckConfigTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// luacheck with the repository's configuration, in the repository: exit status and output.
    func luacheck(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["luacheck", "--no-color", "--codes", "--config", Self.packageRoot.appendingPathComponent(".luacheckrc").path]
            + arguments
        process.currentDirectoryURL = Self.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        #expect(
            process.terminationStatus != 127, "luacheck is not installed (apt-get install -y lua-check, or run scripts/test): \(output)")
        return (process.terminationStatus, output)
    }

    /// The global names of Lua 5.4's manual (§6): the basic functions and the standard libraries.
    static let luaGlobals = """
        assert collectgarbage dofile error getmetatable ipairs load loadfile next pairs pcall print rawequal rawget rawlen rawset \
        require select setmetatable tonumber tostring type xpcall warn _G _VERSION \
        coroutine debug io math os package string table utf8
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

    /// What a rule sees, read from a real sandbox: each of the manual's globals it offers (for a
    /// library, `lib.field` for each of its fields), and those it does not.
    func sandboxNames() throws -> (offered: [String], missing: [String]) {
        let host = try LuaHost()
        let candidates = Self.luaGlobals.map { "\"\($0)\"" }.joined(separator: ", ")
        let values = try host.load(
            """
            local offered, missing = {}, {}
            for _, name in ipairs({\(candidates)}) do
              local value = _ENV[name]
              if value == nil then
                missing[#missing + 1] = name
              elseif type(value) == "table" and name ~= "_G" then
                for field in pairs(value) do offered[#offered + 1] = name .. "." .. field end
              else
                offered[#offered + 1] = name
              end
            end
            table.sort(offered)
            return table.concat(offered, " "), table.concat(missing, " ")
            """, chunkName: "names.lua")
        guard values.count == 2, case .string(let offered) = values[0], case .string(let missing) = values[1] else {
            throw LuaError(kind: .runtime, message: "no names: \(values)")
        }
        return (offered.split(separator: " ").map(String.init), missing.split(separator: " ").map(String.init))
    }

    func file(_ lines: [String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("luacheck-\(UUID().uuidString).lua")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func everythingTheSandboxOffersPassesLuacheck() throws {
        let names = try sandboxNames().offered
        // The sandbox as docs/sandbox.md lists it: the libraries and the base functions rules use.
        for expected in ["string.format", "table.concat", "math.floor", "utf8.char", "pcall", "setmetatable", "print", "_VERSION"] {
            #expect(names.contains(expected), "\(names)")
        }
        let portable = names.filter { !Self.compatibility.contains($0) }
        let url = try file(portable.map { "local _ = \($0)" })
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, output) = try luacheck([url.path])
        #expect(status == 0, "\(output)")
        // Lua 5.3's math functions that a Lua 5.4 built with LUA_COMPAT_MATHLIB keeps (Debian's):
        // flagged, as a Lua 5.4 built without it (Homebrew's) has none of them.
        let compat = names.filter { Self.compatibility.contains($0) }
        guard !compat.isEmpty else { return }
        let compatURL = try file(compat.map { "local _ = \($0)" })
        defer { try? FileManager.default.removeItem(at: compatURL) }
        let flagged = try luacheck([compatURL.path])
        #expect(flagged.status == 1)
        for (i, name) in compat.enumerated() { #expect(flagged.output.contains(":\(i + 1):11: (W143)"), "\(name): \(flagged.output)") }
    }

    /// rulesrun's own global, `note`, is in the sandbox and passes luacheck.
    @Test func noteIsAGlobalOfTheSandboxAndPassesLuacheck() throws {
        let host = try LuaHost()
        #expect(try host.load("return type(note)", chunkName: "n.lua") == [.string("function")])
        let url = try file(["-- a rule", "local M = {}", "function M.f(x) note(\"x is \" .. x) return x end", "return M"])
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, output) = try luacheck([url.path])
        #expect(status == 0, "\(output)")
    }

    static let compatibility: Set<String> = [
        "math.atan2", "math.cosh", "math.frexp", "math.ldexp", "math.log10", "math.pow", "math.sinh", "math.tanh",
    ]

    /// Each of the manual's globals the sandbox does not offer is flagged where it is used.
    @Test func everyGlobalTheSandboxLeavesOutIsFlagged() throws {
        let missing = try sandboxNames().missing
        #expect(missing.contains("coroutine") && missing.contains("load") && missing.contains("os"), "\(missing)")
        let url = try file(missing.map { "local _ = \($0)" })
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, output) = try luacheck([url.path])
        #expect(status == 1, "\(output)")
        for (i, name) in missing.enumerated() {
            #expect(output.contains(":\(i + 1):11: (W113) accessing undefined variable '\(name)'"), "\(name): \(output)")
        }
    }

    /// The library fields and globals the sandbox removes, each flagged where it is used.
    @Test(arguments: [
        "coroutine.wrap", "string.dump", "load", "loadstring", "dofile", "loadfile", "require", "io.open", "os.time", "os.execute",
        "math.randomseed", "debug.traceback", "collectgarbage", "package.path",
    ])
    func whatTheSandboxLeavesOutIsFlagged(_ name: String) throws {
        let names = try sandboxNames().offered
        #expect(!names.contains(name), "the sandbox offers \(name); the test's list is out of date")
        let url = try file(["-- a rule", "local x = \(name)", "return x"])
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, output) = try luacheck([url.path])
        #expect(status == 1, "\(output)")
        // W113 (an unknown global) or W143 (an unknown field of a known library), at line 2.
        #expect(output.contains(":2:11: (W113)") || output.contains(":2:11: (W143)"), "\(output)")
    }

    @Test func theRuleAndExampleFilesAreClean() throws {
        let (status, output) = try luacheck(["rules", "examples"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("0 warnings / 0 errors"), "\(output)")
    }
}
