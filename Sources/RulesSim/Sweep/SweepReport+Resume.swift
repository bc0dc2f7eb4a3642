import Foundation
import LuaHost
import RulesEngine
import RulesModel

extension SweepReport {
    /// The rows a JSON report of this sweep (`--out FILE --format json`, written by an earlier run,
    /// finished or stopped) holds for variants whose inputs are unchanged: same run, knobs,
    /// metrics and replicas (the report's `sweep` object but `finished`), and per variant the same
    /// `inputs_digest` (rule files, overrides, personas' files). Keyed by the variant's index in
    /// the plan. A refused variant is not read back (it is validated again: no simulation), nor a
    /// variant whose digest differs (`stale` counts them). Throws when the file is not such a report,
    /// or holds a number a sweep does not write (`checked`): a share's mean outside 0…1, or any
    /// number past ±2^53, which the tool would show and chart as if it had measured it.
    package static func finishedRows(
        in text: String, file: String, of sweep: Sweep
    ) throws(SweepError) -> (
        rows: [Int: SweepRow], stale: Int
    ) {
        func fail(_ why: String) -> SweepError {
            SweepError("--resume: \(file) \(why); remove it, or run without --resume")
        }
        let previous: JSONValue
        do throws(JSONLine.SyntaxError) { previous = try JSONLine.parseOrdered(text) } catch {
            throw fail("is not a JSON sweep report (\(error)); --resume reads the --format json report an earlier run wrote")
        }
        guard case .object(let head)? = previous["sweep"], case .array(let variants)? = previous["variants"] else {
            throw fail(
                "is not a JSON sweep report (no \"sweep\" and \"variants\"); --resume reads the --format json report an earlier run wrote")
        }
        guard case .object(let expected)? = SweepReport(sweep: sweep, rows: []).json["sweep"] else { return ([:], 0) }
        for (key, value) in expected where key != "finished" {
            let found = head.first { $0.0 == key }?.1
            guard found == value else {
                throw fail(
                    "is the report of another sweep: its \(key) is \(found?.description ?? "missing"), this one's \(value.description)")
            }
        }
        let n = sweep.replicas > 1 ? sweep.replicas : sweep.groups
        let method: Estimate.Method = sweep.replicas > 1 ? .replicas : .userGroups
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .double(let d)?: d
            case .int(let i)?: Double(i)
            default: nil
            }
        }
        // A number of `metric` read back (`what`: its mean, a bound, a difference) as a sweep writes
        // it: at most 2^53 either way and, for a share's mean or difference, within `share`.
        func checked(
            _ x: Double, _ metric: Metric, _ what: String, of variant: SweepPlan.Variant, share: ClosedRange<Double>? = nil
        ) throws(SweepError) -> Double {
            let any = -WholeNumber.maxExact...WholeNumber.maxExact
            let range = metric.isShare ? share ?? any : any
            guard range.contains(x) else {
                let expected = range.upperBound == 1 ? "a share: \(WholeNumber.text(range.lowerBound)) to 1" : "at most 2^53 either way"
                let values = zip(sweep.plan.knobs, variant.values).map { "\($0.path) = \(SweepKnob.label($1))" }.joined(separator: ", ")
                throw fail(
                    "has \(metric.label) \(what) \(WholeNumber.text(x)) for the variant \(values), "
                        + "which no sweep writes (\(expected))")
            }
            return x
        }
        var rows: [Int: SweepRow] = [:]
        var stale = 0
        for variant in variants {
            guard case .object(let knobs)? = variant["knobs"], case .object? = variant["metrics"],
                case .string(let digest)? = variant["inputs_digest"], case .int(let refused)? = variant["refused_events"]
            else { continue }
            guard
                let index = sweep.plan.variants.firstIndex(where: { planned in
                    knobs.count == planned.values.count
                        && zip(sweep.plan.knobs, planned.values).allSatisfy { knob, value in
                            knobs.first { $0.0 == knob.path }?.1 == Self.jsonValue(value)
                        }
                })
            else { continue }
            let planned = sweep.plan.variants[index]
            guard digest == sweep.digest(planned) else {
                stale += 1
                continue
            }
            // A variant's (or one of its personas') estimates and differences, by metric (`optional`: a
            // metric it has no value of is nil, else an error).
            func read(_ object: JSONValue, optional: Bool) throws(SweepError) -> (estimates: [Estimate?], differences: [Estimate?]) {
                var estimates: [Estimate?] = [], differences: [Estimate?] = []
                for metric in sweep.metrics {
                    guard let read = number(object["metrics"]?[metric.label]) else {
                        if optional {
                            estimates.append(nil)
                            differences.append(nil)
                            continue
                        }
                        throw fail("has no \(metric.label) for a variant")
                    }
                    let mean = try checked(read, metric, "mean", of: planned, share: 0...1)
                    let interval = object["intervals"]?[metric.label]
                    let estimate: Estimate
                    if let low = number(interval?["low"]), let high = number(interval?["high"]) {
                        let (low, high) = (
                            try checked(low, metric, "interval low", of: planned), try checked(high, metric, "interval high", of: planned)
                        )
                        estimate = Estimate(mean: mean, low: low, high: high, n: n, method: method)
                    } else {
                        estimate = Estimate(mean: mean, low: mean, high: mean, n: 1, method: .single)
                    }
                    estimates.append(estimate)
                    let vs = object["vs_base"]?[metric.label]
                    if let read = number(vs?["delta"]) {
                        let delta = try checked(read, metric, "difference to the base", of: planned, share: -1...1)
                        if let low = number(vs?["low"]), let high = number(vs?["high"]) {
                            let (low, high) = (
                                try checked(low, metric, "interval low", of: planned),
                                try checked(high, metric, "interval high", of: planned)
                            )
                            differences.append(Estimate(mean: delta, low: low, high: high, n: n, method: method))
                        } else {
                            differences.append(Estimate(mean: delta, low: delta, high: delta, n: 1, method: .single))
                        }
                    } else {
                        // The base: no difference to itself (an interval of zeros where the metric has one).
                        let single = estimate.n < 2
                        differences.append(Estimate(mean: 0, low: 0, high: 0, n: single ? 1 : n, method: single ? .single : method))
                    }
                }
                return (estimates, differences)
            }
            let cohort = try read(variant, optional: false)
            var row = SweepRow(
                variant: planned,
                outcome: .ran(cohort.estimates.map { $0! }, differences: cohort.differences.map { $0! }, refused: refused),
                digest: digest)
            if sweep.segments {
                // Each persona's, in the mix's order.
                guard case .array(let segments)? = variant["segments"],
                    segments.map({ $0["persona"] }) == sweep.personaNames.map({ .string($0) })
                else { throw fail("has no segments of the personas \(sweep.personaNames.joined(separator: ", ")) for a variant") }
                for segment in segments {
                    guard case .string(let persona)? = segment["persona"], case .int(let users)? = segment["users"] else { continue }
                    let read = try read(segment, optional: true)
                    row.segments.append(.init(persona: persona, users: users, estimates: read.estimates, differences: read.differences))
                }
            }
            rows[index] = row
        }
        return (rows, stale)
    }
}
