import LuaHost
import RulesModel
import Testing

@testable import RulesEngine

/// The price memo's key (`PriceContext.read`) covers every field a rule can read: for each field
/// the view declares, a rule that reads it alone is reported reading that field, and two contexts
/// that differ in it only get different keys (else the memo would give one's price to the other).
@Suite struct PriceContextReadTests {
    /// `context` with the field `name` changed, or nil for a field this test does not know.
    static func changed(_ context: PriceContext, _ name: String) -> PriceContext? {
        var c = context
        switch name {
        case "minutes": c.minutes += 1
        case "app": c.app = AppID.shapes[1]
        case "unlocks_today": c.unlocksToday += 1
        case "unlocks_today_app": c.unlocksTodayApp += 1
        case "hour": c.hour += 1
        case "minute": c.minute += 1
        case "weekday": c.weekday += 1
        case "mode": c.mode = "other"
        case "strictness": c.strictness = .hard
        case "streak": c.streak += 1
        case "balance": c.balance += 1
        case "params": c.params = ResolvedParams([.init(name: "bonus", value: .integer(2))])
        default: return nil
        }
        return c
    }

    @Test func everyFieldARuleReadsIsInTheMemoKey() throws {
        let base = PriceContext(minutes: 15, app: AppID.shapes[0], mode: "work")
        let host = try LuaHost()
        for key in PriceContext.luaViewKeys {
            let read = try #require(
                try host.load("return function(ctx) return ctx.\(key.name) end", chunkName: "read.lua").first?.functionValue)
            let reads = try host.call(read, View(base), returning: LuaReadAnswer.self).reads
            #expect(reads == PriceContext.bit(key), "reading \(key.name)")
            let other = try #require(Self.changed(base, key.name), "no changed value for the field \(key.name)")
            #expect(base.read(reads) != other.read(reads), "the memo key leaves \(key.name) out")
            #expect(base.read(reads) == base.read(reads))
        }
    }

    @Test func theViewDeclaresEveryFieldTheContextWrites() throws {
        var withParams = PriceContext(minutes: 15, app: AppID.shapes[0], mode: "work", strictness: .strict)
        withParams.params = ResolvedParams([.init(name: "bonus", value: .integer(2))])
        let host = try LuaHost()
        let names = try #require(
            try host.load(
                "return function(ctx) local n = {} for k in pairs(ctx) do n[#n + 1] = k end table.sort(n) return table.concat(n, ',') end",
                chunkName: "names.lua"
            ).first?.functionValue)
        let written = try host.call(names, View(withParams), returning: LuaReadAnswer.self).value.stringValue
        #expect(written == PriceContext.luaViewKeys.map(\.name).sorted().joined(separator: ","))
    }
}
