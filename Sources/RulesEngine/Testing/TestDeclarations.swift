import LuaHost

/// An inherited test a folder's test file marks, as it loads: `skip(NAME, REASON)` does not run it,
/// `expect_failure(NAME, REASON)` runs it and expects it to fail (pytest's strict xfail: one that
/// passes fails the run, saying it now passes). NAME is a test's name (a `test_` or `prop_`
/// function, a scenario file's name without `.jsonl`, a table test's name or one of its cases'),
/// of a folder the marking file's folder extends.
package struct TestMark: Sendable {
    package enum Kind: String, Sendable {
        case skip
        case expectFailure = "expect_failure"
    }

    package let kind: Kind
    /// The test it marks, as written.
    package let name: String
    package let reason: String
    /// Where the mark is written: `tests/marks_test.lua`, its line.
    package let file: String
    package let line: Int
    /// The place of the marking file's folder in the chain (0: the folder under test, 1: the folder
    /// it extends, …): a mark applies to the tests of the folders after it.
    let depth: Int

    /// `tests/marks_test.lua:3`.
    package var location: String { "\(file):\(line)" }
}

/// What the test files of a run declare as they load, besides their `test_` functions: the marks
/// of inherited tests (`skip`, `expect_failure`) and the table-driven tests (`table_test`), which
/// the helpers of those names record here (`TestHelpers`). The helpers may be called only at the
/// top of a test file, while it loads (`loading`), not inside a test.
package final class TestDeclarations {
    /// A table-driven test: one function called with each case, each case a test of its own,
    /// named `NAME[CASE]` (CASE the case's `name` field, or its index in the list).
    struct TableTest {
        let name: String
        let line: Int
        let function: LuaFunction
        let cases: [(name: String, value: LuaValue)]
    }

    /// The file loading now, and its folder's place in the chain; nil while tests run.
    var loading: (label: String, depth: Int)?
    private(set) var marks: [TestMark] = []
    /// The table tests of the file loading, in the order written (taken by `LuaTestFile`).
    var tables: [TableTest] = []
    /// The names of the tests found at each depth of the chain (whether they ran or not), and of
    /// their table tests: what a mark may name.
    var names: [Int: Set<String>] = [:]

    func add(_ mark: TestMark) { marks.append(mark) }

    /// The mark of the test `name` at `depth` (of the table test `table` for one of its cases):
    /// the nearest folder's, when two folders mark it.
    func mark(of name: String, table: String? = nil, depth: Int) -> TestMark? {
        marks.filter { $0.depth < depth && ($0.name == name || $0.name == table) }.max { $0.depth < $1.depth }
    }

    /// An ERROR for each mark that names no test of the folders its folder extends (with the
    /// closest name there is), in the order written.
    func unknownMarks(folderOf: (TestMark) -> String) -> [RuleTestResult] {
        marks.compactMap { mark in
            let known = names.filter { $0.key > mark.depth }.values.reduce(into: Set<String>()) { $0.formUnion($1) }
            guard !known.contains(mark.name) else { return nil }
            var message = "\(mark.location): \(mark.kind.rawValue): no test of the folders this one extends is named '\(mark.name)'"
            if let closest = Suggestion.closest(to: mark.name, among: Array(known)) {
                message += "; the closest is '\(closest)'"
            } else if known.isEmpty {
                message += " (they have no test)"
            }
            return RuleTestResult(
                file: mark.file, line: mark.line, name: "(\(mark.kind.rawValue))", folder: folderOf(mark), outcome: .error,
                failure: [message])
        }
    }
}
