import Foundation
import LuaHost

/// The bytes of every rule file a ``RuleSet`` was loaded from, by path: the handle through which a
/// set validated once is loaded again, in a new Lua state, without its proofs and without reading
/// its files again — so that what runs is what was validated, even when a file changes meanwhile.
/// `rulesrun watch` validates a cycle's set once and gives its snapshot to the tests
/// (`RuleTestRunner`) and to the simulation's workers (`SimulationConfig.validated`).
package struct RuleSnapshot: Sendable, Equatable {
    /// The rule folder, as it was given to `RuleSet.load` (under the ``WorkingFolder`` when that is set).
    package let path: String
    /// Each rule file read, its own and those it inherits, by the path it was read from.
    let contents: [String: [UInt8]]
    /// Those paths in the order they were read (each file's base before the file extending it).
    let order: [String]
    /// The knobs given other values (``KnobOverride``, `sweep --set`), applied again on each load.
    package let overrides: [KnobOverride]

    /// The contents of the files, as ``RuleSet/sourceContents(_:limits:)`` reads them from the
    /// folder (each file of the chain, nearest first, with its file name): what a digest of the rules covers.
    package var sourceContents: [(name: String, contents: Data)] {
        RuleSet.fileNames.flatMap { name in
            order.filter { ($0 as NSString).lastPathComponent == name }.reversed().map { (name, Data(contents[$0] ?? [])) }
        }
    }

    /// A new rule set from these contents (its own Lua state): the folder's chain is resolved
    /// again (its `extends` files), but no rule file is read and nothing is proved. Throws a
    /// `RuleSetError` when the chain now names a file the snapshot does not hold (an `extends`
    /// file edited since), or the error of loading the set.
    package func load(limits: LuaLimits = .default, randomSeed: Int64 = 0) throws -> RuleSet {
        try RuleSet.load(path, limits: limits, randomSeed: randomSeed, proving: false, overrides: overrides, snapshot: self)
    }

    /// The bytes read from `path`; throws when the snapshot does not hold it.
    func bytes(_ path: String) throws -> [UInt8] {
        guard let bytes = contents[path] else { throw NotValidated() }
        return bytes
    }

    /// A file the rule set did not have when it was validated.
    struct NotValidated: Error, CustomStringConvertible {
        var description: String { "not part of the rule set as it was validated (an `extends` file changed since); load the folder again" }
    }
}
