import Foundation
import LuaHost
import RulesEngine

/// One `--set` of a sweep: a knob and the values it takes, `escalation.recover_after[3]=1..5`.
package struct SweepKnob: Sendable, Equatable {
    /// The most values one knob takes.
    package static let maxValues = 100

    /// The argument as given (messages name it).
    package var argument: String
    /// The knob's path, `escalation.recover_after[3]`.
    package var path: String
    package var values: [LuaValue]

    /// Reads `path=values`: the values are a list `a,b,c`, an integer range `a..b` (step 1) or
    /// `a..b/step`, or one value; each an integer, a number (`0.5`), `true`, `false` or a string
    /// (`"5"` in quotes for a string that reads as a number; no commas inside).
    package init(_ argument: String) throws(SweepError) {
        self.argument = argument
        func fail(_ why: String) -> SweepError { SweepError("--set '\(argument)': \(why)") }
        guard let equals = argument.firstIndex(of: "=") else {
            throw fail("expected knob=values, e.g. escalation.recover_after[3]=1..5 or pricing.credit_costs[1].credits=5,10,15")
        }
        path = argument[..<equals].trimmingCharacters(in: .whitespaces)
        let text = argument[argument.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        do throws(KnobOverrideError) {
            _ = try KnobOverride(path: path, value: .integer(0))
        } catch {
            throw fail(error.message)
        }
        guard !text.isEmpty else { throw fail("no values after '='") }
        if let range = text.range(of: "..") {
            let low = text[..<range.lowerBound], rest = text[range.upperBound...]
            let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let a = Int64(low.trimmingCharacters(in: .whitespaces)), let b = Int64(parts[0].trimmingCharacters(in: .whitespaces))
            else {
                throw fail("a range is a..b or a..b/step with whole numbers, found \"\(text)\"")
            }
            var step: Int64 = 1
            if parts.count == 2 {
                guard let s = Int64(parts[1].trimmingCharacters(in: .whitespaces)), s > 0 else {
                    throw fail("the step of a range is a whole number above 0, found \"\(parts[1])\"")
                }
                step = s
            }
            guard a <= b else { throw fail("the range \(a)..\(b) is empty (its first value is above its last)") }
            let (span, overflow) = b.subtractingReportingOverflow(a)
            guard !overflow, span / step < Int64(Self.maxValues) else {
                throw fail("more than \(Self.maxValues) values (a knob takes at most \(Self.maxValues))")
            }
            values = stride(from: a, through: b, by: Int(step)).map { .integer($0) }
        } else {
            let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard items.count <= Self.maxValues else { throw fail("\(items.count) values, more than the \(Self.maxValues) a knob takes") }
            values = []
            for item in items {
                guard !item.isEmpty else { throw fail("an empty value in \"\(text)\"") }
                let value = Self.value(item)
                guard !values.contains(value) else { throw fail("\(item) is given twice") }
                values.append(value)
            }
        }
    }

    /// A value as written: an integer, a finite number, a boolean, a string (quoted or not).
    static func value(_ item: String) -> LuaValue {
        if let i = Int64(item) { return .integer(i) }
        if let d = Double(item), d.isFinite, item.contains(where: { $0.isNumber }) { return .number(d) }
        if item == "true" || item == "false" { return .boolean(item == "true") }
        if item.count >= 2, item.hasPrefix("\""), item.hasSuffix("\"") { return .string(String(item.dropFirst().dropLast())) }
        return .string(item)
    }

    /// A value as a column shows it: strings without quotes.
    package static func label(_ value: LuaValue) -> String {
        if case .string(let s) = value { return s }
        return value.description
    }
}
