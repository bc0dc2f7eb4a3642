import Foundation
import LuaHost

/// Where each file of a rule set comes from: the rule folder, or, for the files it does not
/// hold, the folder its `extends` file names (and so on, up a chain without cycles).
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
                let file = chain.last.map { "\($0.1)extends" } ?? current
                throw RuleSetError(problems: [RuleProblem(file: file, message: chain.isEmpty ? error.message : "\(error.message): \(current)")])
            }
            guard seen.insert(folder.root.path).inserted else {
                throw RuleSetError(problems: [RuleProblem(file: "\(label)extends", message: "the rule folders extend each other in a cycle (\(current))")])
            }
            chain.append((folder, label))
            let extends = folder.root.appendingPathComponent("extends")
            guard let text = try? String(contentsOf: extends, encoding: .utf8) else { break }
            let base = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !base.isEmpty else {
                throw RuleSetError(problems: [RuleProblem(file: "\(label)extends", message: "names no folder (one line: the path of the base rule folder, relative to this one)")])
            }
            let baseURL = URL(fileURLWithPath: base, relativeTo: folder.root).standardizedFileURL
            current = baseURL.path
            label = baseURL.lastPathComponent + "/"
        }
        self.folder = chain[0].0
        self.chain = chain
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
