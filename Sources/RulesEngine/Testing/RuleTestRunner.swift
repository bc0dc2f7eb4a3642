import BuiltInDefaults
import Foundation
import LuaHost

/// `rulesrun test`: finds the tests of a rule folder (`tests/*.lua`, `tests/*.jsonl`) and, unless
/// told otherwise, those of every folder it extends, and runs them all against the folder's own
/// rule set, so that a variant sees which of its base's expectations it changes.
package enum RuleTestRunner {
    /// One test file found, and the folder it comes from. `isText`: whether its name is UTF-8
    /// text; one that is not cannot be opened by a name, nor shown as it is (`label` shows it as
    /// `VisibleText.decoding` does), and is reported as an ERROR instead of being lost.
    struct Found {
        let url: URL
        let label: String
        let folder: String
        var isText = true
        /// The place of its folder in the chain: 0 for the folder under test, 1 for the one it extends, …
        var depth = 0
    }

    /// Validates the rule set in `path` (throws its `RuleSetError`), then runs the tests whose name
    /// `selected` accepts: the folder's own first, then those it inherits (with `inherit`), each
    /// folder's files in the order of their names.
    /// `recorder`, when given, gets the lines of the rule files the tests ran (not those validation
    /// or loading ran); `properties` runs the `prop_` functions (and explains a failed one when it
    /// is told to). With `explain`, each unit test or scenario that fails is run once more to
    /// explain it (`FailureExplanation`).
    /// `validated`, the snapshot of the set in `path` validated already (`rulesrun watch`'s): the
    /// tests run against it, loaded again without proofs, instead of validating the folder once more.
    /// Either way the scenarios and the explanations load the set from the same snapshot.
    /// `limits` bound the time of each test and of the run, and what their results keep of what
    /// they print (`TestLimits`); when the run's time is over, one last ERROR, `(not run)`, says
    /// which tests did not run.
    package static func run(
        _ path: String, validated: RuleSnapshot? = nil, inherit: Bool = true, recorder: LineRecorder? = nil,
        properties: (any PropertyRunning)? = nil, explain: Bool = false, limits: TestLimits = TestLimits(),
        selected: (String) -> Bool = { _ in true }
    ) throws -> [RuleTestResult] {
        let found = try testFiles(path, inherit: inherit)
        let clock = TestLimits.Clock(limits)
        let capture = PrintCapture()
        let ruleSet = try validated?.load() ?? RuleSet.load(path)
        let snapshot = ruleSet.snapshot
        let helpers = try TestHelpers.install(in: ruleSet.host, modules: ruleSet.modules, rules: ruleSet)
        let declarations = helpers.declarations
        recorder?.start(ruleSet.host)
        var results: [RuleTestResult] = []
        for (index, file) in found.enumerated() {
            var notRun = 0
            if !file.isText {
                results.append(
                    RuleTestResult(
                        file: file.label, line: 1, name: "(load)", folder: file.folder, outcome: .error,
                        failure: ["\(file.label): the file's name is not UTF-8 text; a test file's name is shown in the report: rename it in UTF-8"]))
            } else if file.url.pathExtension == "lua" {
                var testFile = LuaTestFile(url: file.url, label: file.label, folder: file.folder)
                testFile.rules = path
                testFile.snapshot = snapshot
                testFile.properties = properties
                testFile.clock = clock
                testFile.capture = capture
                testFile.declarations = declarations
                testFile.knobs = helpers.knobs
                testFile.depth = file.depth
                for var result in testFile.run(in: ruleSet.host, selected: selected, notRun: &notRun) {
                    if explain, result.outcome == .failed, !result.name.hasPrefix("prop_") || result.name.hasSuffix("]"), !clock.runIsOver {
                        result.explanation = FailureExplanation.ofTest(
                            named: result.name, url: file.url, label: file.label, rules: snapshot)
                    }
                    results.append(result)
                }
            } else {
                let scenario = ScenarioTest(url: file.url, label: file.label, folder: file.folder)
                declarations.names[file.depth, default: []].insert(scenario.name)
                guard selected(scenario.name) else { continue }
                let mark = declarations.mark(of: scenario.name, depth: file.depth)
                if clock.runIsOver {
                    notRun = 1
                } else if let mark, mark.kind == .skip {
                    results.append(RuleTestResult(file: file.label, line: 1, name: scenario.name, folder: file.folder, outcome: .passed).marked(mark))
                } else {
                    var result = scenario.run(rules: snapshot, capture: capture, until: clock.deadlineOfTest(), recorder: recorder)
                    if let mark { result = result.marked(mark) }
                    if explain, result.outcome == .failed, !clock.runIsOver { result.explanation = scenario.explainFailure(rules: snapshot) }
                    results.append(result)
                }
            }
            if notRun > 0 || (clock.runIsOver && index + 1 < found.count) {
                results.append(notRunResult(notRun, of: file, after: results.last, files: found[(index + 1)...], clock: clock))
                recorder?.collect(ruleSet.host)
                return results
            }
        }
        // Every file was read: a mark that names no inherited test is a mistake (without
        // `inherit`, the marks have nothing to apply to).
        if inherit {
            results += declarations.unknownMarks { mark in found.first { $0.label == mark.file }?.folder ?? path }
        }
        recorder?.collect(ruleSet.host)
        return results
    }

    /// The ERROR that ends a run stopped by its time limit: after which test, and what was not run
    /// (the tests of `file` left, `notRun`, and the `files` after it, whose tests were not counted).
    static func notRunResult(
        _ notRun: Int, of file: Found, after last: RuleTestResult?, files: ArraySlice<Found>, clock: TestLimits.Clock
    ) -> RuleTestResult {
        var parts: [String] = []
        if notRun > 0 { parts.append("\(notRun) more test\(notRun == 1 ? "" : "s") of \(file.label)") }
        if let next = files.first {
            let others = files.count == 1 ? "" : " and \(files.count - 1) more file\(files.count == 2 ? "" : "s")"
            parts.append("the tests of \(next.label)\(others)")
        }
        let place = last.map { " after \($0.location) \($0.name)" } ?? ""
        let first = notRun > 0 ? file : files.first ?? file
        return RuleTestResult(
            file: first.label, line: 1, name: "(not run)", folder: first.folder, outcome: .error,
            failure: ["\(clock.limits.runLimitText) was reached\(place): \(parts.joined(separator: " and ")) did not run"])
    }

    /// The folders whose tests run (`DIR/tests`, then its bases'), as messages name them.
    package static func testFolders(_ path: String, inherit: Bool = true) throws -> [String] {
        let chain = try RuleSources(path).chain
        return (inherit ? chain : Array(chain.prefix(1))).enumerated().map { index, link in
            (index == 0 ? path : displayPath(link.folder.root)) + "/" + RuleSet.testFolder
        }
    }

    static func testFiles(_ path: String, inherit: Bool) throws -> [Found] {
        let chain = try RuleSources(path).chain
        var found: [Found] = []
        for (index, link) in (inherit ? chain : Array(chain.prefix(1))).enumerated() {
            let tests = link.folder.root.appendingPathComponent(RuleSet.testFolder, isDirectory: true)
            // The built-in rules by their name, not the cache folder they were written out to.
            let folder = index == 0 ? path : link.label == BuiltInDefaults.name + "/" ? BuiltInDefaults.name : displayPath(link.folder.root)
            for (name, isText) in entries(of: tests).sorted(by: { $0.name < $1.name })
            where !name.hasPrefix(".") && (name.hasSuffix(".lua") || name.hasSuffix(".jsonl")) {
                found.append(
                    Found(
                        url: tests.appendingPathComponent(name), label: "\(link.label)\(RuleSet.testFolder)/\(name)", folder: folder,
                        isText: isText, depth: index))
            }
        }
        return found
    }

    /// The names in `folder` (none when it cannot be read), read as bytes: Foundation's listing
    /// gives a name that is not UTF-8 with U+FFFD for its bytes, a file that then cannot be opened,
    /// and two such names as one. A name that is not text is given as `VisibleText.decoding` shows
    /// it (`b\xFF.lua`), with `isText` false.
    static func entries(of folder: URL) -> [(name: String, isText: Bool)] {
        guard let directory = opendir(folder.path) else { return [] }
        defer { closedir(directory) }
        var entries: [(name: String, isText: Bool)] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes == Array(".".utf8) || bytes == Array("..".utf8) { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                entries.append((name, true))
            } else {
                entries.append((VisibleText.decoding(bytes), false))
            }
        }
        return entries
    }

    /// A folder as the output names it: relative to the current directory when it is inside it.
    static func displayPath(_ url: URL) -> String {
        let current = URL(fileURLWithPath: WorkingFolder.current, isDirectory: true).standardizedFileURL.path
        let path = url.standardizedFileURL.path
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
