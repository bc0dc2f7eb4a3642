import Foundation
import LuaHost

/// One loaded rule file: the table it returned, and its source map for messages.
struct RuleFile {
    let name: String
    var value: LuaValue
    let sourceMap: LuaSourceMap
    /// The files it extends (the same file of the folders its `extends` names), nearest first.
    var baseMaps: [(name: String, map: LuaSourceMap)] = []
    /// What each of them returned, before the file extending it could change it (nearest first).
    var baseValues: [LuaValue] = []
    /// The text of the file, then of those it extends (nearest first).
    var texts: [String] = []
    /// The knobs `--set` gave other values (``KnobOverride``), as paths in the file's table.
    var overridden: [String] = []

    /// The chunk name of the layer that writes a rule set's knob overrides (``KnobOverride``).
    static let overrideChunkName = "--set"

    /// Loads `name` from the rule sources; nil (with the problem recorded) when it is missing or fails.
    /// `overrides` (knobs of this file) are written into the table it returned before it is frozen;
    /// `read` reads a file's bytes from its path (at most the host's `maxSourceBytes`).
    static func load(
        _ fileName: String, from sources: RuleSources, host: LuaHost, overrides: [KnobOverride] = [], problems: inout [RuleProblem],
        read: (_ path: String, _ chunkName: String) throws -> [UInt8]
    ) -> RuleFile? {
        let found = sources.locateAll(fileName)
        guard let name = found.first?.chunkName else {
            problems.append(
                RuleProblem(
                    file: fileName, message: "missing: a rule set needs this file (or an `extends` file naming a folder that has it)"))
            return nil
        }
        // The size is checked before reading; a directory or a device is named for what it is.
        var layers: [(bytes: [UInt8], chunkName: String)] = []
        for file in found.reversed() {
            do {
                layers.append((try read(file.url.path, file.chunkName), file.chunkName))
            } catch {
                problems.append(RuleProblem(file: file.chunkName, message: "\(error)"))
                return nil
            }
        }
        let texts = layers.reversed().map { String(decoding: $0.bytes, as: UTF8.self) }
        let maps = zip(layers.reversed(), texts).map { ($0.0.chunkName, LuaSourceMap(source: $0.1)) }
        var file = RuleFile(name: name, value: .nil, sourceMap: maps[0].1, baseMaps: Array(maps.dropFirst()))
        file.texts = texts
        do {
            var bases: [LuaValue] = []
            // The overrides are one more layer, whose `base` is what the file returned.
            let overrideLayer =
                overrides.isEmpty ? [] : [(bytes: Array(KnobOverride.chunk(overrides).utf8), chunkName: Self.overrideChunkName)]
            let values: [LuaValue]
            do {
                values = try host.load(layers: layers + overrideLayer, bases: &bases)
            } catch let error where !overrides.isEmpty && bases.count == layers.count {
                // A knob the file does not have, most likely: said as such.
                if let problem = file.overrideProblems(overrides, in: bases.last!).first {
                    problems.append(problem)
                    return nil
                }
                throw error
            }
            if !overrides.isEmpty {
                let refused = file.overrideProblems(overrides, in: bases.removeLast())
                guard refused.isEmpty else {
                    problems += refused
                    return nil
                }
            }
            file.baseValues = bases.reversed()
            file.overridden = overrides.map(\.knobPath)
            guard let first = values.first, first.tableValue != nil else {
                problems.append(
                    RuleProblem(
                        file: name, line: nil,
                        message: "a rule file must return a table, found \(values.first?.errorDescription ?? "nothing")"))
                return nil
            }
            file.value = first
            return file
        } catch let error as LuaError where error.line == nil && error.path != nil {
            // A knob the host cannot read (a cycle, text that is not UTF-8): at the line of its field.
            problems.append(file.problem(at: error.path!, "\(error.path!): \(error.message)"))
            return nil
        } catch let error as LuaError {
            problems.append(RuleProblem(file: error.file ?? name, line: error.line, message: error.message))
            return nil
        } catch {
            problems.append(RuleProblem(file: name, message: "\(error)"))
            return nil
        }
    }

    /// Why `overrides` cannot be written into `value` (what the file returned), one problem each.
    private func overrideProblems(_ overrides: [KnobOverride], in value: LuaValue) -> [RuleProblem] {
        overrides.compactMap { override -> RuleProblem? in
            var override = override
            do throws(KnobOverrideError) {
                _ = try override.resolve(in: value)
                return nil
            } catch {
                return problem(at: override.knobPath, "--set \(error.message)")
            }
        }
    }

