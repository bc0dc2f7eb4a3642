import RulesModel

extension SimulationReport {
    /// The report as JSON lines (`--format jsonl`), one flat object per day, for tools: `date`,
    /// `day` (1-based), then every value of the day's object in the JSON report under a dotted key
    /// (`tiers.0` … `tiers.3`, `earned.credits_spent`, `earned.unlocks.CREDITS`), each line with
    /// the same keys in the same order. The histograms (`…_histogram`, whose length varies with the
    /// longest streak or the largest balance) stay arrays, one cell each. `pandas.read_json(path,
    /// lines=True)` reads it as one row per day.
    package func jsonl() -> String {
        dayObjects(HabitShown(days)).map { day in
            var members: [(String, JSONValue)] = []
            Self.flatten(day, prefix: nil, into: &members)
            let first = members.filter { $0.0 == "date" || $0.0 == "day" }.sorted { $0.0 < $1.0 }
            return JSONValue.object(first + members.filter { $0.0 != "date" && $0.0 != "day" }).description + "\n"
        }.joined()
    }

    private static func flatten(_ value: JSONValue, prefix: String?, into members: inout [(String, JSONValue)]) {
        func key(_ name: String) -> String { prefix.map { "\($0).\(name)" } ?? name }
        switch value {
        case .object(let fields):
            for (name, field) in fields { flatten(field, prefix: key(name), into: &members) }
        case .array(let items) where !(prefix ?? "").hasSuffix("_histogram"):
            for (i, item) in items.enumerated() { flatten(item, prefix: key(String(i)), into: &members) }
        default:
            members.append((prefix ?? "", value))
        }
    }
}
