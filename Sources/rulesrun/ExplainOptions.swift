import ArgumentParser
import LuaHost
import RulesEngine

/// `replay`'s explain options: `--explain text|json`, and what narrows it — `--line` (an event by
/// its input line, or the calls that ran a rule line), `--only` (the calls of a rule function),
/// `--type` (the events of a type) — and `--full` (values whole). A filter narrows what is
/// explained only: every output line is printed.
struct ExplainOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Show the rule calls of each event: text (under each line) or json (an \"explain\" array in each line).",
            valueName: "text|json")) var explain: ExplainFormat?

    @Option(
        name: .customLong("line"),
        help: ArgumentHelp(
            "With --explain: explain only the event of input line N, or only the calls that ran line N of a rule FILE (repeatable).",
            valueName: "N|FILE:N"), transform: ExplainLine.parse) var lines: [ExplainLine] = []

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp("With --explain: explain only the calls of this rule function (repeatable).", valueName: "escalation.transition")
    )
    var functions: [String] = []

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp("With --explain: explain only the events of this type (repeatable).", valueName: "check_in")) var types:
        [String] = []

    @Flag(help: "With --explain: show arguments and results whole (strings up to 4,096 characters, 4,096 entries a table, 32 levels).")
    var full = false

    /// The options that narrow --explain, as given (for messages).
    private var narrowing: [String] {
        (lines.isEmpty ? [] : ["--line"]) + (functions.isEmpty ? [] : ["--only"]) + (types.isEmpty ? [] : ["--type"])
            + (full ? ["--full"] : [])
    }

    func validate() throws {
        if explain == nil, let first = narrowing.first {
            throw ValidationError("\(first) narrows --explain: add --explain text or --explain json")
        }
    }

    /// What explains each output line, with the names checked against `ruleSet` and the event
    /// types (an unknown one is an error naming the option, with a suggestion and the known names);
    /// nil without --explain.
    func explainer(for ruleSet: RuleSet) throws -> ReplayExplainer? {
        guard let explain else { return nil }
        let known = ruleSet.namedRuleFunctions.map(\.name)
        for name in functions where !known.contains(name) {
            throw ValidationError(Self.unknown("--only", "rule function", name, known: known))
        }
        let eventTypes = EngineEvent.typeNames
        for type in types where !eventTypes.contains(type) {
            throw ValidationError(Self.unknown("--type", "event type", type, known: eventTypes))
        }
        let files = Self.ruleFiles(of: ruleSet)
        for case .rule(let file, _) in lines where !files.contains(where: { ExplainLine.names(file, $0) }) {
            throw ValidationError(Self.unknown("--line", "rule file", file, known: files))
        }
        return ReplayExplainer(
            format: explain, ruleSet: ruleSet, limits: full ? .full : .abbreviated,
            filter: ReplayExplainer.Filter(lines: lines, functions: functions, types: types))
    }

    /// The files of the set's rule functions, as their calls name them (`escalation.lua`;
    /// `rules/streaks.lua` for one a folder inherits through `extends`).
    static func ruleFiles(of ruleSet: RuleSet) -> [String] {
        var files = ruleSet.fileLabels
        for (_, function) in ruleSet.namedRuleFunctions where !files.contains(function.source) { files.append(function.source) }
        return files
    }

    /// `--only: no rule function 'escalation.transtion' (did you mean 'escalation.transition'?); the rule functions: …`.
    static func unknown(_ option: String, _ what: String, _ name: String, known: [String]) -> String {
        let shown = VisibleText.escaping(SourceFile.excerpt(name, limit: 80))
        let suggestion = Suggestion.closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
        return "\(option): no \(what) '\(shown)'\(suggestion); expected one of: \(known.joined(separator: ", "))"
    }
}

/// A `--line` value: `N`, the line of the events file (the output's `"line"`), or `FILE:N`, a line of
/// a rule file (`pricing.lua:49`).
enum ExplainLine: Equatable {
    case event(Int)
    case rule(file: String, line: Int)

    /// Reads `N` or `FILE:N` (N from 1), or says what it expected.
    static func parse(_ argument: String) throws -> ExplainLine {
        let expected = "expected N (a line of the events file, from 1) or FILE:N (a line of a rule file: pricing.lua:49)"
        if let n = Int(argument) {
            guard n >= 1 else { throw ValidationError(expected) }
            return .event(n)
        }
        guard let colon = argument.lastIndex(of: ":"), let n = Int(argument[argument.index(after: colon)...]), n >= 1,
            colon > argument.startIndex
        else { throw ValidationError(expected) }
        return .rule(file: String(argument[..<colon]), line: n)
    }

    /// Whether `file`, as given, names the rule file `source` (as a call names it): the same, or its
    /// last part (`streaks.lua` for `rules/streaks.lua`).
    static func names(_ file: String, _ source: String) -> Bool {
        source == file || source.hasSuffix("/" + file)
    }
}
