import Foundation
import LuaHost
import RulesModel

/// What differs between two rule bundles (`rulesrun bundle diff A B`; docs/bundles.md), as someone
/// reviewing a rollout reads it: the manifest's fields, the files, and in the rules the knobs (every
/// value of the tables the rule files return, by the path `sweep --set` takes:
/// `pricing.credit_costs[2].credits`), the params the files declare (`M.params`) and the functions
/// whose source differs. Each bundle's rules are loaded as an engine loads them (unpacked, no
/// proofs); the signatures are not checked (``RuleBundle/readWithoutVerifying(_:source:)``).
package struct BundleDiff: Sendable {
    /// A field of the manifest that differs, by its path in the manifest's JSON (`revision`,
    /// `tests.passed`, `experiment.arms`; `signature.key`: the key the bundle says signed it);
    /// null where a manifest lacks it.
    package struct Field: Sendable {
        package var name: String
        package var a: JSONValue
        package var b: JSONValue
    }

    /// A file of one bundle that the other does not hold with the same bytes at the same path.
    package struct File: Sendable {
        package enum Change: String, Sendable {
            /// At the same path in both, other bytes.
            case changed
            /// The same bytes at another path (`pricing.lua` → `base/pricing.lua`).
            case moved
            case added, removed
        }

        package var change: Change
        /// The file in A (nil when added) and in B (nil when removed).
        package var a: BundleManifest.File?
        package var b: BundleManifest.File?
        /// An added file that holds the same bytes as a file of A (this is its path), or a removed
        /// one that holds the same bytes as a file of B.
        package var sameAs: String?

        package var path: String { (b ?? a)!.path }
    }

    /// A knob whose value differs: nil where a bundle does not have it.
    package struct Knob: Sendable {
        package var path: String
        package var a: LuaValue?
        package var b: LuaValue?
    }

    /// A declared param that differs (its type, range, values, default or doc): nil where a bundle
    /// does not declare it. `path` is its field's: `pricing.params.night_surcharge`.
    package struct Param: Sendable {
        package var path: String
        package var a: RuleParams.Param?
        package var b: RuleParams.Param?
    }

    /// A function of a file's table whose source differs, by its path (`pricing.price`,
    /// `streaks.pressure.next`): nil where a bundle does not have it.
    package struct Function: Sendable {
        package var name: String
        package var a: Location?
        package var b: Location?
    }

    /// Where a function is defined: the file's path in the bundle and the lines from its
    /// `function` keyword to its `end`.
    package struct Location: Sendable, Equatable, CustomStringConvertible {
        package var file: String
        package var lines: ClosedRange<Int>

        package var description: String { "\(file):\(lines.lowerBound)-\(lines.upperBound)" }
    }

    package var manifest: [Field]
    package var files: [File]
    package var knobs: [Knob]
    package var params: [Param]
    package var functions: [Function]

    /// Whether the bundles hold the same rules: the same files at the same paths, byte for byte
    /// (whatever their revisions, creation times or signers).
    package var sameRules: Bool { files.isEmpty }

    /// Compares bundle `a` with bundle `b` (`sourceA` and `sourceB` name them in messages). Throws
    /// when a bundle's rules do not load (naming the bundle, with every problem) or cannot be
    /// unpacked.
    package init(_ a: RuleBundle, source sourceA: String, _ b: RuleBundle, source sourceB: String) throws(BundleError) {
        manifest = Self.fields(a.manifest, signer: a.signer, b.manifest, signer: b.signer)
        files = Self.files(a.manifest.files, b.manifest.files)
        let rulesA = try Rules(a, source: sourceA), rulesB = try Rules(b, source: sourceB)
        knobs = []
        params = []
        functions = []
        let (knobsA, knobsB) = (rulesA.knobsByPath, rulesB.knobsByPath)
        let (paramsA, paramsB) = (rulesA.paramsByPath, rulesB.paramsByPath)
        let (functionsA, functionsB) = (rulesA.functionsByName, rulesB.functionsByName)
        for module in RuleSet.fileNames.map({ String($0.dropLast(".lua".count)) }) {
            for path in Self.union(rulesA.knobs, rulesB.knobs, module: module) where knobsA[path] != knobsB[path] {
                knobs.append(Knob(path: path, a: knobsA[path], b: knobsB[path]))
            }
            for path in Self.union(rulesA.params, rulesB.params, module: module) where paramsA[path] != paramsB[path] {
                params.append(Param(path: path, a: paramsA[path], b: paramsB[path]))
            }
            for name in Self.union(rulesA.functions, rulesB.functions, module: module)
            where functionsA[name]?.text != functionsB[name]?.text {
                functions.append(Function(name: name, a: functionsA[name]?.location, b: functionsB[name]?.location))
            }
        }
    }

    /// The paths of `module` (`pricing.…`) in A's order, then those only B has, in B's.
    private static func union<T>(_ a: [(String, T)], _ b: [(String, T)], module: String) -> [String] {
        var seen: Set<String> = []
        return (a.map(\.0) + b.map(\.0)).filter { path in
            (path.hasPrefix(module + ".") || path.hasPrefix(module + "[")) && seen.insert(path).inserted
        }
    }

    // MARK: The manifests and the files

    /// The fields of the manifests that differ (their files aside: ``files(_:_:)``), then the signers.
    static func fields(_ a: BundleManifest, signer signerA: String, _ b: BundleManifest, signer signerB: String) -> [Field] {
        func flat(_ value: JSONValue, _ path: String, into out: inout [(String, JSONValue)]) {
            guard case .object(let members) = value else { return out.append((path, value)) }
            for (key, member) in members where path.isEmpty ? key != "files" : true {
                flat(member, path.isEmpty ? key : "\(path).\(key)", into: &out)
            }
        }
        var x: [(String, JSONValue)] = [], y: [(String, JSONValue)] = []
        flat(a.json, "", into: &x)
        flat(b.json, "", into: &y)
        x.append(("signature.key", .string(signerA)))
        y.append(("signature.key", .string(signerB)))
        // By name: a field only one manifest has (`experiment`) is null in the other.
        let (inA, inB) = (Dictionary(x, uniquingKeysWith: { v, _ in v }), Dictionary(y, uniquingKeysWith: { v, _ in v }))
        return (x + y.filter { inA[$0.0] == nil }).compactMap { name, _ in
            let (a, b) = (inA[name] ?? .null, inB[name] ?? .null)
            return a == b ? nil : Field(name: name, a: a, b: b)
        }
    }

    /// The files that differ: changed (same path), moved (same bytes at another path), removed,
    /// then added (each noting a file of the other bundle that holds the same bytes).
    static func files(_ a: [BundleManifest.File], _ b: [BundleManifest.File]) -> [File] {
        var changed: [File] = [], removed: [File] = []
        var added = b.filter { file in !a.contains { $0.path == file.path } }
        for file in a {
            if let other = b.first(where: { $0.path == file.path }) {
                if other.sha256 != file.sha256 { changed.append(File(change: .changed, a: file, b: other)) }
            } else if let i = added.firstIndex(where: { $0.sha256 == file.sha256 }) {
                changed.append(File(change: .moved, a: file, b: added.remove(at: i)))
            } else {
                removed.append(File(change: .removed, a: file, sameAs: b.first { $0.sha256 == file.sha256 }?.path))
            }
        }
        return changed + removed + added.map { file in File(change: .added, b: file, sameAs: a.first { $0.sha256 == file.sha256 }?.path) }
    }

    // MARK: The rules

    /// A bundle's rules as the diff compares them: each knob, declared param and function of the
    /// tables the rule files return, by path, in the order of the files and of their keys.
    struct Rules {
        var knobs: [(String, LuaValue)] = []
        var params: [(String, RuleParams.Param)] = []
        var functions: [(String, (location: Location, text: String))] = []

        /// The deepest table a knob is looked for in; a deeper one is compared whole.
        static let maxDepth = 32

        init(_ bundle: RuleBundle, source: String) throws(BundleError) {
            do {
                try bundle.withUnpacked { folder in
                    let rules = try RuleSet.load(folder.path, proving: false)
                    let declared = [
                        rules.escalation.params, rules.streaks.params, rules.pricing.params, rules.quests.params, rules.modes.params,
                    ]
                    for (fileName, declared) in zip(RuleSet.fileNames, declared) {
                        for param in declared.params {
                            var path = String(fileName.dropLast(".lua".count)) + "." + "params"
                            LuaPath.append(param.key, to: &path)
                            params.append((path, param))
                        }
                    }
                    var found: [(String, LuaFunction)] = []
                    for (name, value) in rules.modules {
                        for (key, member) in value.tableValue?.sortedEntries ?? [] where key != "params" {
                            var path = name
                            LuaPath.append(key, to: &path)
                            Self.walk(member, path: path, depth: 1, knobs: &knobs, functions: &found)
                        }
                    }
                    let texts = Dictionary(bundle.files.map { ($0.path, String(decoding: $0.bytes, as: UTF8.self)) }) { x, _ in x }
                    var spans: [String: [LuaFunctionSpan]] = [:]
                    for (path, function) in found {
                        let file = Self.bundlePath(ofChunk: function.source)
                        let text = texts[file] ?? ""
                        if spans[file] == nil { spans[file] = LuaFunctionSpan.spans(in: text) }
                        let lines = spans[file]!.first { $0.lines.lowerBound == function.line }?.lines ?? function.line...function.line
                        let source = text.split(separator: "\n", omittingEmptySubsequences: false)
                            .dropFirst(lines.lowerBound - 1).prefix(lines.count).joined(separator: "\n")
                        functions.append((path, (Location(file: file, lines: lines), source)))
                    }
                }
            } catch let error as RuleSetError {
                throw BundleError(source, "the bundle's rules do not load:\n\(error)")
            } catch {
                throw BundleError(source, "cannot unpack the bundle to load its rules: \(error)")
            }
        }

        /// The leaves of `value` at `path`: scalars and empty tables are knobs, functions functions.
        static func walk(
            _ value: LuaValue, path: String, depth: Int, knobs: inout [(String, LuaValue)], functions: inout [(String, LuaFunction)]
        ) {
            switch value {
            case .function(let function): functions.append((path, function))
            case .table(let table) where !table.isEmpty && depth < maxDepth:
                for (key, member) in table.sortedEntries {
                    var inner = path
                    LuaPath.append(key, to: &inner)
                    walk(member, path: inner, depth: depth + 1, knobs: &knobs, functions: &functions)
                }
            default: knobs.append((path, value))
            }
        }

        /// A file's path in the bundle from its chunk name in the unpacked folders (``RuleBundle/unpack(into:)``):
        /// `pricing.lua` is the top level's, `2/pricing.lua` is `base/base/pricing.lua`.
        static func bundlePath(ofChunk chunk: String) -> String {
            let parts = chunk.split(separator: "/", maxSplits: 1)
            guard parts.count == 2, let level = Int(parts[0]) else { return chunk }
            return String(repeating: "base/", count: level) + parts[1]
        }

        /// Each by its path (the first, should two paths read the same: keys that are tables).
        var knobsByPath: [String: LuaValue] { Dictionary(knobs) { x, _ in x } }
        var paramsByPath: [String: RuleParams.Param] { Dictionary(params) { x, _ in x } }
        var functionsByName: [String: (location: Location, text: String)] { Dictionary(functions) { x, _ in x } }
    }
}
