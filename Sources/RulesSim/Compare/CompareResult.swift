import LuaHost
import RulesEngine
import RulesModel

/// What a comparison found, and its text and JSON renderings.
package struct CompareResult: Sendable {
    package var nameA: String
    package var nameB: String
    package var options: CompareOptions
    package var histories: Int
    /// Histories that showed at least one difference or broken expectation.
    package var differing: Int
    package var findings: [CompareFinding]
    /// Where each finding's replay file was written, by kind (set by the caller that writes them).
    package var replayFiles: [CompareFinding.Kind: String] = [:]
    /// The population half of `compare`: the simulate metrics of both sets side by side, on the
    /// same seeded cohort (the `population` object of the JSON output; absent when skipped).
    package var population: PopulationComparison?
    /// The economy's differential half (nil when skipped), and where its replay files were written.
    package var economy: EconomyComparison.Result?
    package var economyFiles: [EconomyField: String] = [:]
    /// The habit tracker's differential half (nil when skipped), and where its replay files were written.
    package var habits: HabitComparison.Result?
    package var habitFiles: [HabitField: String] = [:]
    /// The properties (`--property`) and the expectations over the economy's and the habit
    /// tracker's fields, and where the replay files of those that broke were written, by file name.
    package var properties: [PropertyComparison.Checked] = []
    package var propertyFiles: [String: String] = [:]
    /// Histories that stopped early because a rule failed (threw or broke an invariant) under A,
    /// under B: each is compared only up to that day.
    package var stoppedA = 0
    package var stoppedB = 0
    /// With expectations, what the Pressure histories reached of A's rules and of B's (`RuleReach`).
    package var reach: [RuleReach?] = []
    /// Whether some history was not compared to its end.
    package var stoppedEarly: Bool { stoppedA + stoppedB > 0 }

    /// Differences of fields (not expectations).
    package var differences: [CompareFinding] { findings.filter { if case .field = $0.kind { true } else { false } } }
    /// Broken expectations.
    package var brokenExpectations: [CompareFinding] { findings.filter { if case .expectation = $0.kind { true } else { false } } }

    /// Whether the run states expectations or properties: then only a broken one fails it.
    package var judged: Bool { !options.expectations.isEmpty || !properties.isEmpty }
    /// Broken expectations and properties, and how many were stated.
    var brokenCount: Int { brokenExpectations.count + properties.filter { !$0.holds }.count }
    var statedCount: Int { options.expectations.count + properties.count }

    /// 0 when no difference was found (or, with expectations or properties, when every one held), else 1.
    package var exitCode: Int32 {
        if judged { return brokenCount == 0 ? 0 : 1 }
        return identical ? 0 : 1
    }

    /// Whether no half found a difference (expectations aside).
    package var identical: Bool {
        differences.isEmpty && (economy?.findings.isEmpty ?? true) && (habits?.findings.isEmpty ?? true)
    }

    // MARK: Text

    package var text: String {
        var out: [String] = []
        let (a, b) = (VisibleText.oneLine(nameA), VisibleText.oneLine(nameB))
        out.append("compare A = \(a), B = \(b): \(historiesText) from seed \(options.seed) (fresh users)")
        if !options.ignoredNames.isEmpty { out.append("ignoring: \(options.ignoredNames.joined(separator: ", "))") }
        out.append("histories with a rule error: " + ruleErrorsText)
        if differences.isEmpty {
            out.append(
                "Pressure histories: no difference: A and B decided every compared field the same on every day"
                    + (stoppedEarly ? " compared (not after a rule error)" : ""))
        } else {
            let kinds = differences.map { "\($0.kind) (\($0.histories))" }.joined(separator: ", ")
            out.append("Pressure histories: A and B differ in \(differing) of \(histories) histories; by kind (histories): \(kinds)")
        }
        for (k, expectation) in options.expectations.enumerated() {
            let broken = brokenExpectations.first { if case .expectation(k, _) = $0.kind { true } else { false } }
            out.append(
                "expect \(expectation): "
                    + (broken.map { "BROKEN in \($0.histories) of \(histories) histories" }
                        ?? (stoppedEarly
                            ? "holds on every day compared (a history that stopped at a rule error, up to it)"
                            : "holds on every day of every history"))
            )
            if broken == nil { out += RuleReach.text(reach) }
        }
        for checked in properties { out += lines(of: checked) }
        for finding in findings {
            out.append("")
            out += lines(of: finding)
        }
        if let economy {
            out.append("")
            out += lines(of: economy, files: economyFiles)
        }
        if let habits {
            out.append("")
            out += lines(of: habits, files: habitFiles)
        }
        if let population {
            out.append("")
            out.append(population.text)
        }
        out.append("")
        out.append(verdict)
        return out.joined(separator: "\n")
    }

    /// Every half's histories: `1000 Pressure histories of 30 days, 100 Earned histories of 14
    /// days and 100 habit histories of 21 days`.
    var historiesText: String {
        var parts = ["\(histories) Pressure histories of \(options.days) days"]
        if let economy { parts.append("\(economy.histories) \(EconomyField.historiesName) of \(economy.days) days") }
        if let habits { parts.append("\(habits.histories) \(HabitField.historiesName) of \(habits.days) days") }
        return Self.list(parts, "and")
    }

    /// Every half's histories in which a rule failed, under A and under B: a Pressure history is
    /// compared up to that day; in the replayed halves the engine refuses the event and the history
    /// goes on.
    var ruleErrorsText: String {
        var parts = ["Pressure \(stoppedA) under A, \(stoppedB) under B (of \(histories); each is compared up to that day)"]
        if let economy {
            parts.append(
                "Earned \(economy.ruleErrorsA) under A, \(economy.ruleErrorsB) under B (of \(economy.histories); the event is refused, the history goes on)")
        }
        if let habits { parts.append("habits \(habits.ruleErrorsA) under A, \(habits.ruleErrorsB) under B (of \(habits.histories))") }
        return parts.joined(separator: "; ")
    }

    /// The last line: the exit status and which part decides it (the population part is for
    /// reading only).
    package var verdict: String {
        if judged {
            let expectations = options.expectations.count + properties.filter(\.isExpectation).count
            let (what, plural) =
                expectations == statedCount
                ? ("expectation", "expectations")
                : expectations == 0 ? ("property", "properties") : ("expectation and property", "expectations and properties")
            return brokenCount == 0
                ? "exit 0: every \(what) held"
                : "exit 1: \(brokenCount) of \(statedCount) \(statedCount == 1 ? what : plural) broke"
        }
        var parts: [String] = []
        if !differences.isEmpty { parts.append("the Pressure histories") }
        if let economy, !economy.findings.isEmpty { parts.append("the economy") }
        if let habits, !habits.findings.isEmpty { parts.append("the habits") }
        if parts.isEmpty {
            let halves = ["the Pressure histories"] + (economy == nil ? [] : ["the economy"]) + (habits == nil ? [] : ["the habits"])
            return "exit 0: no difference in " + Self.list(halves, "or")
        }
        return "exit 1: A and B differ in " + Self.list(parts, "and")
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String], _ conjunction: String) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
    }

    /// `prop_x (properties.lua:4) on 100 earned histories of 3 days: holds`, or where it broke.
    private func lines(of checked: PropertyComparison.Checked) -> [String] {
        let o = checked.outcome
        let name = VisibleText.oneLine("\(checked.name) (\(checked.origin))")
        let head = "\(name) on \(o.cases) \(checked.app.historiesName) of \(checked.days) days: "
        guard let first = o.firstCase else { return [head + "holds after every event of every history"] + RuleReach.text(checked.reach) }
        var out = [
            head
                + "BROKEN in \(o.broken) of \(o.cases) histories; first in history \(first), shrunk from \(o.originalEvents) to \(o.minimal.count) events",
        ]
        if let stop = checked.shrinkText { out.append("  \(stop); the smallest failing history found so far") }
        out.append("  why: " + o.message.replacingOccurrences(of: "\n", with: "\n  "))
        if let file = propertyFiles[checked.fileName] {
            out.append("  replay file: \(VisibleText.oneLine(file))")
            out.append("    \(ShellQuote.replay(file, rules: nameA))")
            out.append("    \(ShellQuote.replay(file, rules: nameB))")
        }
        for explanation in checked.explanations { out += explanation.text.map { "  " + $0 } }
        return out
    }

    private func lines(of f: CompareFinding) -> [String] {
        var out: [String] = []
        let days = f.history.days.count
        out.append("\(f.kind): \(f.histories) of \(histories) histories; first in \(f.original.origin)")
        let events = f.script.eventsBeyondSetup
        out.append(
            "  shrunk to \(days) day\(days == 1 ? "" : "s"), \(events) event\(events == 1 ? "" : "s") beyond the set-up (\(f.script.setupCount) set-up events)"
                + (f.shrinkText.map { "; \($0): the smallest history found so far" } ?? "")
        )
        if let file = replayFiles[f.kind] {
            out.append("  replay file: \(VisibleText.oneLine(file))")
            out.append("    \(ShellQuote.replay(file, rules: nameA))")
            out.append("    \(ShellQuote.replay(file, rules: nameB))")
        }
        out.append("  days (as A and B decide them):")
        for (i, day) in f.history.days.enumerated() {
            out.append("    day \(i + 1) \(f.history.date(ofDay: i + 1))  \(day.text)")
            let a = i < f.daysA.count ? f.daysA[i] : "-", b = i < f.daysB.count ? f.daysB[i] : "-"
            out.append("      A: \(a)")
            out.append("      B: \(b)")
        }
        guard f.reproduced, let index = f.firstEvent, let a = f.a, let b = f.b else {
            out.append("  NOT reproduced by the engine: replaying the file under A and B shows no difference in \(f.kind)")
            return out
        }
        out.append("  the engine reproduces it; first diverging event: event \(index + 1) (output line \(index + 1) of rulesrun replay)")
        out.append("    \(f.script.lines[index])")
        let names = EngineCheck.stateFields.filter { name in
            [a.before, a.after, b.before, b.after].contains { side in side.contains { $0.0 == name } }
        }
        let width = max(24, (names.map(\.count).max() ?? 0) + 2)
        func value(_ side: [(String, JSONValue)], _ name: String) -> String { side.first { $0.0 == name }?.1.description ?? "-" }
        func cell(_ s: CompareFinding.Side, _ name: String) -> String {
            let before = value(s.before, name), after = value(s.after, name)
            return (before == after ? after : "\(before) → \(after)")
        }
        let columnA = max(22, names.map { cell(a, $0).count + 2 }.max() ?? 0)
        out.append(
            "    " + "field".padding(toLength: width, withPad: " ", startingAt: 0)
                + "A (before → after)".padding(toLength: columnA, withPad: " ", startingAt: 0) + "B (before → after)")
        if a.refused != nil || b.refused != nil {
            // A refused event changes nothing: the state below is the state it stayed in.
            func event(_ s: CompareFinding.Side) -> String { s.refused.map { "refused (\($0)), unchanged" } ?? "applied" }
            out.append(
                "    " + "event".padding(toLength: width, withPad: " ", startingAt: 0)
                    + event(a).padding(toLength: columnA, withPad: " ", startingAt: 0) + event(b)
                    + (a.refused != b.refused ? "   <- differs" : ""))
        }
        for name in names {
            let x = cell(a, name), y = cell(b, name)
            let mark = value(a.after, name) != value(b.after, name) ? "   <- differs" : ""
            out.append(
                "    " + name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + x.padding(toLength: columnA, withPad: " ", startingAt: 0) + y + mark)
        }
        for explanation in f.explanations { out += explanation.text.map { "  " + $0 } }
        return out
    }

    private func lines<Field>(of half: LineComparison<Field>.Result, files: [Field: String]) -> [String] {
        var out = [
            "\(Field.section): \(half.histories) \(Field.historiesName) of \(half.days) days from seed \(options.seed), replayed through the engine under A and B"
        ]
        if half.ruleErrorsA + half.ruleErrorsB > 0 {
            out.append(
                "  histories with a rule error: \(half.ruleErrorsA) under A, \(half.ruleErrorsB) under B (each such event refused, the history going on)")
        }
        if half.findings.isEmpty {
            out.append("  no difference: A and B decided \(Field.comparedText) the same")
            return out
        }
        out.append(
            "  A and B differ in \(half.differing) of \(half.histories) histories; by kind (histories): "
                + half.findings.map { "\($0.field.rawValue) (\($0.histories))" }.joined(separator: ", "))
        for f in half.findings {
            out.append(
                "  \(f.field.rawValue): first in \(Field.half) case \(f.firstCase); shrunk to \(f.eventsBeyondSetup) event\(f.eventsBeyondSetup == 1 ? "" : "s") beyond the set-up (\(f.setupCount) set-up events)"
                    + (f.shrinkText.map { "; \($0): the smallest history found so far" } ?? "")
            )
            if let file = files[f.field] {
                out.append("    replay file: \(VisibleText.oneLine(file))")
                out.append("      \(ShellQuote.replay(file, rules: nameA))")
                out.append("      \(ShellQuote.replay(file, rules: nameB))")
            }
            out.append("    first diverging event: event \(f.firstEvent + 1): \(f.lines[f.firstEvent])")
            let changes = f.changes
            for change in changes.prefix(6) { out.append("      A → B  \(change)") }
            if changes.count > 6 { out.append("      … and \(changes.count - 6) more (see --json)") }
        }
        return out
    }

    // MARK: JSON

    package var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("a", .string(nameA)), ("b", .string(nameB)),
            ("runs", .int(histories)), ("days", .int(options.days)), ("seed", .string(String(options.seed))),
            ("ignored", .array(options.ignoredNames.map { .string($0) })),
            ("identical", .bool(identical)),
            ("histories_with_differences", .int(differing)),
            ("histories_stopped_at_rule_error", .object([("a", .int(stoppedA)), ("b", .int(stoppedB))])),
            ("differences", .array(differences.map(json(of:)))),
        ]
        fields.append(
            (
                "expectations",
                .array(
                    options.expectations.enumerated().map { k, expectation in
                        let broken = brokenExpectations.first { if case .expectation(k, _) = $0.kind { true } else { false } }
                        var e: [(String, JSONValue)] = [("expectation", .string(expectation.description)), ("holds", .bool(broken == nil))]
                        if !reach.isEmpty { e.append(("reached", RuleReach.json(reach))) }
                        if let broken { e.append(("counterexample", json(of: broken))) }
                        return .object(e)
                    })
            ))
        if !properties.isEmpty {
            fields.append(
                (
                    "properties",
                    .array(
                        properties.map { p in
                            var e: [(String, JSONValue)] = [
                                ("name", .string(p.name)), ("origin", .string(p.origin)), ("app", .string(p.app.rawValue)),
                                ("histories", .int(p.outcome.cases)), ("days", .int(p.days)), ("holds", .bool(p.holds)),
                            ]
                            if !p.reach.isEmpty { e.append(("reached", RuleReach.json(p.reach))) }
                            if let first = p.outcome.firstCase {
                                e += [
                                    ("broken_histories", .int(p.outcome.broken)), ("first_history", .int(first)),
                                    ("minimal", .bool(p.outcome.shrinkStopped == nil)), ("why", .string(p.outcome.message)),
                                    ("replay_file", propertyFiles[p.fileName].map { .string($0) } ?? .null),
                                    ("replay", .array(p.outcome.minimal.map { .string($0) })),
                                ]
                                for (side, explanation) in zip(["a", "b"], p.explanations) {
                                    e += explanation.jsonFields.map { ("\($0.0)_\(side)", $0.1) }
                                }
                            }
                            return .object(e)
                        })
                ))
        }
        if let economy { fields.append((EconomyField.section, json(of: economy, files: economyFiles))) }
        if let habits { fields.append((HabitField.section, json(of: habits, files: habitFiles))) }
        if let population { fields.append(("population", population.json)) }
        fields.append(("exit_code", .int(Int(exitCode))))
        return .object(fields)
    }

    /// A replayed half's JSON (`economy`, `habits`).
    private func json<Field>(of half: LineComparison<Field>.Result, files: [Field: String]) -> JSONValue {
        .object([
            ("histories", .int(half.histories)), ("days", .int(half.days)),
            ("histories_with_differences", .int(half.differing)),
            ("histories_with_rule_error", .object([("a", .int(half.ruleErrorsA)), ("b", .int(half.ruleErrorsB))])),
            (
                "differences",
                .array(
                    half.findings.map { f in
                        var e: [(String, JSONValue)] = [
                            ("kind", .string(f.field.rawValue)), ("histories", .int(f.histories)),
                            ("first_case", .int(f.firstCase)), ("setup_events", .int(f.setupCount)),
                            ("events_beyond_setup", .int(f.eventsBeyondSetup)), ("minimal", .bool(f.shrinkStopped == nil)),
                        ]
                        if let file = files[f.field] { e.append(("replay_file", .string(file))) }
                        e += [
                            (
                                "first_diverging_event",
                                .object([
                                    ("event_number", .int(f.firstEvent + 1)), ("event", Self.event(f.lines[f.firstEvent])),
                                    ("a", f.a), ("b", f.b),
                                    ("changes", .array(f.changes.map { .string($0) })),
                                ])
                            ),
                            ("replay", .array(f.lines.map { .string($0) })),
                        ]
                        return .object(e)
                    })
            ),
        ])
    }

    /// A replay line as a JSON object (its text when it cannot be read).
    static func event(_ line: String) -> JSONValue { (try? JSONLine.parseOrdered(line)) ?? .string(line) }

    private func json(of f: CompareFinding) -> JSONValue {
        func side(_ s: CompareFinding.Side?) -> JSONValue {
            guard let s else { return .null }
            var fields: [(String, JSONValue)] = [("before", .object(s.before)), ("after", .object(s.after))]
            fields.append(("refused", s.refused.map { .string($0) } ?? .null))
            return .object(fields)
        }
        var fields: [(String, JSONValue)] = [
            ("kind", .string(f.kind.description)), ("histories", .int(f.histories)),
            ("first_history", .string(f.original.origin)),
            ("shrunk_days", .int(f.history.days.count)),
            ("setup_events", .int(f.script.setupCount)),
            ("events_beyond_setup", .int(f.script.eventsBeyondSetup)),
            ("minimal", .bool(f.shrinkText == nil)),
            ("reproduced_by_engine", .bool(f.reproduced)),
        ]
        if let file = replayFiles[f.kind] { fields.append(("replay_file", .string(file))) }
        fields.append(
            (
                "days",
                .array(
                    f.history.days.enumerated().map { i, day in
                        .object([
                            ("day", .string(f.history.date(ofDay: i + 1).rawValue)), ("what", .string(day.text)),
                            ("a", .string(i < f.daysA.count ? f.daysA[i] : "-")), ("b", .string(i < f.daysB.count ? f.daysB[i] : "-")),
                        ])
                    })
            ))
        if let index = f.firstEvent {
            fields.append(
                (
                    "first_diverging_event",
                    .object([
                        ("event_number", .int(index + 1)), ("event", Self.event(f.script.lines[index])), ("a", side(f.a)), ("b", side(f.b)),
                    ])
                ))
        }
        fields.append(("replay", .array(f.script.lines.map { .string($0) })))
        for (side, explanation) in zip(["a", "b"], f.explanations) {
            fields += explanation.jsonFields.map { ("\($0.0)_\(side)", $0.1) }
        }
        return .object(fields)
    }
}
