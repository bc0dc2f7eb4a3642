import Foundation
import LuaHost
import RulesModel

/// Which lines and `if` arms of a rule set's files ran, from the line counts a `LuaHost` recorded
/// (`startLineRecording`): `rulesrun test --coverage`, `simulate --coverage`, `compare --coverage`.
///
/// The files are the five rule files of the folder and of every folder it extends, each under the
/// name its messages carry (`escalation.lua`, an inherited one `rules/escalation.lua`). A line
/// counts when it has code inside a function (Lua's own line information: no blank line, comment
/// or function `end`; the top level of a file runs when it loads and is left out). Branches are
/// the arms of `if` statements, judged as `LuaBranch` says.
package struct RuleCoverage: Sendable {
    /// One `if` arm and whether it ran.
    package struct Arm: Sendable, Equatable {
        package var branch: LuaBranch
        package var ran: Bool
    }

    package struct File: Sendable {
        /// The file as messages name it.
        package var name: String
        /// The lines with code, in order.
        package var lines: [Int]
        /// The lines with code that ran.
        package var covered: Set<Int>
        package var arms: [Arm]
        /// Where each function of the file starts and ends (`LuaFunctionSpan`).
        package var functions: [LuaFunctionSpan] = []

        package var uncovered: [Int] { lines.filter { !covered.contains($0) } }
        package var coveredArms: Int { arms.filter(\.ran).count }
    }

    package var files: [File]

    package var totalLines: Int { files.reduce(0) { $0 + $1.lines.count } }
    package var coveredLines: Int { files.reduce(0) { $0 + $1.covered.count } }
    package var totalArms: Int { files.reduce(0) { $0 + $1.arms.count } }
    package var coveredArms: Int { files.reduce(0) { $0 + $1.coveredArms } }

    /// The coverage of the rule set in `path` given the counts recorded while its files ran; with
    /// `ownFilesOnly`, of the folder's own files only (not those of the folders it extends: what
    /// its own tests answer for, `test --no-inherit`).
    package static func measure(
        _ path: String, counts: LineCounts, ownFilesOnly: Bool = false, limits: LuaLimits = .default
    ) throws -> RuleCoverage {
        let sources = try RuleSources(path)
        let host = try LuaHost(limits: limits)
        var files: [File] = []
        for name in RuleSet.fileNames {
            for (url, chunkName) in sources.locateAll(name) where !ownFilesOnly || chunkName == name {
                let bytes: [UInt8]
                do {
                    bytes = try SourceFile.read(url.path, maxBytes: limits.maxSourceBytes)
                } catch {
                    throw LuaError(kind: .syntax, file: chunkName, message: error.description)
                }
                let (code, ends) = try host.executableLines(of: bytes, chunkName: chunkName)
                let ran = counts.chunks[chunkName] ?? [:]
                let source = String(decoding: bytes, as: UTF8.self)
                let arms = LuaBranch.arms(in: source, codeLines: code, endLines: ends).map { branch in
                    Arm(branch: branch, ran: branch.ran { ran[$0] ?? 0 })
                }
                files.append(
                    File(
                        name: chunkName, lines: code.sorted(), covered: code.filter { ran[$0] ?? 0 > 0 }, arms: arms,
                        functions: LuaFunctionSpan.spans(in: source)))
            }
        }
        return RuleCoverage(files: files)
    }

    /// Whether the line coverage of all files together is below `percent` (exactly: 99.99 % is
    /// below 100).
    package func isBelow(_ percent: Double) -> Bool {
        Double(coveredLines) * 100 < percent * Double(totalLines)
    }

    /// `covered` of `total` as a percentage, rounded down, with one decimal or as many more as it
    /// takes not to show 100 for less than all (`99.98`, never `100.0`); `100.0` for all, and for
    /// nothing to cover.
    package static func percent(_ covered: Int, of total: Int) -> String {
        guard total > 0, covered < total else { return "100.0" }
        var decimals = 1
        while true {
            let scale = (0..<decimals).reduce(100) { value, _ in value * 10 }
            let value = covered * scale / total  // rounded down
            let whole = value / (scale / 100), fraction = value % (scale / 100)
            if whole < 100 {
                let digits = String(fraction)
                return "\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
            }
            decimals += 1
        }
    }

    /// Sorted lines as ranges: [3, 4, 5, 9] → [3...5, 9...9].
    package static func ranges(_ lines: [Int]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        for line in lines {
            if let last = out.last, last.upperBound == line - 1 {
                out[out.count - 1] = last.lowerBound...line
            } else {
                out.append(line...line)
            }
        }
        return out
    }

    /// `71-72, 80`.
    package static func rangeText(_ lines: [Int]) -> String {
        ranges(lines).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
    }

    /// `{"files": [{"file", "lines": {"covered", "total", "percent", "covered_ranges": [[a, b], …],
    /// "uncovered_ranges"}, "branches": {"covered", "total", "arms": [{"line", "kind", "ran"}]}}],
    /// "total": {"lines": {"covered", "total", "percent"}, "branches": {"covered", "total"}}}`.
    /// Ranges are inclusive line numbers; `percent` is the text figure as a number.
    package var json: JSONValue {
        func rangesJSON(_ lines: [Int]) -> JSONValue {
            .array(Self.ranges(lines).map { .array([.int($0.lowerBound), .int($0.upperBound)]) })
        }
        func percentJSON(_ covered: Int, _ total: Int) -> JSONValue { .double(Double(Self.percent(covered, of: total)) ?? 0) }
        let files = files.map { file in
            JSONValue.object([
                ("file", .string(file.name)),
                (
                    "lines",
                    .object([
                        ("covered", .int(file.covered.count)), ("total", .int(file.lines.count)),
                        ("percent", percentJSON(file.covered.count, file.lines.count)),
                        ("covered_ranges", rangesJSON(file.lines.filter(file.covered.contains))),
                        ("uncovered_ranges", rangesJSON(file.uncovered)),
                    ])
                ),
                (
                    "branches",
                    .object([
                        ("covered", .int(file.coveredArms)), ("total", .int(file.arms.count)),
                        (
                            "arms",
                            .array(
                                file.arms.map {
                                    .object([
                                        ("line", .int($0.branch.line)), ("kind", .string($0.branch.kind.rawValue)), ("ran", .bool($0.ran)),
                                    ])
                                })
                        ),
                    ])
                ),
            ])
        }
        return .object([
            ("files", .array(files)),
            (
                "total",
                .object([
                    (
                        "lines",
                        .object([
                            ("covered", .int(coveredLines)), ("total", .int(totalLines)),
                            ("percent", percentJSON(coveredLines, totalLines)),
                        ])
                    ),
                    ("branches", .object([("covered", .int(coveredArms)), ("total", .int(totalArms))])),
                ])
            ),
        ])
    }
}