    /// Decodes the file's table as `T`, every bad field a problem at its line (not only the first).
    /// When there are problems, the value returned (if any) has placeholders in the bad fields: fit
    /// only for the range checks of the others. The fields at `setAside` get placeholders too (see
    /// ``LuaDecoder/decodeReportingAll(_:from:file:placeholders:setAside:)``).
    func decode<T: Decodable>(
        _ type: T.Type, placeholders: LuaPlaceholderSet = .first, setAside: Set<String> = []
    ) -> (value: T?, problems: [RuleProblem]) {
        let (value, errors) = LuaDecoder().decodeReportingAll(
            type, from: self.value, file: name, placeholders: placeholders, setAside: setAside)
        let problems = errors.map { error in
            guard let path = error.path else { return RuleProblem(file: name, message: error.message) }
            return problem(at: path, path.isEmpty ? error.message : "\(path): " + error.message)
        }
        return (value, problems)
    }

    /// A problem about the field at `path` (`tiers[2].recover_after`), at the line that writes it:
    /// in the file whose result changed the value (the nearest whose value differs from what the
    /// file it extends returned), however it wrote it (`M.a.b = …`, through a local alias, in a loop);
    /// a missing field at the line of the table that lacks it.
    func problem(at path: String, _ message: String) -> RuleProblem {
        // A knob `--set` wrote: at the line of the file of the chain that writes it in its text.
        if overridden.contains(where: { LuaPath.isWithin(path, $0) }), sourceMap.exactLine(for: path) == nil,
            let k = baseMaps.firstIndex(where: { $0.map.exactLine(for: path) != nil })
        {
            return RuleProblem(file: baseMaps[k].name, line: baseMaps[k].map.exactLine(for: path), message: message, field: path)
        }
        // A missing field (`params.x.min`): at the line of the table that lacks it, in the file that wrote that table.
        if !baseValues.isEmpty, let keys = LuaPath.keys(of: path), keys.count > 1, Self.value(at: keys, in: value).isNil {
            let parent = LuaPath.path(of: keys.dropLast())
            let layer = writer(of: parent)
            return RuleProblem(
                file: layer == 0 ? name : baseMaps[layer - 1].name, line: line(of: parent, inLayer: layer), message: message, field: path)
        }
        let layer = writer(of: path)
        if layer > 0 {
            return RuleProblem(file: baseMaps[layer - 1].name, line: line(of: path, inLayer: layer), message: message, field: path)
        }
        if baseValues.isEmpty || sourceMap.exactLine(for: path) != nil {
            return RuleProblem(file: name, line: sourceMap.line(for: path), message: message, field: path)
        }
        return RuleProblem(file: name, line: line(of: path, inLayer: 0), message: message, field: path)
    }

    /// The layer (0: this file, 1: the file it extends, …) that wrote the value at `path`.
    func writer(of path: String) -> Int {
        guard !baseValues.isEmpty, let keys = LuaPath.keys(of: path) else {
            // Unreadable path: the file that writes it in its text, else this one.
            if sourceMap.exactLine(for: path) == nil, let k = baseMaps.firstIndex(where: { $0.map.exactLine(for: path) != nil }) {
                return k + 1
            }
            return 0
        }
        let values = [value] + baseValues
        for k in 0..<(values.count - 1) where Self.value(at: keys, in: values[k]) != Self.value(at: keys, in: values[k + 1]) {
            return k
        }
        return values.count - 1
    }

    /// The line of layer `k` that writes `path`: where its text writes that path, else the first
    /// line naming its last key, else the closest ancestor it writes.
    private func line(of path: String, inLayer k: Int) -> Int? {
        let map = k == 0 ? sourceMap : baseMaps[k - 1].map
        if let line = map.exactLine(for: path) { return line }
        if k < texts.count, case .string(let key)? = LuaPath.keys(of: path)?.last,
            let line = LuaSourceMap.line(naming: key, in: texts[k])
        {
            return line
        }
        return map.line(for: path)
    }

    static func value(at keys: [LuaValue], in value: LuaValue) -> LuaValue {
        var value = value
        for key in keys {
            guard let table = value.tableValue else { return .nil }
            value = table[key]
        }
        return value
    }

