import LuaHost
import Testing

#if DEBUG
    /// A record whose equality leaves its note out: a kept table is not written again when only
    /// the note changed, so it shows the previous note (the kind of mistake the check is for).
    struct Forgetful: LuaKeptRecord {
        static let tier = LuaKey("current_tier"), note = LuaKey("note")
        var tier: Int
        var note: String
        static func == (a: Forgetful, b: Forgetful) -> Bool { a.tier == b.tier }
        func encode(to t: inout LuaTableWriter) {
            t.set(Self.tier, tier)
            t.set(Self.note, note)
        }
    }

    /// A record whose text of a number changes (a text must be the same for its number).
    struct Renamed: LuaTableEncodable {
        static let day = LuaKey("day"), days = LuaKey("renamed_days")
        var name: String
        func encode(to t: inout LuaTableWriter) {
            t.set(Self.day, text: 1, of: Self.days) { buffer in
                let text = Array(name.utf8)
                buffer.copyBytes(from: text)
                return text.count
            }
        }
    }

    /// The debug builds' shadow check (`LuaHost.checkReused`): every reused argument is built
    /// fresh too and compared; a difference names the argument and the field.
    @Suite struct ShadowCheckTests {
        let host: LuaHost
        let module: LuaTable
        let mismatches = Mismatches()

        final class Mismatches: @unchecked Sendable { var messages: [String] = [] }

        init() throws {
            host = try LuaHost()
            host.reuseCheckInterval = 1
            host.reuseMismatch = { [mismatches] in mismatches.messages.append($0) }
            let source = """
                local M = {}
                function M.history(days, task, user) return { current_tier = #days, reminders = { task.note } } end
                function M.day(a) return a.day end
                return M
                """
            module = try #require(try host.load(source, chunkName: "shadow.lua").first?.tableValue)
        }

        @Test func theTestsRunWithTheCheck() throws {
            #expect(try LuaHost().reuseCheckInterval == 64)
        }

        @Test func aKeptRecordThatWasNotWrittenAgainIsNamedWithItsField() throws {
            let history = try #require(module["history"].functionValue)
            for note in ["first", "second"] {
                let d = try host.call(
                    history, History([Snapshot(tier: 1)], key: "task"), Kept(Forgetful(tier: 2, note: note), key: "task"),
                    Kept(Snapshot(tier: 3)), returning: Decision.self)
                #expect(d.reminders == ["first"])  // the stale note the check is about
            }
            #expect(
                mismatches.messages == [
                    "argument reuse differs from a fresh build: argument 2 (the kept Forgetful under \"task\"): note: reused \"first\", fresh \"second\""
                ])
        }

        @Test func aKeptTextThatChangedIsNamed() throws {
            let day = try #require(module["day"].functionValue)
            #expect(try host.call(day, Pooled(Renamed(name: "Monday")), returning: LuaValue.self) == .string("Monday"))
            #expect(try host.call(day, Pooled(Renamed(name: "Tuesday")), returning: LuaValue.self) == .string("Monday"))
            // Named where the pooled table is refilled and again where its fresh build pushes the text.
            #expect(
                Set(mismatches.messages) == [
                    "argument reuse differs from a fresh build: kept text 1 of renamed_days: reused \"Monday\", fresh \"Tuesday\""
                ])
        }

        @Test func argumentsReusedRightPassTheCheck() throws {
            let history = try #require(module["history"].functionValue)
            for i in 0..<20 {
                _ = try host.call(
                    history, History((0..<(i % 5)).map { HistoryDay(tier: $0 + i, note: i % 3 == 0 ? nil : "n") }, key: "t\(i % 3)"),
                    Kept(Forgetful(tier: i, note: "n\(i)"), key: "t\(i % 3)"), Kept(Snapshot(tier: i % 2, note: i % 4 == 0 ? "x" : nil)),
                    returning: Decision.self)
            }
            #expect(mismatches.messages.isEmpty)
        }
    }
#endif
