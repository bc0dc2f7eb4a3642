import ArgumentParser
import Foundation
import LuaHost

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the cost of calling a rule through the host, against baselines measured in the same run.",
        discussion: """
            (a) floor: a small rule called through the bare Lua C API with integer arguments (and, for scale, \
            the same table-in/table-out round trip written directly against the C API);
            (b) host: the same rule through LuaHost, state table in, result table out, read into Swift structs;
            (c) native: the same logic in Swift. Also the generic [LuaValue] path and the instruction hook's share of (b).
            Build with `swift build -c release` first: debug builds are several times slower.

            Examples:
              rulesrun bench
              rulesrun bench --json --iterations 2000000
            """
    )

    @Option(help: "Calls per round.") var iterations = 1_000_000
    @Option(help: "Rounds per measurement; the fastest round counts.") var rounds = 5
    @Flag(help: "Print one JSON object instead of a table.") var json = false

    func validate() throws {
        guard iterations > 0, rounds > 0 else { throw ValidationError("--iterations and --rounds must be positive") }
    }

    func run() throws {
        let r = try LuaHostBenchmark.run(iterations: iterations, rounds: rounds)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(r), as: UTF8.self))
            return
        }
        func f(_ x: Double) -> String { String(format: "%8.1f ns", x) }
        print("rule call, \(iterations) calls x \(rounds) rounds (fastest round)")
        print("  (a) floor, bare C API, integers  \(f(r.floor_ns))")
        print("      bare C API, tables in/out    \(f(r.table_floor_ns))   = \(String(format: "%.2f", r.table_floor_ns / r.floor_ns)) x (a): the cost of the tables themselves")
        print("  (b) LuaHost, tables <-> structs  \(f(r.host_ns))   (b)/(a) = \(String(format: "%.2f", r.host_over_floor))  target <= 3")
        print("      (b) without instruction hook \(f(r.host_no_hook_ns))   hook share of (b) = \(String(format: "%.1f%%", r.hook_share * 100))")
        print("      generic [LuaValue] + Decoder \(f(r.generic_ns))")
        print("  (c) native Swift                 \(f(r.native_ns))   (b)/(c) = \(String(format: "%.0f", r.host_over_native))")
    }
}
