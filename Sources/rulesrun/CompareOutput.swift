import Foundation
import RulesEngine
import RulesSim

/// `compare`'s `--out` folder: checked before anything runs (created when missing, and removed
/// again when the run writes nothing into it; refused when it holds a file with a name compare
/// gives that compare did not write); before writing, the replay files of a previous run are
/// removed — only files with a name compare gives and compare's header, never other files.
final class CompareOutput {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    let path: String
    /// The folders this run created, outermost first.
    private let created: [String]
    private var written = 0

    /// The first line of every replay file compare writes.
    static let header = "# rulesrun compare "

    init(_ path: String) throws(Problem) {
        self.path = path
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw Problem(description: "--out \(path): not a folder (a file of that name exists)") }
            guard files.isWritableFile(atPath: path) else { throw Problem(description: "--out \(path): the folder is not writable") }
            let names = (try? files.contentsOfDirectory(atPath: path)) ?? []
            for name in names.sorted() where Self.isReplayFileName(name) {
                let file = (path as NSString).appendingPathComponent(name)
                guard Self.wasWrittenByCompare(file) else {
                    throw Problem(description: "--out \(path): \(file) has a name compare gives its replay files but does not start with \"\(Self.header.trimmingCharacters(in: .whitespaces))\"; refusing to overwrite it (move it, or give another --out)")
                }
            }
            created = []
            return
        }
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !files.fileExists(atPath: current) {
            missing.insert(current, at: 0)
            current = (current as NSString).deletingLastPathComponent
        }
        if !current.isEmpty, files.fileExists(atPath: current, isDirectory: &isFolder), !isFolder.boolValue {
            throw Problem(description: "--out \(path): \(current) is not a folder")
        }
        do {
            try files.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw Problem(description: "--out \(path): cannot create the folder (\(error.localizedDescription))")
        }
        created = missing
    }

    /// Whether `name` is a name compare gives its replay files.
    static func isReplayFileName(_ name: String) -> Bool {
        if HistoryField.allCases.contains(where: { "\($0.rawValue).jsonl" == name }) { return true }
        if EconomyField.allCases.contains(where: { "economy-\($0.rawValue).jsonl" == name }) { return true }
        guard name.hasPrefix("expectation-"), name.hasSuffix(".jsonl") else { return false }
        let number = name.dropFirst("expectation-".count).dropLast(".jsonl".count)
        return !number.isEmpty && number.allSatisfy(\.isNumber)
    }

    /// Whether the file at `file` is a regular file that starts with compare's header.
    static func wasWrittenByCompare(_ file: String) -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue,
              let handle = FileHandle(forReadingAtPath: file) else { return false }
        let start = (try? handle.read(upToCount: header.utf8.count)) ?? nil
        try? handle.close()
        return start.map { String(decoding: $0, as: UTF8.self) } == header
    }

    /// Removes the replay files an earlier compare wrote here.
    func removeStaleFiles() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where Self.isReplayFileName(name) {
            let file = (path as NSString).appendingPathComponent(name)
            if Self.wasWrittenByCompare(file) { try FileManager.default.removeItem(atPath: file) }
        }
    }

    /// Writes one replay file; returns its path.
    func write(_ text: String, to name: String) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        written += 1
        return file
    }

    /// Removes the folders this run created when it wrote nothing into them.
    func removeIfUnused() {
        guard written == 0 else { return }
        for folder in created.reversed() {
            guard (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true else { return }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }
}
