import Foundation
import LuaHost

/// A Lua test file: every global function whose name starts with `test_` is a test, run in the
/// order of its line, each as one call under the host's instruction budget (fresh for each); every
/// one whose name starts with `prop_` is a property, run by `properties` on the cases its `cases`
/// table names, until its deadline (`clock`). No test starts once the run's time is over. A test
/// whose name is not UTF-8 text is an ERROR at its line (it would otherwise be lost: no name could
/// show or select it).
struct LuaTestFile {
    let url: URL
    /// The name in the output and in Lua's messages: `tests/streaks_test.lua`.
    let label: String
    /// The rule folder the file comes from.
    let folder: String
    /// The rule folder under test, and what runs the properties (nil: a property is an ERROR).
    var rules = ""
    /// The set under test as it was validated (its properties' explanations load it again).
    var snapshot: RuleSnapshot?
    var properties: (any PropertyRunning)?
    /// The run's time, and what its tests print (each test keeps its part: `PrintCapture`).
    var clock = TestLimits.Clock(TestLimits())
    var capture = PrintCapture()
    /// What the run's files declare (marks of inherited tests, table tests), the knobs tests
    /// change, and the place of the file's folder in the chain (0: the folder under test).
    var declarations = TestDeclarations()
    var knobs: TestKnobs?
    var depth = 0

    /// One test of the file: a `test_` or `prop_` function, or a case of a table test (`table`
    /// its name, `value` the case given to `function`).
    struct Test {
        let name: String
        let function: LuaFunction
        var isText = true
        var line: Int { caseLine ?? function.line }
        var caseLine: Int? = nil
        var table: String? = nil
        var value: LuaValue? = nil
        /// A case's place in its list: cases run in the order written.
        var order = 0
    }

    /// Loads the file in `host` (the rule set's, with `TestHelpers` installed) and runs the tests
    /// whose name `selected` accepts; an ERROR result when the file cannot be loaded. `notRun`
    /// gets the number of selected tests left when the run's time was over.
    func run(in host: LuaHost, selected: (String) -> Bool, notRun: inout Int) -> [RuleTestResult] {
        func loadError(_ lines: [String], line: Int = 1) -> [RuleTestResult] {
            [RuleTestResult(file: label, line: line, name: "(load)", folder: folder, outcome: .error, failure: lines)]
        }
        let bytes: [UInt8]
        do {
            bytes = try SourceFile.read(url.path, maxBytes: host.limits.maxSourceBytes)
        } catch {
            return loadError(["\(label): \(error)"])
        }
        let capture = self.capture
        capture.begin()
        host.printHandler = { capture.append($0) }
        defer { host.printHandler = nil }
        let tests: [Test]
        let cases: LuaValue
        let marks = declarations.marks.count
        declarations.loading = (label, depth)
        declarations.tables = []
        defer {
            declarations.loading = nil
            declarations.tables = []
        }
        do {
            let globals = try host.loadDefiningGlobals(bytes: bytes, chunkName: label, reading: [PropertyTest.casesTable])
            let functions = (globals.functions.map { Test(name: $0.name, function: $0.function) }
                + globals.notText.map { Test(name: $0.shown, function: $0.function, isText: false) })
                .filter { $0.name.hasPrefix("test_") || $0.name.hasPrefix("prop_") }
            let tables = declarations.tables.flatMap { table in
                table.cases.enumerated().map { index, given in
                    Test(
                        name: "\(table.name)[\(given.name)]", function: table.function, caseLine: table.line, table: table.name,
                        value: given.value, order: index)
                }
            }
            tests = (functions + tables).sorted { ($0.line, $0.order, $0.name) < ($1.line, $1.order, $1.name) }
            cases = globals.values[PropertyTest.casesTable] ?? .nil
        } catch let failure as LuaError {
            return loadError([failure.description] + capture.printed, line: failure.line ?? 1)
        } catch {
            return loadError(["\(label): \(error)"])
        }
        declarations.names[depth, default: []].formUnion(tests.map(\.name) + tests.compactMap(\.table))
        // A file that only marks inherited tests has no test of its own to run.
        if tests.isEmpty, declarations.marks.count > marks { return [] }
        guard !tests.isEmpty else {
            return loadError([
                "\(label): defines no test (a test is a global function whose name starts with test_, a property one whose name starts with prop_)"
            ])
        }
        let selectedTests = tests.filter { selected($0.name) }
        var results: [RuleTestResult] = []
        for (index, test) in selectedTests.enumerated() {
            guard !clock.runIsOver else {
                notRun = selectedTests.count - index
                break
            }
            capture.begin()
            let mark = declarations.mark(of: test.name, table: test.table, depth: depth)
            if let mark, mark.kind == .skip {
                results.append(RuleTestResult(file: label, line: test.line, name: test.name, folder: folder, outcome: .passed).marked(mark))
                continue
            }
            let result = run(test, cases: cases[test.name], in: host)
            knobs?.reset()
            results.append(mark.map { result.marked($0) } ?? result)
        }
        return results
    }

    /// Runs one test of the file, loaded in `host`, or one property with its generator (`cases`, as the file wrote it).
    private func run(_ test: Test, cases: LuaValue, in host: LuaHost) -> RuleTestResult {
        guard test.isText else {
            return RuleTestResult(
                file: label, line: test.function.line, name: test.name, folder: folder, outcome: .error,
                failure: [
                    "\(label):\(test.function.line): the name \(test.name) is not UTF-8 text; a test's name is shown in the report and chosen by --run: write it in UTF-8"
                ])
        }
        if test.table == nil, test.name.hasPrefix("prop_") {
            let property = PropertyTest(
                name: test.name, function: test.function, cases: cases, file: label, url: url, folder: folder, rules: rules,
                snapshot: snapshot)
            guard let properties else { return property.result(.error, ["\(label): \(test.name): no runner for properties"]) }
            let start = ContinuousClock.now
            let result = properties.run(property, in: host, until: clock.deadlineOfTest())
            return property.result(
                result.outcome, result.failure, printed: capture.printed + result.printed, cases: result.cases,
                milliseconds: Self.milliseconds(ContinuousClock.now - start), explanation: result.explanation)
        }
        let start = ContinuousClock.now
        var failure: [String] = []
        do {
            _ = try host.call(test.function, test.value.map { [$0] } ?? [])
        } catch let error as LuaError {
            failure = [error.description]
            if error.file != label, let call = calledFrom(error.traceback) { failure.append("(called from \(call))") }
        } catch {
            failure = ["\(error)"]
        }
        let elapsed = ContinuousClock.now - start
        return RuleTestResult(
            file: label, line: test.line, name: test.name, folder: folder, outcome: failure.isEmpty ? .passed : .failed,
            failure: failure, printed: capture.printed, milliseconds: Self.milliseconds(elapsed))
    }

    /// The first place of the test file in a Lua traceback (`tests/x.lua:14`): where the test
    /// called the rule that failed.
    private func calledFrom(_ traceback: String?) -> String? {
        guard let traceback else { return nil }
        for line in traceback.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix(label + ":") else { continue }
            let rest = text.dropFirst(label.count + 1)
            let digits = rest.prefix { $0.isNumber }
            if !digits.isEmpty { return "\(label):\(digits)" }
        }
        return nil
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
