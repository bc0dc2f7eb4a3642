import BuiltInDefaults
import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// A team's own metrics: the file `metrics.lua` of a rule folder (its own, or one it extends), or
/// a file given with `--metrics`, loaded in a Lua sandbox of its own and checked like a rule file
/// (every problem at `file:line`, unknown fields with a suggestion). The file returns a list of
/// metrics; each has an `id`, a `label`, a `unit`, an `aggregate`, optionally the `app` whose users
/// it is about, and a function `day(d)` that gives one user's day a value (a number, a boolean,
/// or nil for no value that day) from what the engine logged and decided that day and the state
/// it reports at its end (``TeamMetricDay``): engine outputs only, never persona internals.
package final class TeamMetrics {
    /// The file's name in a rule folder.
    package static let fileName = RuleSet.metricsFileName
    /// The most metrics a file may declare.
    package static let maxMetrics = 32
    /// The longest id and label.
    static let maxID = 40, maxLabel = 80

    /// A metrics file's text and the name messages give it; a simulation's workers load it again.
    package struct Source: Sendable, Equatable {
        package var path: String
        package var text: String
    }

    package let source: Source
    package let metrics: [TeamMetric]
    let functions: [LuaFunction]
    let host: LuaHost

    /// The metrics file of rule folder `rules` (its own, else the nearest one it extends), nil
    /// when there is none.
    package static func source(rules: String) throws -> Source? {
        guard rules != BuiltInDefaults.name, let located = RuleSet.locate(fileName, in: rules) else { return nil }
        return try read(located.url.path, shownAs: located.chunkName)
    }

    /// The metrics file at `path` (`--metrics`).
    package static func source(file path: String) throws -> Source {
        try read(WorkingFolder.resolve(path), shownAs: PersonaLoader.shown(path))
    }

    private static func read(_ path: String, shownAs name: String) throws -> Source {
        let bytes: [UInt8]
        do {
            bytes = try SourceFile.read(path, maxBytes: LuaLimits.default.maxSourceBytes)
        } catch {
            throw InputFileError(name, error.description)
        }
        do { try LuaHost.checkUTF8(bytes, chunkName: name) } catch { throw InputFileError(name, line: error.line, error.message) }
        return Source(path: name, text: String(decoding: bytes, as: UTF8.self))
    }

    /// The fields a metric may have.
    static let fieldNames = ["id", "label", "description", "app", "unit", "aggregate", "day"]

    private struct Declaration: Decodable {
        var id: String?
        var label: String?
        var description: String?
        var app: String?
        var unit: String?
        var aggregate: String?
        var day: LuaFunction?
    }

    /// Loads and checks the metrics of `source` in a Lua state of their own; each function is
    /// called once on an empty day of each app, so that a function that fails or returns something
    /// else than a number, a boolean or nil is refused before a run starts.
    package init(_ source: Source) throws {
        let path = source.path
        let host = try LuaHost()
        let map = LuaSourceMap(source: source.text)
        let returned: LuaValue
        do {
            returned = try host.load(source.text, chunkName: path).first ?? .nil
        } catch let error as LuaError {
            throw InputFileError(error.file ?? path, line: error.line, error.message)
        }
        guard let list = returned.tableValue, list.sortedEntries.allSatisfy({ $0.key.integerValue != nil }), !list.sortedEntries.isEmpty
        else {
            throw InputFileError(
                path, line: map.line(for: ""),
                "a metrics file must return a list of metrics ({ { id = ..., label = ..., unit = ..., aggregate = ..., day = function(d) ... end }, ... }), found \(returned.errorDescription)"
            )
        }
        let entries = list.sortedEntries
        var problems: [RuleProblem] = []
        func problem(_ field: String, _ message: String) {
            problems.append(RuleProblem(file: path, line: map.line(for: field), message: "\(field): \(message)", field: field))
        }
        if entries.count > Self.maxMetrics {
            problem("[\(Self.maxMetrics + 1)]", "\(entries.count) metrics, expected at most \(Self.maxMetrics)")
        }
        var metrics: [TeamMetric] = [], functions: [LuaFunction] = []
        var ids: Set<String> = [], labels: Set<String> = []
        for (n, entry) in entries.prefix(Self.maxMetrics).enumerated() {
            let at = "[\(n + 1)]"
            guard entry.key.integerValue == Int64(n + 1) else {
                problem(at, "expected a list: metric \(n + 1) is missing")
                break
            }
            guard let table = entry.value.tableValue else {
                problem(at, "expected a table (a metric), found \(entry.value.errorDescription)")
                continue
            }
            // Unknown fields (a typo's field is then not also reported missing).
            var meant: Set<String> = []
            for field in table.sortedEntries {
                guard let name = field.key.stringValue, !Self.fieldNames.contains(name) else { continue }
                var message = "unknown field '\(name)'"
                if let suggestion = Suggestion.closest(to: name, among: Self.fieldNames) {
                    message += "; did you mean '\(suggestion)'?"
                    meant.insert(suggestion)
                }
                problem("\(at).\(name)", message)
            }
            let (decoded, errors) = LuaDecoder().decodeReportingAll(Declaration.self, from: entry.value, file: path)
            for error in errors {
                let field = error.path ?? ""
                guard field.isEmpty || Self.fieldNames.contains(String(field.prefix { $0 != "." && $0 != "[" })) else { continue }
                problem(field.isEmpty ? at : "\(at).\(field)", error.message)
            }
            guard let d = decoded else { continue }
            func required<T>(_ value: T?, _ field: String, _ expected: String) -> T? {
                if value == nil, !meant.contains(field) { problem("\(at).\(field)", "missing (expected \(expected))") }
                return value
            }
            let builtIn = MetricRegistry.all
            let id = required(d.id, "id", "a snake_case name")
            if let id {
                if id.count > Self.maxID || id.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) == nil {
                    problem(
                        "\(at).id", "expected a snake_case name (a-z, 0-9, _; at most \(Self.maxID) characters), found \"\(SourceFile.excerpt(id))\"")
                } else if builtIn.contains(where: { $0.id == id }) {
                    problem("\(at).id", "'\(id)' is a built-in metric's id; choose another")
                } else if !ids.insert(id).inserted {
                    problem("\(at).id", "'\(id)' names two metrics")
                }
            }
            let label = required(d.label, "label", "the name reports print")?.trimmingCharacters(in: .whitespaces)
            if let label {
                if label.isEmpty || label.count > Self.maxLabel || label.contains(where: \.isNewline) {
                    problem(
                        "\(at).label",
                        "expected a label of 1 to \(Self.maxLabel) characters on one line, found \"\(SourceFile.excerpt(d.label ?? ""))\"")
                } else if builtIn.contains(where: { $0.label == label }) {
                    problem("\(at).label", "'\(label)' is a built-in metric's label; choose another")
                } else if !labels.insert(label).inserted {
                    problem("\(at).label", "'\(label)' labels two metrics")
                }
            }
            func named<T>(_ name: String?, _ field: String, _ names: [String], default value: T? = nil, _ find: (String) -> T?) -> T? {
                guard let name else {
                    if value == nil { _ = required(name, field, "one of \(names.joined(separator: ", "))") }
                    return value
                }
                if let found = find(name) { return found }
                var message = "expected one of \(names.joined(separator: ", ")), found \"\(SourceFile.excerpt(name))\""
                if let s = Suggestion.closest(to: name, among: names) { message += "; did you mean '\(s)'?" }
                problem("\(at).\(field)", message)
                return nil
            }
            let app = named(d.app, "app", (Metric.App.used + [.cohort]).map(\.rawValue), default: Metric.App.cohort) {
                Metric.App(rawValue: $0)
            }
            let unit = named(d.unit, "unit", TeamMetric.units.map(\.name)) { n in TeamMetric.units.first { $0.name == n }?.unit }
            let aggregate = named(d.aggregate, "aggregate", ["mean", "per_user", "share_of_users", "p1 to p99"]) {
                TeamMetric.Aggregate(name: $0)
            }
            let day = required(d.day, "day", "a function of the user's day")
            guard let id, let label, let day else { continue }
            guard let app, let unit, let aggregate else { continue }
            metrics.append(TeamMetric(id: id, label: label, app: app, unit: unit, aggregate: aggregate))
            functions.append(day)
        }
        guard problems.isEmpty else { throw InputFileError(problems: RuleProblem.inLineOrder(problems)) }
        self.source = source
        self.metrics = metrics
        self.functions = functions
        self.host = host
        // Each function on an empty day of its app: a function that fails on it fails on every day.
        for i in metrics.indices {
            let day = TeamMetricDay(index: 0, date: "2026-01-05", user: "u1", apps: [metrics[i].app])
            _ = try value(of: i, on: day.lua(state: TeamMetricDay.State.empty))
        }
    }

    /// The value of metric `i` on the user-day `day` (nil: no value that day).
    func value(of i: Int, on day: LuaValue, user: String = "u1", date: String = "2026-01-05") throws -> Double? {
        let function = functions[i]
        let during = "(in day() of metric '\(metrics[i].id)' for \(user) on \(date))"
        let result: LuaValue
        do {
            result = try host.call(function, [day]).first ?? .nil
        } catch let error as LuaError {
            throw InputFileError(error.file ?? function.source, line: error.line ?? function.line, "\(error.message) \(during)")
        }
        switch result {
        case .nil: return nil
        case .boolean(let b): return b ? 1 : 0
        case .integer, .number:
            let v = result.doubleValue ?? .nan
            guard v.isFinite, abs(v) <= TeamMetricTotals.maxValue else {
                throw InputFileError(
                    function.source, line: function.line,
                    "day() returned \(result.errorDescription), expected a finite number from -\(Int(TeamMetricTotals.maxValue)) to \(Int(TeamMetricTotals.maxValue)) \(during)")
            }
            return v
        default:
            throw InputFileError(
                function.source, line: function.line,
                "day() returned \(result.errorDescription), expected a number, a boolean or nil \(during)")
        }
    }

    /// Seeds the metrics' `math.random` (a simulation seeds it per user, as the rules').
    func seedRandom(_ seed: Int64) throws { try host.seedRandom(seed) }
}
