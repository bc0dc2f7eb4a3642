import Foundation
import LuaHost

/// `rulesrun test`: finds the tests of a rule folder (`tests/*.lua`, `tests/*.jsonl`) and, unless
/// told otherwise, those of every folder it extends, and runs them all against the folder's own
/// rule set, so that a variant sees which of its base's expectations it changes.
public enum RuleTestRunner {
    /// One test file found, and the folder it comes from.
    struct Found {
        let url: URL
        let label: String
        let folder: String
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
    public static func run(
        _ path: String, validated: RuleSnapshot? = nil, inherit: Bool = true, recorder: LineRecorder? = nil,
        properties: (any PropertyRunning)? = nil, explain: Bool = false, selected: (String) -> Bool = { _ in true }
    ) throws -> [RuleTestResult] {
        let found = try testFiles(path, inherit: inherit)
        let ruleSet = try validated?.load() ?? RuleSet.load(path)
        let snapshot = ruleSet.snapshot
        try TestHelpers.install(in: ruleSet.host, modules: ruleSet.modules)
        recorder?.start(ruleSet.host)
        var results: [RuleTestResult] = []
        for file in found {
            if file.url.pathExtension == "lua" {
                var testFile = LuaTestFile(url: file.url, label: file.label, folder: file.folder)
                testFile.rules = path
                testFile.snapshot = snapshot
                testFile.properties = properties
                for var result in testFile.run(in: ruleSet.host, selected: selected) {
                    if explain, result.outcome == .failed, result.name.hasPrefix("test_") {
                        result.explanation = FailureExplanation.ofTest(
                            named: result.name, url: file.url, label: file.label, rules: snapshot)
                    }
                    results.append(result)
                }
            } else {
                let scenario = ScenarioTest(url: file.url, label: file.label, folder: file.folder)
                guard selected(scenario.name) else { continue }
                var result = scenario.run(rules: snapshot, recorder: recorder)
                if explain, result.outcome == .failed { result.explanation = scenario.explainFailure(rules: snapshot) }
                results.append(result)
            }
        }
        recorder?.collect(ruleSet.host)
        return results
    }

    /// The folders whose tests run (`DIR/tests`, then its bases'), as messages name them.
    public static func testFolders(_ path: String, inherit: Bool = true) throws -> [String] {
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
            let names = (try? FileManager.default.contentsOfDirectory(atPath: tests.path)) ?? []
            let folder = index == 0 ? path : displayPath(link.folder.root)
            for name in names.sorted() where !name.hasPrefix(".") && (name.hasSuffix(".lua") || name.hasSuffix(".jsonl")) {
                found.append(
                    Found(url: tests.appendingPathComponent(name), label: "\(link.label)\(RuleSet.testFolder)/\(name)", folder: folder))
            }
        }
        return found
    }

    /// A folder as the output names it: relative to the current directory when it is inside it.
    static func displayPath(_ url: URL) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL.path
        let path = url.standardizedFileURL.path
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
