import LuaHost
import Testing

/// Loads `source` as `name` in `host` and returns the error it throws (failing the test if none).
func loadError(
    _ source: String, name: String = "rule.lua", host: LuaHost? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> LuaError {
    let host = try host ?? LuaHost()
    do {
        try host.load(source, chunkName: name)
    } catch let error as LuaError {
        return error
    }
    Issue.record("expected an error", sourceLocation: sourceLocation)
    return LuaError(kind: .runtime, message: "no error")
}

/// Loads `source`, which must return a table holding `run`, calls `run` and returns the error.
func callError(
    _ source: String, name: String = "rule.lua", host: LuaHost? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> LuaError {
    let host = try host ?? LuaHost()
    let module = try #require(try host.load(source, chunkName: name).first?.tableValue, sourceLocation: sourceLocation)
    let run = try #require(module["run"].functionValue, sourceLocation: sourceLocation)
    do {
        _ = try host.call(run)
    } catch let error as LuaError {
        return error
    }
    Issue.record("expected an error", sourceLocation: sourceLocation)
    return LuaError(kind: .runtime, message: "no error")
}

/// Asserts the host still loads and runs a rule correctly.
func expectUsable(_ host: LuaHost, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let values = try host.load("local t = {} for i = 1, 10 do t[i] = i * i end return t[10] + #t", chunkName: "after.lua")
    #expect(values == [.integer(110)], sourceLocation: sourceLocation)
}
