/// How a report is printed: `table` for people, `json`, `csv` and `jsonl` (a flat JSON object per
/// day) for tools.
package enum ReportFormat: String, Sendable, CaseIterable {
    case table, json, csv, jsonl
}
