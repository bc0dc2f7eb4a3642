import Foundation
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
        let object: [String: Any]
        do {
            guard let value = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw AnalysisError("") }
            object = value
        } catch {
            throw AnalysisError("\(source): expected the JSON report of `rulesrun compare --json` or `rulesrun simulate --format json`")
        }
        let z = Distribution.normalQuantile(0.975)
        differences = [:]
        if let population = object["population"] as? [String: Any] {
            let users = Double(population["users"] as? Int ?? 0)
            guard let metrics = population["metrics"] as? [[String: Any]] else {
                throw AnalysisError("\(source): population.metrics: expected an array (a `compare --json` report)")
            }
            for (i, m) in metrics.enumerated() {
                guard let name = m["name"] as? String, let metric = MetricRegistry.metric(named: name) else { continue }
                guard let delta = m["delta"] as? Double else {
                    throw AnalysisError("\(source): population.metrics[\(i)].delta: expected a number")
                }
                let scale = metric.kind == .total && users > 0 ? 1 / users : 1
                let se = (m["delta_low"] as? Double).flatMap { low in (m["delta_high"] as? Double).map { ($0 - low) / (2 * z) } } ?? 0
                differences[metric.id, default: [:]][nil] = (delta * scale, se * scale)
            }
        } else if let arms = (object["arms"] as? [String: Any])?["arms"] as? [[String: Any]], arms.count >= 2 {
            func estimate(_ arm: [String: Any], _ id: String, _ total: Bool) -> (Double, Double)? {
                guard let e = (arm["metrics"] as? [String: Any])?[id] as? [String: Any], let v = e["value"] as? Double,
                    let low = e["low"] as? Double, let high = e["high"] as? Double
                else { return nil }
                let scale = total ? 1 / Double(max(1, arm["users"] as? Int ?? 1)) : 1
                return (v * scale, (high - low) / (2 * z) * scale)
            }
            // Every metric of the control's, the team's among them (`team_metrics`).
            let ids = ((arms[0]["metrics"] as? [String: Any])?.keys).map { $0.sorted() } ?? []
            for id in ids {
                let total = MetricRegistry.all.first { $0.id == id }?.kind == .total
                guard let control = estimate(arms[0], id, total) else { continue }
                for arm in arms.dropFirst() {
                    guard let name = arm["arm"] as? String, let b = estimate(arm, id, total) else { continue }
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
