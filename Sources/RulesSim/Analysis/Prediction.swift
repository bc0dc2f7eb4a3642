import Foundation
import RulesEngine
import RulesModel

/// What the simulation predicted for a rollout, per metric (`analyze --prediction FILE`): the
/// difference of an arm from the control with its 95 % interval, read from a `compare --json`
/// report (its population half: B − A, for the first arm after the control) or from the JSON
/// report of `simulate` run on the bundle (its `arms`: each arm's value and interval; the
/// difference's interval from the two, independent groups of users). A total is per user, as
/// `analyze` compares it.
package struct Prediction: Sendable {
    /// The file, as named.
    package var source: String
    /// By metric id, by arm (the treatment's name, or nil: the first arm after the control),
    /// the predicted difference and its standard error.
    package var differences: [String: [String?: (point: Double, standardError: Double)]]

    /// The largest report read (as `merge` reads simulate's).
    package static let maxBytes = 128 << 20

    package init(json data: Data, source: String) throws(AnalysisError) {
        self.source = source
        guard data.count <= Self.maxBytes else { throw AnalysisError("\(source): larger than \(Self.maxBytes) bytes") }
        let object: JSONValue
        do {
            object = try JSONLine.parse(utf8: [UInt8](data), firstIndex: 0)
            guard object.isObject else { throw AnalysisError("") }
        } catch {
            throw AnalysisError("\(source): expected the JSON report of `rulesrun compare --json` or `rulesrun simulate --format json`")
        }
        /// A number, whole or not.
        func number(_ value: JSONValue?) -> Double? {
            switch value {
            case .int(let n)?: Double(n)
            case .double(let x)?: x
            default: nil
            }
        }
        let z = Distribution.normalQuantile(0.975)
        differences = [:]
        if let population = object["population"] {
            let users = number(population["users"]) ?? 0
            guard case .array(let metrics)? = population["metrics"] else {
                throw AnalysisError("\(source): population.metrics: expected an array (a `compare --json` report)")
            }
            for (i, m) in metrics.enumerated() {
                guard case .string(let name)? = m["name"], let metric = MetricRegistry.metric(named: name) else { continue }
                guard let delta = number(m["delta"]) else {
                    throw AnalysisError("\(source): population.metrics[\(i)].delta: expected a number")
                }
                let scale = metric.kind == .total && users > 0 ? 1 / users : 1
                let se = number(m["delta_low"]).flatMap { low in number(m["delta_high"]).map { ($0 - low) / (2 * z) } } ?? 0
                differences[metric.id, default: [:]][nil] = (delta * scale, se * scale)
            }
        } else if case .array(let arms)? = object["arms"]?["arms"], arms.count >= 2 {
            func estimate(_ arm: JSONValue, _ id: String, _ total: Bool) -> (Double, Double)? {
                guard let e = arm["metrics"]?[id], let v = number(e["value"]), let low = number(e["low"]), let high = number(e["high"])
                else { return nil }
                let scale = total ? 1 / max(1, number(arm["users"]) ?? 1) : 1
                return (v * scale, (high - low) / (2 * z) * scale)
            }
            // Every metric of the control's, the team's among them (`team_metrics`).
            guard case .object(let controlMetrics)? = arms[0]["metrics"] else {
                throw AnalysisError("\(source): arms.arms[0].metrics: expected an object of metrics")
            }
            for id in controlMetrics.map(\.0).sorted() {
                let total = MetricRegistry.all.first { $0.id == id }?.kind == .total
                guard let control = estimate(arms[0], id, total) else { continue }
                for arm in arms.dropFirst() {
                    guard case .string(let name)? = arm["arm"], let b = estimate(arm, id, total) else { continue }
                    differences[id, default: [:]][name] = (b.0 - control.0, (b.1 * b.1 + control.1 * control.1).squareRoot())
                }
            }
        } else {
            throw AnalysisError(
                "\(source): expected the JSON report of `rulesrun compare --json` (with its population half) or of "
                    + "`rulesrun simulate --rules FILE.bundle --format json` (with its arms)")
        }
        guard !differences.isEmpty else { throw AnalysisError("\(source): no metric of the registry in it") }
    }

    /// The predicted difference of `arm` (the `index`-th after the control) for `metric`.
    package func difference(_ metric: Metric, arm: String, index: Int) -> (point: Double, standardError: Double)? {
        differences[metric.id]?[arm] ?? (index == 0 ? differences[metric.id]?[nil] : nil)
    }

    /// Whether an observed difference agrees with the predicted one: their gap is within what
    /// the two standard errors allow at 95 % (|observed − predicted| ≤ 1.96 √(se² + se²)).
    package static func agrees(
        observed: ArmComparison.Interval, predicted: (point: Double, standardError: Double)
    ) -> Bool {
        let se = (observed.standardError * observed.standardError + predicted.standardError * predicted.standardError).squareRoot()
        return abs(observed.point - predicted.point) <= Distribution.normalQuantile(0.975) * se
    }
}
