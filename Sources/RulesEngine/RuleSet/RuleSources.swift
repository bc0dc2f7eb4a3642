import BuiltInDefaults
import Foundation
import LuaHost

/// Where each file of a rule set comes from: the rule folder, or, for the files it does not
/// hold, the folder its `extends` file names (and so on, up a chain without cycles): a path, or
/// `@default`, the built-in rules.
struct RuleSources {
    /// The rule folder itself.
    let folder: RuleFolder
    /// The folders to look in, nearest first, with the name messages give each.
    let chain: [(folder: RuleFolder, label: String)]

    init(_ path: String) throws {
        var chain: [(RuleFolder, String)] = []
        var seen: Set<String> = []
        var current = path
        var label = ""
        while true {
            let folder: RuleFolder
            do {
                folder = try RuleFolder(current)
            } catch let error as LuaError {
                // The folder asked for, or the one an `extends` file names (reported at that file).
                let file = chain.last.map { "\($0.1)extends" } ?? SourceFile.excerpt(current)
                throw RuleSetError(problems: [
                    RuleProblem(file: file, message: chain.isEmpty ? error.message : "\(error.message): \(SourceFile.excerpt(current))")
                ])
            }
            guard seen.insert(folder.root.path).inserted else {
                throw RuleSetError(problems: [
                    RuleProblem(
                        file: "\(label)extends", message: "the rule folders extend each other in a cycle (\(SourceFile.excerpt(current)))")
                ])
            }
            chain.append((folder, label))
            guard let base = try Self.base(named: folder.root.appendingPathComponent("extends").path, file: "\(label)extends") else {
                break
            }
            if base == BuiltInDefaults.name {
                // Named as such in messages (`@default/pricing.lua`), wherever it was written out.
                current = base
                label = base + "/"
            } else {
                let baseURL = URL(fileURLWithPath: base, relativeTo: folder.root).standardizedFileURL
                current = baseURL.path
                label = baseURL.lastPathComponent + "/"
            }
        }
        self.folder = chain[0].0
        self.chain = chain
    }

    /// The largest `extends` file read: it holds one path.
    static let maxExtendsBytes = 4096

    /// The folder the `extends` file at `path` names (nil when there is no such file): its one
    /// non-empty line, trimmed. Its size is checked before it is read; anything else is an error
    /// reported at `file`, quoting at most 200 characters of it.
    static func base(named path: String, file: String) throws -> String? {
        func problem(_ message: String, line: Int? = nil) -> RuleSetError {
            RuleSetError(problems: [RuleProblem(file: file, line: line, message: message)])
        }
        let expected = "one line: the path of the base rule folder, absolute or relative to this one, or @default"
        let bytes: [UInt8]
        do {
            bytes = try SourceFile.read(path, maxBytes: maxExtendsBytes)
        } catch .missing {
            return nil
        } catch .tooLarge(let size, _) {
            throw problem("the file is \(size) bytes, more than the \(maxExtendsBytes) an `extends` file may have (\(expected))")
        } catch {
            throw problem(error.description)
        }
        guard let text = String(bytes: SourceFile.withoutByteOrderMark(bytes), encoding: .utf8) else {
            throw problem("not UTF-8 text (\(expected))")
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let filled = lines.indices.filter { !lines[$0].isEmpty }
        guard let first = filled.first else { throw problem("names no folder (\(expected))") }
        if filled.count > 1 {
            let second = filled[1]
            throw problem(
                "a second line, '\(SourceFile.excerpt(lines[second]))': an `extends` file names one folder (\(expected))",
                line: second + 1)
        }
        return lines[first]
    }

    /// The file `name`, from the nearest folder that holds it, and the name messages give it
    /// (`escalation.lua` for the folder's own, `rules/streaks.lua` for an inherited one).
    func locate(_ name: String) -> (url: URL, chunkName: String)? { locateAll(name).first }

    /// Every file `name` along the chain, nearest first: the file itself, then the ones it extends
    /// (which it sees as `base`).
    func locateAll(_ name: String) -> [(url: URL, chunkName: String)] {
        chain.compactMap { folder, label in
            let url = folder.root.appendingPathComponent(name)
            return FileManager.default.fileExists(atPath: url.path) ? (url, label + name) : nil
        }
    }
}
