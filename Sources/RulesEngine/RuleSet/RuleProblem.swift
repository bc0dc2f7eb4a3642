import LuaHost

/// One problem of a rule set, as `file:line: message` (file relative to the rule folder).
public struct RuleProblem: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    /// The knob the problem is about, as a rule author writes it (`habit.day_starts_at`), when it is one.
    public var field: String?

    package init(file: String, line: Int? = nil, message: String, field: String? = nil) {
        self.file = file
        self.line = line
        self.message = message
        self.field = field
    }

    /// `problems` in the order of their lines (those without a line last), as found otherwise: a
    /// file's problems read top to bottom, whichever check found them.
    package static func inLineOrder(_ problems: [RuleProblem]) -> [RuleProblem] {
        problems.enumerated().sorted { a, b in (a.element.line ?? .max, a.offset) < (b.element.line ?? .max, b.offset) }.map(\.element)
    }

    /// The problems of `checks` that do not follow from another problem: none about a field that
    /// did not decode (`decoding`), and only those that `recheck` finds again with the other fields
    /// reported, bad or failing their checks, set to either set of placeholders (it decodes with
    /// those fields set aside and runs the checks again). So a check depending on a reported field
    /// (`tier_for_misses: needs one entry per tier 1…1` when max_tier = 0 is reported) is left out,
    /// and one that judges its own field alone is kept whatever the others hold. The elements of
    /// one list are judged together: each out of order in `{ 3, 2, 1 }` is a problem.
    package static func leavingOutKnockOns(
        _ checks: [RuleProblem], decoding: [RuleProblem], recheck: (LuaPlaceholderSet, Set<String>) -> [RuleProblem]
    ) -> [RuleProblem] {
        let reported = Set(checks.compactMap(\.field))
        var rechecked: [Set<String>: [[RuleProblem]]] = [:]
        return checks.filter { problem in
            if decoding.contains(where: { bad in bad.field.map { problem.overlaps($0) } ?? true }) { return false }
            let others = reported.filter { !problem.overlaps($0) && !problem.isElementOfTheSameList(as: $0) }
            if others.isEmpty && decoding.isEmpty { return true }
            if rechecked[others] == nil { rechecked[others] = [recheck(.first, others), recheck(.second, others)] }
            return rechecked[others]!.allSatisfy { $0.contains(problem) }
        }
    }

    /// Whether this problem's field and `other` are elements of one list (`tiers[2]`, `tiers[3]`).
    func isElementOfTheSameList(as other: String) -> Bool {
        guard let field, let a = LuaPath.keys(of: field), let b = LuaPath.keys(of: other), a.count == b.count,
            case .integer? = a.last, case .integer? = b.last
        else { return false }
        return a.dropLast() == b.dropLast()
    }

    /// Whether this problem is about `other`'s field, a field inside it or one containing it.
    func overlaps(_ other: String) -> Bool {
        guard let field else { return false }
        return LuaPath.isWithin(field, other) || LuaPath.isWithin(other, field)
    }

    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}

/// A rule set that was not accepted, with every problem found (not just the first).
public struct RuleSetError: Error, CustomStringConvertible, Sendable {
    public var problems: [RuleProblem]

    package init(problems: [RuleProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
