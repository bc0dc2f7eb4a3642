import LuaHost
import Testing

/// A record of 40 fields, each present or not: more keys than a pooled table tracks (32), so its
/// refill takes the overflow path (the whole table cleared before the next fill).
struct Wide: LuaKeptRecord {
    static let keys: [LuaKey] = [
        LuaKey("k00"), LuaKey("k01"), LuaKey("k02"), LuaKey("k03"), LuaKey("k04"), LuaKey("k05"), LuaKey("k06"), LuaKey("k07"),
        LuaKey("k08"), LuaKey("k09"), LuaKey("k10"), LuaKey("k11"), LuaKey("k12"), LuaKey("k13"), LuaKey("k14"), LuaKey("k15"),
        LuaKey("k16"), LuaKey("k17"), LuaKey("k18"), LuaKey("k19"), LuaKey("k20"), LuaKey("k21"), LuaKey("k22"), LuaKey("k23"),
        LuaKey("k24"), LuaKey("k25"), LuaKey("k26"), LuaKey("k27"), LuaKey("k28"), LuaKey("k29"), LuaKey("k30"), LuaKey("k31"),
        LuaKey("k32"), LuaKey("k33"), LuaKey("k34"), LuaKey("k35"), LuaKey("k36"), LuaKey("k37"), LuaKey("k38"), LuaKey("k39"),
    ]
    /// The values of the fields present, by position (nil: absent).
    var values: [Int?]
    func encode(to t: inout LuaTableWriter) {
        for (i, value) in values.enumerated() { if let value { t.set(Self.keys[i], value) } }
    }
    /// The fields as the rule `M.show` lists them.
    var shown: String {
        values.enumerated().compactMap { i, v in v.map { "k\(i < 10 ? "0" : "")\(i)=\($0)" } }.joined(separator: " ")
    }
}

/// The paths of the reuse that no simulation reaches, each compared with the same calls on a host
/// that builds every argument fresh (`ArgumentReuse.none`): a record of more than 32 fields (a
/// pooled table's key tracking overflows), and more texts than a host keeps (4,096).
@Suite struct ReuseLimitTests {
    static let source = """
        local M = {}
        function M.show(a)
          local s = {}
          for k, v in pairs(a) do s[#s + 1] = k .. "=" .. tostring(v) end
          return table.concat(s, " ")
        end
        function M.history(days, task, user)
          local s = {}
          for _, d in ipairs(days) do s[#s + 1] = M.show(d) end
          return { current_tier = #days, reminders = { table.concat(s, "|"), M.show(task), user.day } }
        end
        function M.day(a) return a.day end
        return M
        """

    /// A host of each kind with the rules loaded.
    func hosts() throws -> [(host: LuaHost, module: LuaTable)] {
        try [ArgumentReuse.kept, .none].map { reuse in
            let host = try LuaHost(limits: LuaLimits(argumentReuse: reuse))
            return (host, try #require(try host.load(Self.source, chunkName: "limits.lua").first?.tableValue))
        }
    }

    /// Records whose fields come and go: call `i` has the fields whose position is not a multiple
    /// of `i % 5 + 2`, and some calls have all 40 or none.
    static func wide(_ i: Int) -> Wide {
        switch i % 7 {
        case 3: Wide(values: (0..<40).map { $0 + i })
        case 5: Wide(values: Array(repeating: nil, count: 40))
        default: Wide(values: (0..<40).map { $0 % (i % 5 + 2) == 0 ? nil : $0 * 100 + i })
        }
    }

    @Test func aRecordOfMoreThan32FieldsSeesItsOwnFieldsAsAFreshTableDoes() throws {
        let hosts = try hosts()
        for i in 0..<40 {
            let record = Self.wide(i)
            let seen = try hosts.map { h in
                try h.host.call(try #require(h.module["show"].functionValue), Pooled(record), returning: LuaValue.self).stringValue ?? "?"
            }
            #expect(seen[0] == seen[1], "call \(i)")
            #expect(seen[0] == record.shown, "call \(i)")
        }
        #expect(hosts[0].host.reusedArguments.pooledTables == 1)
        #expect(hosts[1].host.reusedArguments == LuaHost.ReusedArguments())
    }

    /// The same in a history and its record (kept tables, refilled through the same key tracking).
    @Test func aHistoryOfRecordsOfMoreThan32FieldsSeesItsOwnFieldsAsAFreshOneDoes() throws {
        let hosts = try hosts()
        for i in 0..<40 {
            let days = (0..<(i % 4 + 1)).map { Self.wide(i + $0) }
            let task = Self.wide(i * 3)
            let seen = try hosts.map { h in
                try h.host.call(
                    try #require(h.module["history"].functionValue), History(days, key: "wide"), Kept(task, key: "wide"),
                    Kept(Dated(day: i)), returning: Decision.self)
            }
            #expect(seen[0] == seen[1], "call \(i)")
            #expect(seen[0].reminders == [days.map(\.shown).joined(separator: "|"), task.shown, "day \(i)"], "call \(i)")
        }
        #expect(hosts[0].host.reusedArguments.keptLists > 0)
    }

    /// Past 4,096 texts a host keeps no more: the others are written each time, and every call
    /// still sees its own text.
    @Test func moreTextsThanAHostKeepsAreWrittenEachTime() throws {
        let hosts = try hosts()
        for round in 0..<2 {
            for day in stride(from: 0, to: 5_000, by: 1) {
                let seen = try hosts.map { h in
                    try h.host.call(try #require(h.module["day"].functionValue), Pooled(Dated(day: day)), returning: LuaValue.self)
                }
                if seen[0] != .string("day \(day)") || seen[1] != seen[0] {
                    Issue.record("round \(round), day \(day): \(seen)")
                    return
                }
            }
        }
        #expect(hosts[0].host.reusedArguments.keptTexts == 4_096)
        #expect(hosts[1].host.reusedArguments.keptTexts == 0)
    }
}
