/// A value of the data model broke one of its rules.
///
/// Every validation in `RulesModel` throws this error. It names the entity, the field, the rule
/// that was broken and the value that was found, so that the message alone tells a user what to
/// fix: `Commitment.text: at most 280 characters, found 312`.
public struct ModelValidationError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The type of the data model, e.g. `Commitment`.
    public var entity: String
    /// The field, in the seed's spelling or a path for nested JSON (`credit_costs.minutes_15`).
    public var field: String
    /// What the rule requires, e.g. `at most 280 characters`.
    public var rule: String
    /// What was found, e.g. `312`.
    public var found: String

    public init(entity: String, field: String, rule: String, found: String) {
        self.entity = entity
        self.field = field
        self.rule = rule
        self.found = found
    }

    public var description: String { "\(entity).\(field): \(rule), found \(found)" }
}

/// A value that can check itself against the rules of its seed document.
public protocol Validatable {
    /// Throws a ``ModelValidationError`` naming the first rule the value breaks.
    func validate() throws
}
