import LuaHost
import RulesEngine

/// The text of a coverage report (`test --coverage`, `simulate --coverage`, `compare --coverage`):
/// one line per rule file, the total, and the `if` arms that did not run.
enum CoverageReport {
    /// `title`, then `  escalation.lua  96.4 % lines (54/56), uncovered 71-72; branches 20/22`, …,
    /// the total, and `  arms not run (by <who>): escalation.lua:71 implicit else, …`.
    static func lines(_ coverage: RuleCoverage, title: String, notRunBy who: String) -> [String] {
        let width = coverage.files.map(\.name.count).max() ?? 0
        func figure(_ covered: Int, _ total: Int, branches: Int, of arms: Int, uncovered: [Int]) -> String {
            let missed = uncovered.isEmpty ? "" : ", uncovered \(RuleCoverage.rangeText(uncovered))"
            return "\(RuleCoverage.percent(covered, of: total)) % lines (\(covered)/\(total))\(missed); branches \(branches)/\(arms)"
        }
        var out = [title]
        for file in coverage.files {
            out.append(
                "  " + file.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                    + figure(
                        file.covered.count, file.lines.count, branches: file.coveredArms, of: file.arms.count, uncovered: file.uncovered))
        }
        out.append(
            "  " + "total".padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + figure(coverage.coveredLines, coverage.totalLines, branches: coverage.coveredArms, of: coverage.totalArms, uncovered: []))
        let missed = coverage.files.flatMap { file in
            file.arms.filter { !$0.ran }.map { "\(file.name):\($0.branch.line) \($0.branch.kind.rawValue)" }
        }
        if !missed.isEmpty { out.append("  arms not run by \(who): " + missed.joined(separator: ", ")) }
        return out
    }
}
