/// How a report is printed: `table` for people, `json` and `csv` for tools.
public enum ReportFormat: String, Sendable, CaseIterable {
    case table, json, csv
}
