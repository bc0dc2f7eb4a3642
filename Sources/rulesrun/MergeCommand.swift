import ArgumentParser
import Foundation
import LuaHost
import RulesSim
import RulesStore

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the JSON reports of simulation shards (or of analyze shards) into the report of the whole.",
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

            With --db, the arguments may also be the SQLite databases of the shards (simulate --shard i/n --db, \
            simulate --db-shards N): they are combined into one database whose rows, keys included, are the \
            ones the whole run writes. An existing --db is replaced only with --replace.

              rulesrun simulate 30d --users 10000 --db-shards 4 --db run.sqlite
              rulesrun merge --db run.sqlite run-1-of-4.sqlite run-2-of-4.sqlite run-3-of-4.sqlite run-4-of-4.sqlite
              rulesrun merge a.json b.json a.sqlite b.sqlite --db whole.sqlite --out whole.txt
            """
    )

    @Argument(help: "The shard reports (JSON) and, with --db, the shard databases (SQLite).") var files: [String]
    @OptionGroup var reportOptions: ReportOptions
    @Option(help: "Write an SVG chart of the main series to this file.") var chart: String?
    @Option(help: "Write the merged report as a self-contained HTML page to this file (as simulate --html).") var html: String?
    @Flag(help: "Merge shards that cover only part of the cohort (one range of users, without gaps).") var partial = false
    @Option(help: "Write the shard databases given, merged, to this SQLite file (docs/merge.md).") var db: String?
    @Flag(help: "Replace the --db file if it exists (a database rulesrun wrote).") var replace = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one report") }
        if replace, db == nil { throw ValidationError("--replace replaces the --db file; give --db") }
    }

    /// The arguments that are SQLite databases (by their first bytes), the others being reports.
    /// Only a regular file is opened to look, reached through any symbolic links: a FIFO would
    /// wait for ever (a report's reader refuses it with its reason).
    var databases: [String] {
        files.filter { path in
            var info = stat()
            guard stat(WorkingFolder.resolve(path), &info) == 0, info.st_mode & S_IFMT == S_IFREG, let handle = FileHandle(forReadingAtPath: WorkingFolder.resolve(path))
            else {
                return false
            }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\u{0}".utf8)
        }
    }

    func run() throws {
        let databases = databases
        let reports = files.filter { !databases.contains($0) }
        if let db {
            guard !databases.isEmpty else { throw ValidationError("--db \(db): give the shard databases to merge (SQLite files)") }
        } else if let first = databases.first {
            throw ValidationError("\(first) is an SQLite database: give --db FILE to merge databases (and the JSON reports apart)")
        }
        try FileIdentity.refuseCollisions(
            outputs: [reportOptions.output] + (chart.map { [("--chart \($0)", $0)] } ?? []) + (html.map { [("--html \($0)", $0)] } ?? [])
                + (db.map { db in Store.files(of: db).map { ("--db \(db)", $0) } } ?? []),
            inputs: reports.map { ("the report \($0)", $0) } + databases.map { ("the database \($0)", $0) })
        try reportOptions.check()
        try Output.check(chart, option: "--chart")
        try Output.check(html, option: "--html")
        var merged: SimulationReport?
        // The shards of `analyze --shard i/n --format json`: added up into the whole log's analysis.
        // With --db, a file that is neither was perhaps meant as a database: both are named.
        let either = db == nil ? "" : " (or, with --db, an SQLite database of rulesrun simulate --db)"
        let texts = try reports.map { path in
            do throws(SimulationError) { return try Self.read(path) } catch { throw ValidationError("\(path): \(error.message)\(either)") }
        }
        let fitShard = Data(#"{"report":"rulesrun fit shard""#.utf8)
        if let (path, _) = zip(reports, texts).first(where: { $0.1.prefix(64).range(of: fitShard) != nil }) {
            throw ValidationError("\(path) is a shard of rulesrun fit: fit the log from its shards with rulesrun fit LOG --merge FILE…")
        }
        if db == nil, !texts.isEmpty, texts.allSatisfy(Self.isAnalysis) {
            let analysis: AnalysisReport
            do throws(AnalysisError) { analysis = try AnalysisReport.merge(texts, names: reports) } catch {
                throw ValidationError(error.message)
            }
            let text: String
            switch reportOptions.format {
            case .table: text = analysis.text()
            case .json, .jsonl: text = analysis.json()
            case .csv: text = analysis.csv()
            }
            try Output.write(text, to: reportOptions.out)
            if analysis.untrustworthy { throw ExitCode(1) }
            return
        }
        if !reports.isEmpty {
            var parts: [SimulationReport] = []
            for (path, text) in zip(reports, texts) {
                do { parts.append(try SimulationReport(json: text)) } catch {
                    throw ValidationError("\(path): \(error.message)\(either)")
                }
            }
            do { merged = try SimulationReport.merge(parts, names: reports, partial: partial) } catch {
                throw ValidationError(error.message)
            }
        }
        if let db {
            if Console.current.handlesSignals { InterruptCleanup.installSignalHandlers(command: "merge") }
            let parts: [MergePart]
            do throws(SimulationError) {
                parts = try DatabaseMerge.merge(databases, into: db, replacing: replace, users: merged.flatMap(Self.userIDs))
            } catch { throw ValidationError(error.message) }
            Terminal.error("merge: wrote \(db) (\(DatabaseMerge.describe(parts)))")
        }
        guard let merged else { return }
        try reportOptions.write(merged)
        if let chart { try Output.write(SVGChart(merged).svg(), to: chart) }
        if let html { try Output.write(merged.html(), to: html) }
        // The parts' failures carry no events: merge says how to run the first failing user again.
        try FailureNotice.report(merged, command: "rulesrun merge", rules: nil)
    }

    /// Whether a report is `analyze`'s (its first member says so).
    static func isAnalysis(_ data: Data) -> Bool {
        data.prefix(64).range(of: Data(#"{"report":"rulesrun analyze""#.utf8)) != nil
    }

    /// The ids of the users of a report (a user's id is its index + 1 + the run's id offset).
    static func userIDs(_ report: SimulationReport) -> ClosedRange<Int64>? {
        guard report.userCount > 0 else { return nil }
        let offset = Int64(report.run.idOffset)
        return Int64(report.run.usersFrom) + 1 + offset...Int64(report.run.usersTo) + offset
    }

    /// A report file's bytes, or why there are none: no such file, a folder, not a regular file
    /// (a device, a FIFO: neither is read, a FIFO would wait for ever), larger than
    /// `maxBytes` (refused before it is read), unreadable. `what`: what the file is expected to be.
    static func read(
        _ path: String, expected what: String = "a JSON report of rulesrun simulate --format json",
        maxBytes: Int = SimulationReport.maxJSONBytes
    ) throws(SimulationError) -> Data {
        let expected = "expected \(what)"
        do {
            return Data(try SourceFile.read(path, maxBytes: maxBytes))
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
