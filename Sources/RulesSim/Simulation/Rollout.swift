import RulesEngine

/// A staged rollout as a whole: a bundle's experiment, with each arm's rule set. `simulate` runs
/// each user under the arm the manifest assigns it (``BundleExperiment/armIndex(of:)``, as the
/// apps' ``BundledEngine`` does) and writes its exposure after its first event; `analyze` replays
/// each user of a log under the arm it was exposed to.
package struct Rollout: Sendable {
    /// The experiment as the signed manifest holds it (names, salt, buckets).
    package var experiment: BundleExperiment
    /// The bundle's revision (the exposures carry it).
    package var revision: Int
    /// The bundle file as the user named it (for reports).
    package var bundle: String
    /// Each arm's rule folder (unpacked from the bundle), in the experiment's order: the control first.
    package var folders: [String]
    /// Each arm's rule set as validated (`Simulation.init` fills it): the workers load these bytes.
    package var validated: [RuleSnapshot?]

    package init(experiment: BundleExperiment, revision: Int, bundle: String, folders: [String]) {
        precondition(folders.count == experiment.arms.count, "one rule folder per arm")
        self.experiment = experiment
        self.revision = revision
        self.bundle = bundle
        self.folders = folders
        validated = Array(repeating: nil, count: folders.count)
    }

    /// The arms' names, in order.
    package var armNames: [String] { experiment.arms.map(\.name) }

    /// The index of the arm of the user named `name`.
    package func arm(of name: String) -> Int { experiment.armIndex(of: name) }

    /// The exposure event of `user` to arm `arm` at `at`.
    package func exposure(user: String, arm: Int, at: Timestamp) -> EngineEvent {
        .exposure(user: user, at: at, experiment: experiment.name, arm: experiment.arms[arm].name, revision: revision)
    }
}
