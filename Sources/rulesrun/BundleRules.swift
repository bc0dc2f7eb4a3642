import ArgumentParser
import Foundation
import LuaHost
import RulesEngine
import RulesSim
import Synchronization

/// The rules of a bundle where a command takes a rule folder (`simulate --rules FILE.bundle`,
/// `compare A.bundle B.bundle#fast`), so that what ships is what was simulated: the bundle is
/// read with every check but its signature's (`bundle verify` checks that), and the rule set of
/// the arm named after `#` is unpacked once into the user's cache. A bundle with an experiment
/// needs the arm named; one without takes none.
enum BundleRules {
    /// `path` itself when it names no file (a folder, `@default`, a path that does not exist:
    /// the command says so), else the folder of the bundle's arm. A bundle with an experiment and
    /// no arm named is refused, unless `rollout`: then its control's folder, and ``rollout(of:)``
    /// gives the whole rollout for it.
    static func folder(_ path: String, rollout allowed: Bool = false) throws -> String {
        let (file, arm) = split(path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: WorkingFolder.resolve(file), isDirectory: &isFolder), !isFolder.boolValue else {
            if arm != nil, !FileManager.default.fileExists(atPath: WorkingFolder.resolve(path)) {
                throw ValidationError("\(file): no such bundle file (\(path) names an arm of a bundle)")
            }
            return path
        }
        do {
            let bundle = try BundleFile.readUnverifiedBundle(file)
            if arm == nil, let experiment = bundle.manifest.experiment {
                guard allowed else {
                    // Not the control in silence: the rollout as a whole is not one rule set.
                    let arms = experiment.arms.map(\.name)
                    throw ValidationError(
                        "\(file): runs experiment \(experiment.name) with arms \(arms.joined(separator: ", ")): name the arm's rules, "
                            + arms.map { "\(file)#\($0)" }.joined(separator: " or "))
                }
                let folders = try experiment.arms.indices.map { try bundle.cachedFolder(arm: $0, rollout: true).path }
                let rollout = Rollout(experiment: experiment, revision: bundle.manifest.revision, bundle: path, folders: folders)
                given.withLock {
                    $0.names[folders[0]] = path
                    $0.rollouts[folders[0]] = rollout
                }
                return folders[0]
            }
            let folder = try bundle.cachedFolder(arm: try bundle.armIndex(arm)).path
            given.withLock { $0.names[folder] = path }
            return folder
        } catch let error as BundleError {
            throw ValidationError("\(file): \(error.message)")
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(file): cannot unpack its rules: \(error)")
        }
    }

    /// The rollout whose control's rules are at `folder` (a bundle with an experiment given
    /// without an arm to a command that runs rollouts), nil for any other folder.
    static func rollout(of folder: String) -> Rollout? { given.withLock { $0.rollouts[folder] } }

    /// Refuses a rollout where a command runs one rule set (the message lists the arms to name).
    static func refuseRollout(_ folder: String) throws {
        guard let rollout = rollout(of: folder) else { return }
        let file = split(rollout.bundle).file
        throw ValidationError(
            "\(file): runs experiment \(rollout.experiment.name) with arms \(rollout.armNames.joined(separator: ", ")): name the arm's rules, "
                + rollout.armNames.map { "\(file)#\($0)" }.joined(separator: " or "))
    }

    /// What the user named the rules at `folder`: a bundle's `FILE#ARM` for the folder it was
    /// unpacked in, else `folder` itself (for reports: `"rules": "rollout.bundle#fast"`).
    static func shown(_ folder: String) -> String { given.withLock { $0.names[folder] } ?? folder }

    /// The bundles named in this process, by the folder of their rules (a rollout's: its control's).
    private static let given = Mutex<(names: [String: String], rollouts: [String: Rollout])>(([:], [:]))

    /// `FILE#ARM` as the file and the arm; a path without `#` as itself and nil.
    static func split(_ path: String) -> (file: String, arm: String?) {
        guard let hash = path.lastIndex(of: "#") else { return (path, nil) }
        return (String(path[..<hash]), String(path[path.index(after: hash)...]))
    }
}
