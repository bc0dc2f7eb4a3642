import ArgumentParser
import Foundation
import LuaHost
import RulesSim

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the JSON reports of simulation shards into the report of the whole cohort.",
        discussion: """
            Each REPORT is the output of `rulesrun simulate … --shard i/n --format json`. The shards must come \
            from the same run (duration, start, users, seed, personas, rules and the files' contents) and \
            their users must join into one range without overlap (an empty shard overlaps nothing); each \
            report's counts must be ones a run can print (a report that no run can print is refused, naming \
            the file, the field and what was expected). The result is the report that the whole run prints, \
            byte for byte, in any format.

            Examples:
              rulesrun simulate 30d --users 10000 --shard 1/2 --format json --out a.json
              rulesrun simulate 30d --users 10000 --shard 2/2 --format json --out b.json
              rulesrun merge a.json b.json
              rulesrun merge a.json b.json --format json --out whole.json --chart whole.svg
              rulesrun merge a.json b.json --html whole.html
            """
    )

    @Argument(help: "The shard reports (JSON).") var reports: [String]
    @OptionGroup var reportOptions: ReportOptions
    @Option(help: "Write an SVG chart of the main series to this file.") var chart: String?
    @Option(help: "Write the merged report as a self-contained HTML page to this file (as simulate --html).") var html: String?
    @Flag(help: "Merge shards that cover only part of the cohort (one range of users, without gaps).") var partial = false

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("give at least one report") }
    }

    func run() throws {
        try FileIdentity.refuseCollisions(
            outputs: [reportOptions.output] + (chart.map { [("--chart \($0)", $0)] } ?? []) + (html.map { [("--html \($0)", $0)] } ?? []),
            inputs: reports.map { ("the report \($0)", $0) })
        try reportOptions.check()
        try Output.check(chart, option: "--chart")
        try Output.check(html, option: "--html")
        var parts: [SimulationReport] = []
        for path in reports {
            do { parts.append(try SimulationReport(json: try Self.read(path))) } catch {
                throw ValidationError("\(path): \(error.message)")
            }
        }
        let merged: SimulationReport
        do { merged = try SimulationReport.merge(parts, names: reports, partial: partial) } catch { throw ValidationError(error.message) }
        try reportOptions.write(merged)
        if let chart { try Output.write(SVGChart(merged).svg(), to: chart) }
        if let html { try Output.write(merged.html(), to: html) }
        // The parts' failures carry no events: merge says how to run the first failing user again.
        try FailureNotice.report(merged, command: "rulesrun merge", rules: nil)
    }

    /// A report file's bytes, or why there are none: no such file, a folder, not a regular file
    /// (a device, a FIFO: neither is read, a FIFO would wait for ever), larger than
    /// ``SimulationReport/maxJSONBytes`` (refused before it is read), unreadable.
    static func read(_ path: String) throws(SimulationError) -> Data {
        let expected = "expected a JSON report of rulesrun simulate --format json"
        do {
            return Data(try SourceFile.read(path, maxBytes: SimulationReport.maxJSONBytes))
        } catch .missing {
            throw SimulationError("no such file; \(expected)")
        } catch .notRegularFile(let kind) where kind == "a directory" {
            throw SimulationError("is a folder; \(expected)")
        } catch .tooLarge(let bytes, let limit) {
            throw SimulationError("the file is \(bytes) bytes, more than the \(limit) a report may have; \(expected)")
        } catch {
            throw SimulationError("\(error); \(expected)")
        }
    }
}
