import RulesEngine
import RulesModel

extension Validate {
    /// `validate --format json`'s object, members in this order (docs/validate.md):
    /// `{"folder", "ok", "problems": [{"file", "line", "field", "message", "severity"}], "summary",
    /// "params": [{"file", "name", "type", "min", "max", "values", "default", "doc"}], "unproved": [text]}`.
    /// `line` and `field` are null when unknown; `message` is the text after `field: `.
    static func report(folder: String, ruleSet: RuleSet?, problems: [RuleProblem]) -> JSONValue {
        let count = problems.count
        return .object([
            ("folder", .string(folder)),
            ("ok", .bool(ruleSet != nil)),
            ("problems", .array(problems.map(json))),
            ("summary", .string(ruleSet.map { "valid (\($0.summary))" } ?? "\(count) problem\(count == 1 ? "" : "s")")),
            ("params", .array(ruleSet?.declaredParams.flatMap { file, params in params.params.map { json($0, file: file) } } ?? [])),
            ("unproved", .array(ruleSet?.unproved.map(JSONValue.string) ?? [])),
        ])
    }

    private static func json(_ problem: RuleProblem) -> JSONValue {
        var message = problem.message
        if let field = problem.field, !field.isEmpty, message.hasPrefix(field + ": ") { message.removeFirst(field.count + 2) }
        return .object([
            ("file", .string(problem.file)),
            ("line", problem.line.map(JSONValue.int) ?? .null),
            ("field", problem.field.flatMap { $0.isEmpty ? nil : JSONValue.string($0) } ?? .null),
            ("message", .string(message)),
            ("severity", .string("error")),
        ])
    }

    private static func json(_ param: RuleParams.Param, file: String) -> JSONValue {
        .object([("file", .string(file))] + param.jsonMembers)
    }
}
