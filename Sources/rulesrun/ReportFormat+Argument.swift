import ArgumentParser
import RulesSim

/// `--format`'s values: `ReportFormat(argument:)` reads one (here, so that RulesSim does not
/// depend on ArgumentParser).
extension ReportFormat: ExpressibleByArgument {
    /// The values in words, for the help and the error: "table, json, csv or jsonl".
    static let listed = allValueStrings.dropLast().joined(separator: ", ") + " or " + allValueStrings.last!

    /// `--format`'s parser: an unknown value is refused naming the option and the values, e.g.
    /// "The value 'xml' is invalid for '--format <format>': expected table, json, csv or jsonl". (A
    /// transform rather than the conformance alone, which would add "(values: table, json, csv;
    /// default: table)" to the help: the help stays as README lists it.)
    static let parser: @Sendable (String) throws -> ReportFormat = { text in
        guard let format = ReportFormat(argument: text) else { throw ValidationError("expected \(listed)") }
        return format
    }
}
