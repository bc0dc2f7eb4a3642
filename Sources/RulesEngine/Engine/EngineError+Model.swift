import RulesModel

extension EngineError {
    /// A rule of the data model that an event broke, told in the event's own words: `fields` maps
    /// the model's field (`timesPerDay`) to the event's (`times_per_day`), giving
    /// `times_per_day: expected between 1 and 100, found -1` rather than
    /// `HabitTask.timesPerDay: between 1 and 100, found -1`. An error on a field the event does not
    /// set (or any other error) keeps its own text.
    init(_ code: Code, _ error: any Error, fields: KeyValuePairs<String, String>) {
        guard let error = error as? ModelValidationError, let field = fields.first(where: { $0.key == error.field })?.value else {
            self.init(code, "\(error)")
            return
        }
        self.init(code, "\(field): expected \(error.rule), found \(error.found)")
    }
}