    /// `problems` (of `check`, run on this file) with the problem of a knob that a file this one
    /// extends is blamed for, but that the value that file returned does not have, blamed on the
    /// file whose change caused it: the farthest whose value has it (`tier_for_misses[2]: must be
    /// greater than tier 1's 3` is this file's when it writes `{ 3, 2, 1 }`, though the element it
    /// checks is the same as in the file it extends). At that file's line writing the knob, else at
    /// the first knob it changes, naming those. (Knobs `--set` gave other values are blamed by
    /// ``problem(at:_:)`` alone: the values the files returned do not hold them.)
    func blamingTheCause(_ problems: [RuleProblem], check: (RuleFile) -> [RuleProblem]) -> [RuleProblem] {
        guard overridden.isEmpty else { return problems }
        var found: [Int: [RuleProblem]] = [:]
        func has(_ problem: RuleProblem, inLayer k: Int) -> Bool {
            if found[k] == nil {
                var layer = self
                layer.value = k == 0 ? value : baseValues[k - 1]
                layer.baseValues = Array(baseValues.dropFirst(k))
                found[k] = check(layer)
            }
            return found[k]!.contains { $0.field == problem.field && $0.message == problem.message }
        }
        return problems.map { problem in
            guard let field = problem.field, let blamed = baseMaps.firstIndex(where: { $0.name == problem.file }).map({ $0 + 1 }),
                blamed <= baseValues.count, !has(problem, inLayer: blamed)
            else { return problem }
            let cause = (0..<blamed).reversed().first { has(problem, inLayer: $0) } ?? 0
            let file = cause == 0 ? name : baseMaps[cause - 1].name
            let map = cause == 0 ? sourceMap : baseMaps[cause - 1].map
            if let line = map.exactLine(for: field) {
                return RuleProblem(file: file, line: line, message: problem.message, field: field)
            }
            let knobs = changedKnobs(inLayer: cause)
            guard let first = knobs.first else { return problem }
            let shown = Self.shown(knobs)
            return RuleProblem(
                file: file, line: line(of: first, inLayer: cause),
                message: problem.message + " (it follows from the knobs this file changes: \(shown))", field: field)
        }
    }

    /// Knobs as a message names them: the first five, then `…`.
    private static func shown(_ knobs: [String]) -> String {
        knobs.prefix(5).joined(separator: ", ") + (knobs.count > 5 ? ", …" : "")
    }

    /// The knobs (values other than functions) this file changes in the file it extends, as paths.
    var changedKnobs: [String] { changedKnobs(inLayer: 0) }

    /// The knobs layer `k` (0: this file, 1: the file it extends, …) changes in the file it extends.
    func changedKnobs(inLayer k: Int) -> [String] {
        guard k < baseValues.count else { return [] }
        let base = baseValues[k]
        let value = k == 0 ? value : baseValues[k - 1]
        var paths: [String] = []
        func diff(_ a: LuaValue, _ b: LuaValue, _ path: String) {
            if case .function = a { return }
            guard a != b else { return }
            if let ta = a.tableValue, let tb = b.tableValue {
                var keys: [LuaValue] = []
                for key in (ta.sortedEntries + tb.sortedEntries).map(\.key) where !keys.contains(key) { keys.append(key) }
                for key in keys {
                    var sub = path
                    LuaPath.append(key, to: &sub)
                    diff(ta[key], tb[key], sub)
                }
            } else {
                paths.append(path)
            }
        }
        diff(value, base, "")
        return paths
    }

    /// A problem found by calling `function`, at the line that defines it (in whichever file). When
    /// that is a file this one extends and this file changes knobs, the problem is this file's: at
    /// the first knob it changes, naming them and the function.
    func problem(in function: LuaFunction, _ message: String) -> RuleProblem {
        if !function.source.isEmpty, function.source != name, !baseValues.isEmpty {
            let knobs = changedKnobs
            if let first = knobs.first {
                let shown = Self.shown(knobs)
                return RuleProblem(
                    file: name, line: line(of: first, inLayer: 0),
                    message: message + " (\(function.source):\(function.line) reads the knobs this file changes: \(shown))")
            }
        }
        return RuleProblem(
            file: function.source.isEmpty ? name : function.source, line: function.line > 0 ? function.line : nil, message: message)
    }
}
