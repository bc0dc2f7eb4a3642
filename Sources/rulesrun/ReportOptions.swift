import ArgumentParser
import RulesSim

/// How a simulation report is printed and where, for `simulate` and `merge`: `--format`, `--out`.
struct ReportOptions: ParsableArguments {
    @Option(help: "\(ReportFormat.listed). (default: \(ReportFormat.table.rawValue))", transform: ReportFormat.parser)
    var format: ReportFormat = .table
    @Option(help: "Write the report to this file instead of standard output (-: standard output).") var out: String?

    /// The report's destination as an output of ``FileIdentity/refuseCollisions(outputs:inputs:)``.
    var output: (name: String, path: String) { (out.map { "--out \($0)" } ?? "the report (standard output)", out ?? "-") }

    /// Refuses, before the run, an `--out` that cannot be written (``Output/check(_:option:)``).
    func check() throws { try Output.check(out, option: "--out") }

    /// Writes the report in its format to `--out` (standard output without it).
    func write(_ report: SimulationReport) throws { try Output.write(report.rendered(format), to: out) }
}
