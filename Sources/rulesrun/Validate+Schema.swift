import RulesEngine
import RulesModel

extension Validate {
    /// The JSON Schema (draft 2020-12) of `validate --format json`'s object (``report(folder:ruleSet:problems:)``;
    /// `rulesrun schema report validate`, docs/tools.md).
    static var jsonSchema: JSONValue {
        func object(_ properties: [(String, JSONValue)]) -> JSONValue {
            .object([
                ("type", .string("object")), ("properties", .object(properties)),
                ("required", .array(properties.map { .string($0.0) })), ("additionalProperties", .bool(false)),
            ])
        }
        func type(_ names: String...) -> JSONValue {
            .object([("type", names.count == 1 ? .string(names[0]) : .array(names.map(JSONValue.string)))])
        }
        let scalar = type("number", "boolean", "string")
        let problem = object([
            ("file", type("string")), ("line", .object([("type", .array([.string("integer"), .string("null")])), ("minimum", .int(1))])),
            ("field", type("string", "null")), ("message", type("string")),
            ("severity", .object([("enum", .array([.string("error")]))])),
        ])
        let param = object([
            ("file", type("string")), ("name", type("string")),
            ("type", .object([("enum", .array(RuleParams.Kind.allCases.map { .string($0.rawValue) }))])),
            ("min", type("number", "null")), ("max", type("number", "null")),
            ("values", .object([("type", .string("array")), ("items", type("string"))])), ("default", scalar),
            ("doc", type("string", "null")),
        ])
        var schema = object([
            ("folder", type("string")), ("ok", type("boolean")), ("problems", .object([("type", .string("array")), ("items", problem)])),
            ("summary", type("string")), ("params", .object([("type", .string("array")), ("items", param)])),
            ("unproved", .object([("type", .string("array")), ("items", type("string"))])),
        ])
        if case .object(let members) = schema {
            let header: [(String, JSONValue)] = [
                ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
                ("$id", .string("urn:rulesrun:schema:validate-report")), ("title", .string("rulesrun validate --format json")),
            ]
            schema = .object(header + members)
        }
        return schema
    }
}
