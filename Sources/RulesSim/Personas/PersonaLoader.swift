import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// Finds persona files and loads them in the Lua sandbox, with the same checks and messages as
/// rule files: unknown fields (with a suggestion), wrong types and values out of range, each at
/// `file:line`.
public enum PersonaLoader {
    /// The folder searched for personas given by name (`steady` → `examples/personas/steady.lua`).
    public static let defaultFolder = "examples/personas"

    /// The file a persona reference names: a path (ends in `.lua` or contains `/`), or a name
    /// looked up in `folders`.
    public static func resolve(_ reference: String, folders: [String]) throws(PersonaError) -> String {
        if reference.hasSuffix(".lua") || reference.contains("/") {
            guard FileManager.default.fileExists(atPath: reference) else { throw PersonaError(reference, "no such persona file") }
            return reference
        }
        for folder in folders {
            let path = (folder as NSString).appendingPathComponent(reference + ".lua")
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        let known = Set(
            folders.flatMap { folder in
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
        throw PersonaError(reference, message)
    }

    /// A path as messages name the file: relative to the current directory when the file is in
    /// it (`/home/me/sim/personas/x.lua` → `personas/x.lua`), else as given.
    static func shown(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let standard = (path as NSString).standardizingPath
        let here = (FileManager.default.currentDirectoryPath as NSString).standardizingPath
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return standard.hasPrefix(prefix) && standard.count > prefix.count ? String(standard.dropFirst(prefix.count)) : path
    }

    /// Loads and validates the persona file at `path` in `host`.
    public static func load(path: String, host: LuaHost) throws(PersonaError) -> Persona {
        // Its messages (and those of its `day()` during a run) name it as `shown` does.
        let path = shown(path)
        let bytes: [UInt8]
        do {
            bytes = try SourceFile.read(path, maxBytes: host.limits.maxSourceBytes)
        } catch {
            throw PersonaError(path, error.description)
        }
        // Refused as a rule file is (at its line), not changed: two names differing only in bytes
        // that are not UTF-8 would become the same name.
        do { try LuaHost.checkUTF8(bytes, chunkName: path) } catch { throw PersonaError(path, line: error.line, error.message) }
        let text = String(decoding: bytes, as: UTF8.self)  // UTF-8, as checked
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try load(name: name, path: path, text: text, host: host)
    }

    /// Loads a persona from its text (a worker reloads the same text into its own Lua state).
    public static func load(name: String, path: String, text: String, host: LuaHost) throws(PersonaError) -> Persona {
        let value: LuaValue
        let map = LuaSourceMap(source: text)
        do {
            let values = try host.load(text, chunkName: path)
            guard let first = values.first, first.tableValue != nil else {
                throw PersonaError(path, "a persona file must return a table, found \(values.first?.errorDescription ?? "nothing")")
            }
            value = first
        } catch let error as LuaError where error.line == nil && error.path != nil {
            throw PersonaError(path, line: map.line(for: error.path!), "\(error.path!): \(error.message)")
        } catch let error as LuaError {
            throw PersonaError(error.file ?? path, line: error.line, error.message)
        } catch let error as PersonaError {
            throw error
        } catch {
            throw PersonaError(path, "\(error)")
        }
        // Misspelt top-level fields first: a typo often also leaves a required field missing.
        let known = PersonaSpec.fieldNames
        var problems: [RuleProblem] = value.tableValue!.sortedEntries.compactMap { entry in
            guard let name = entry.key.stringValue, !known.contains(name) else { return nil }
            var message = "unknown field '\(name)'"
            if let suggestion = Suggestion.closest(to: name, among: known) { message += "; did you mean '\(suggestion)'?" }
            return RuleProblem(file: path, line: map.exactLine(for: name) ?? map.line(for: ""), message: message)
        }
        // A field of the wrong type (or NaN, …) stops decoding. To report every other problem
        // with it, the field is set aside — removed, so that its default applies, or when it is
        // required replaced by a placeholder (0, an empty table, "", false) — and the file decoded
        // again; only when no placeholder will do is the table holding it set aside, and so on up
        // to its top-level section. An error inside what was set aside is the placeholder's, not
        // the file's: it is not reported.
        var rest = value
        var setAside: [String] = []
        var placeholder: [String: Int] = [:]
        let placeholders: [LuaValue] = [.nil, .integer(0), .table(LuaTable()), .string(""), .boolean(false)]
        var decoded: PersonaSpec?
        for _ in 0..<10_000 where decoded == nil {
            do {
                decoded = try LuaDecoder().decode(PersonaSpec.self, from: rest, file: path)
            } catch let error as LuaError {
                let field = error.path ?? ""
                var aside = field
                if setAside.contains(where: { LuaPath.isWithin(field, $0) }), !setAside.contains(field) {
                    // A field the placeholder lacks (`answer.yes` of `answer = {}`): one too.
                    setAside.append(field)
                    placeholder[field] = 0
                } else if setAside.contains(field) {
                    // The placeholder will not do: the next one, or the table holding the field.
                    var outer = field
                    while placeholder[outer]! + 1 == placeholders.count {
                        guard let keys = LuaPath.keys(of: outer), keys.count > 1 else { throw PersonaError(problems: problems) }
                        outer = LuaPath.path(of: keys.dropLast())
                        if !setAside.contains(outer) {
                            setAside.append(outer)
                            placeholder[outer] = -1
                        }
                    }
                    placeholder[outer]! += 1
                    aside = outer
                } else {
                    let top = String(field.prefix { $0 != "." && $0 != "[" })
                    if known.contains(top) || top.isEmpty {  // (an unknown section is reported above)
                        problems.append(
                            RuleProblem(
                                file: path, line: map.line(for: field),
                                message: field.isEmpty ? error.message : "\(field): \(error.message)"))
                    }
                    guard !top.isEmpty else { throw PersonaError(problems: problems) }
                    setAside.append(field)
                    placeholder[field] = 0
                }
                guard let keys = LuaPath.keys(of: aside) else { throw PersonaError(problems: problems) }
                rest = rest.replacing(at: keys, with: placeholders[placeholder[aside]!])
            } catch {
                throw PersonaError(path, "\(error)")
            }
        }
        guard let spec = decoded else { throw PersonaError(problems: problems) }
        // The checks of what was set aside (and of the tables holding it) would judge the
        // placeholders and defaults, not the file.
        problems += PersonaChecks.problems(of: spec).filter { check in
            !setAside.contains { LuaPath.isWithin(check.0, $0) || LuaPath.isWithin($0, check.0) }
        }.map { fieldPath, message in
            RuleProblem(file: path, line: map.line(for: fieldPath), message: "\(fieldPath): \(message)")
        }
        guard problems.isEmpty else { throw PersonaError(problems: problems) }
        return Persona(name: name, path: path, text: text, spec: spec)
    }
}
