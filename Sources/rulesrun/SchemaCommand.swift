import ArgumentParser
import Foundation
import RulesEngine
import RulesModel
import RulesSim

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print a JSON Schema (draft 2020-12) of the event format or of a JSON report.",
        discussion: """
            events: one line of a replay file (every event type, its fields, their types and values; \
            unknown fields are refused, as replay refuses them). scenario: a line of a scenario test \
            (rules/tests/*.jsonl), which may also carry "expect". report simulate: simulate --format json; \
            report validate: validate --format json. docs/tools.md says how to use them in an editor.

            Examples:
              rulesrun schema events > event.schema.json
              rulesrun schema report simulate > simulate-report.schema.json
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case events, scenario, report
    }

    enum Report: String, ExpressibleByArgument, CaseIterable {
        case simulate, validate
    }

    @Argument(help: "events, scenario or report.") var kind: Kind
    @Argument(help: "With report: simulate or validate.") var report: Report?

    func run() throws {
        let schema: JSONValue
        switch (kind, report) {
        case (.events, nil): schema = EventSchema.json()
        case (.scenario, nil): schema = EventSchema.json(scenario: true)
        case (.report, .simulate?): schema = SimulationReport.jsonSchema
        case (.report, .validate?): schema = Validate.jsonSchema
        case (.report, nil): throw ValidationError("schema report: which report? simulate or validate (rulesrun schema report simulate)")
        case (_, let report?): throw ValidationError("schema \(kind.rawValue) takes no second argument, found '\(report.rawValue)'")
        }
        var text = ""
        Self.write(schema, indent: "", into: &text)
        Terminal.print(text)
    }

    /// `value` as JSON, two spaces an indent, members in order, a scalar as `JSONValue` prints it.
    static func write(_ value: JSONValue, indent: String, into text: inout String) {
        let inner = indent + "  "
        switch value {
        case .array(let elements) where !elements.isEmpty:
            guard elements.contains(where: { if case .object = $0 { true } else if case .array = $0 { true } else { false } }) else {
                text += value.description
                return
            }
            text += "[\n"
            for (i, element) in elements.enumerated() {
                text += inner
                write(element, indent: inner, into: &text)
                text += i == elements.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (i, (key, member)) in members.enumerated() {
                text += inner + JSONValue.string(key).description + ": "
                write(member, indent: inner, into: &text)
                text += i == members.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        default:
            text += value.description
        }
    }
}
