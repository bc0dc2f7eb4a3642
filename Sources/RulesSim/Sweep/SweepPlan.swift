import LuaHost
import RulesEngine

/// The variants of a sweep: every combination of the knobs' values, or each knob moved alone
/// around the base rule set's values (`--one-at-a-time`), each a list of ``KnobOverride``.
package struct SweepPlan: Sendable {
    package enum Mode: String, Sendable {
        case combinations = "every combination"
        case oneAtATime = "one at a time"
    }

    /// One rule set to simulate: the knobs' values (the base's where it keeps them).
    package struct Variant: Sendable {
        /// Each knob's value in this variant.
        package var values: [LuaValue]
        /// Which knobs differ from the base's value (one at a time: at most one).
        package var moved: [Bool]
        package var overrides: [KnobOverride]
    }

    /// The most variants a sweep runs.
    package static let maxVariants = 1_000
    /// The most knobs a sweep moves.
    package static let maxKnobs = 8

    package var knobs: [SweepKnob]
    package var mode: Mode
    /// Each knob's value in the base rule set.
    package var baseValues: [LuaValue]
    /// In a stable order: combinations with the first knob changing slowest; one at a time, the
    /// base first, then each knob's values in the order given (its base value left out).
    package var variants: [Variant]

    /// Checks each knob against the base rule set (`modules`: what its files returned): a path
    /// it does not have or a value of another type is an error naming the `--set` argument.
    package init(knobs: [SweepKnob], mode: Mode, modules: [(name: String, value: LuaValue)]) throws(SweepError) {
        guard !knobs.isEmpty else { throw SweepError("give at least one knob to move: --set 'escalation.recover_after[3]=1..5'") }
        guard knobs.count <= Self.maxKnobs else { throw SweepError("\(knobs.count) --set, more than the \(Self.maxKnobs) a sweep takes") }
        var overrides: [[KnobOverride]] = []
        var baseValues: [LuaValue] = []
        for (i, knob) in knobs.enumerated() {
            if let earlier = knobs[..<i].first(where: { $0.path == knob.path }) {
                throw SweepError("--set '\(knob.argument)': the knob is already set by --set '\(earlier.argument)'")
            }
            var resolved: [KnobOverride] = []
            var base = LuaValue.nil
            for value in knob.values {
                do throws(KnobOverrideError) {
                    var override = try KnobOverride(path: knob.path, value: value)
                    let module = modules.first { $0.name == override.module }?.value ?? .nil
                    base = try override.resolve(in: module)
                    guard !resolved.contains(where: { $0.value == override.value }) else {
                        throw KnobOverrideError("\(SweepKnob.label(value)) is given twice")
                    }
                    resolved.append(override)
                } catch {
                    throw SweepError("--set '\(knob.argument)': \(error.message)")
                }
            }
            overrides.append(resolved)
            baseValues.append(base)
        }
        self.knobs = knobs
        self.mode = mode
        self.baseValues = baseValues
        var variants: [Variant] = []
        switch mode {
        case .combinations:
            let count = overrides.reduce(1.0) { $0 * Double($1.count) }
            guard count <= Double(Self.maxVariants) else {
                throw SweepError(
                    "\(overrides.map { String($0.count) }.joined(separator: " × ")) = \(Int(count)) variants, more than the \(Self.maxVariants) a sweep runs"
                )
            }
            var combinations: [[KnobOverride]] = [[]]
            for values in overrides { combinations = combinations.flatMap { prefix in values.map { prefix + [$0] } } }
            variants = combinations.map { set in
                Variant(values: set.map(\.value), moved: zip(set, baseValues).map { $0.value != $1 }, overrides: set)
            }
        case .oneAtATime:
            variants = [Variant(values: baseValues, moved: baseValues.map { _ in false }, overrides: [])]
            for (k, values) in overrides.enumerated() {
                for override in values where override.value != baseValues[k] {
                    var set = baseValues
                    set[k] = override.value
                    variants.append(Variant(values: set, moved: baseValues.indices.map { $0 == k }, overrides: [override]))
                }
            }
            guard variants.count <= Self.maxVariants else {
                throw SweepError("\(variants.count) variants, more than the \(Self.maxVariants) a sweep runs")
            }
        }
        self.variants = variants
    }
}
