import BuiltInDefaults
import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// Finds persona files and loads them in the Lua sandbox, with the same checks and messages as
/// rule files: unknown fields (with a suggestion), wrong types and values out of range, each at
/// `file:line`.
package enum PersonaLoader {
    /// The folder searched for personas given by name (`steady` → `examples/personas/steady.lua`).
    package static let defaultFolder = "examples/personas"

    /// The folders a command searches for personas by name, in order: `extra` (`--persona-dir`),
    /// the `personas/` of each rule folder in `rules`, ``defaultFolder``, the `examples/personas`
    /// beside each rule folder (so that a rule folder run from elsewhere finds the personas of its
    /// project), then the built-in personas (``BuiltInDefaults/personasName``).
    package static func folders(_ extra: [String] = [], rules: String...) -> [String] {
        let onDisk = rules.filter { $0 != BuiltInDefaults.name }
        let own = onDisk.map { ($0 as NSString).appendingPathComponent(RuleSet.personaFolder) }
        let beside = onDisk.map { tidy(($0 as NSString).appendingPathComponent("../examples/personas")) }
        var seen: Set<String> = []
        return (extra + own + [defaultFolder] + beside + [BuiltInDefaults.personasName]).filter { seen.insert($0).inserted }
    }

    /// `path` with each `NAME/..` removed (`myapp/../examples/personas` → `examples/personas`), as
    /// Foundation's standardizing does only for absolute paths.
    static func tidy(_ path: String) -> String {
        var parts: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if part == "..", let last = parts.last, last != "..", last != "", last != "." {
                parts.removeLast()
            } else if part != "." || parts.isEmpty {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return joined.isEmpty ? "." : joined
    }

    /// The folder on disk a folder of ``folders(_:rules:)`` stands for.
    static func path(of folder: String) -> String? {
        folder == BuiltInDefaults.personasName ? try? BuiltInDefaults.personas() : WorkingFolder.resolve(folder)
    }

    /// The file a persona reference names: a path (ends in `.lua` or contains `/`), or a name
    /// looked up in `folders`.
    package static func resolve(_ reference: String, folders: [String]) throws(InputFileError) -> String {
        if reference.hasSuffix(".lua") || reference.contains("/") {
            // Resolved here, on the command's thread: the workers that load it may run elsewhere.
            let file = WorkingFolder.resolve(reference)
            guard FileManager.default.fileExists(atPath: file) else { throw InputFileError(reference, "no such persona file") }
            return file
        }
        for folder in folders.compactMap(path(of:)) {
            let path = (folder as NSString).appendingPathComponent(reference + ".lua")
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        let known = Set(
            folders.compactMap(path(of:)).flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".lua") }.map {
                    String($0.dropLast(4))
                }
            }
        ).sorted()
        var message = "no persona named '\(reference)' in \(folders.joined(separator: ", "))"
        if let suggestion = Suggestion.closest(to: reference, among: known) {
            message += "; did you mean '\(suggestion)'?"
        } else if !known.isEmpty {
            message += " (known: \(known.joined(separator: ", ")))"
        }
        throw InputFileError(reference, message)
    }

    /// A path as messages name the file: relative to the current directory when the file is in
    /// it (`/home/me/sim/personas/x.lua` → `personas/x.lua`), else as given.
    static func shown(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let standard = (path as NSString).standardizingPath
        let here = (WorkingFolder.current as NSString).standardizingPath
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return standard.hasPrefix(prefix) && standard.count > prefix.count ? String(standard.dropFirst(prefix.count)) : path
    }

    /// Loads and validates the persona file at `path` in `host`.
    package static func load(path: String, host: LuaHost) throws(InputFileError) -> Persona {
        // Its messages (and those of its `day()` during a run) name it as `shown` does.
        let path = shown(path)
        let bytes: [UInt8]
        do {
            bytes = try SourceFile.read(path, maxBytes: host.limits.maxSourceBytes)
        } catch {
            throw InputFileError(path, error.description)
        }
        // Refused as a rule file is (at its line), not changed: two names differing only in bytes
        // that are not UTF-8 would become the same name.
        do { try LuaHost.checkUTF8(bytes, chunkName: path) } catch { throw InputFileError(path, line: error.line, error.message) }
        let text = String(decoding: bytes, as: UTF8.self)  // UTF-8, as checked
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try load(name: name, path: path, text: text, host: host)
    }

    /// Loads a persona from its text (a worker reloads the same text into its own Lua state).
    package static func load(name: String, path: String, text: String, host: LuaHost) throws(InputFileError) -> Persona {
        let value: LuaValue
        let map = LuaSourceMap(source: text)
        do {
            let values = try host.load(text, chunkName: path)
            guard let first = values.first, first.tableValue != nil else {
                throw InputFileError(path, "a persona file must return a table, found \(values.first?.errorDescription ?? "nothing")")
            }
            value = first
        } catch let error as LuaError where error.line == nil && error.path != nil {
            throw InputFileError(path, line: map.line(for: error.path!), "\(error.path!): \(error.message)")
        } catch let error as LuaError {
            throw InputFileError(error.file ?? path, line: error.line, error.message)
        } catch let error as InputFileError {
            throw error
        } catch {
            throw InputFileError(path, "\(error)")
        }
        // Misspelt top-level fields first: a typo often also leaves a required field missing.
        let known = PersonaSpec.fieldNames
        // The fields a typo stands for: their own problems (`commit` missing) are the typo's knock-ons.
        var meant: Set<String> = []
        var problems: [RuleProblem] = value.tableValue!.sortedEntries.compactMap { entry in
            guard let name = entry.key.stringValue, !known.contains(name) else { return nil }
            var message = "unknown field '\(name)'"
            if let suggestion = Suggestion.closest(to: name, among: known) {
                message += "; did you mean '\(suggestion)'?"
                meant.insert(suggestion)
            }
            return RuleProblem(file: path, line: map.exactLine(for: name) ?? map.line(for: ""), message: message)
        }
        // Every field's problem in one run (`decodeReportingAll` goes on past a bad field), but
        // those of an unknown section, reported above.
        let decoder = LuaDecoder()
        let (decoded, errors) = decoder.decodeReportingAll(PersonaSpec.self, from: value, file: path)
        for error in errors {
            let field = error.path ?? ""
            let top = String(field.prefix { $0 != "." && $0 != "[" })
            guard known.contains(top) || top.isEmpty else { continue }
            problems.append(
                RuleProblem(
                    file: path, line: map.line(for: field), message: field.isEmpty ? error.message : "\(field): \(error.message)",
                    field: field))
        }
        guard let spec = decoded else { throw InputFileError(problems: problems) }
        func checks(_ spec: PersonaSpec) -> [RuleProblem] {
            PersonaChecks.problems(of: spec).filter { !meant.contains($0.0) }.map { fieldPath, message in
                RuleProblem(file: path, line: map.line(for: fieldPath), message: "\(fieldPath): \(message)", field: fieldPath)
            }
        }
        // The checks of a bad field (and of the tables holding it), or that depend on a field
        // already reported, are left out, as a rule file's are.
        let bad = errors.map { RuleProblem(file: path, message: $0.message, field: $0.path ?? "") }
        problems += RuleProblem.leavingOutKnockOns(checks(spec), decoding: bad) { set, setAside in
            decoder.decodeReportingAll(PersonaSpec.self, from: value, file: path, placeholders: set, setAside: setAside).value.map(checks)
                ?? []
        }
        // In the order of the file's lines.
        problems = RuleProblem.inLineOrder(problems)
        guard problems.isEmpty else { throw InputFileError(problems: problems) }
        return Persona(name: name, path: path, text: text, spec: spec)
    }
}
