import Foundation
import LuaHost
import RulesEngine
import RulesSim

/// `compare`'s `--out` folder: checked before anything runs (``OutputPath``; created when missing
/// in a folder that exists, locked for the run, and removed
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

    /// The folder itself, locked (`flock`) for the run: a second compare writing in it, by any
    /// name, is refused (or waits, in the default folder) instead of removing the first's replay files.
    private var lock: Int32 = -1

    /// Checks (``OutputPath``) and locks the folder at `path`, made when missing, in an existing
    /// folder. The default `--out` (`isDefault`) gets its missing folders made too, and when
    /// another compare holds it, it is waited for (saying so on standard error), not refused:
    /// every compare started in the same folder shares it. A folder the user named is theirs, and
    /// a clash there is refused.
    init(_ path: String, isDefault: Bool = false) throws(Problem) {
        self.path = path
        let files = FileManager.default
        do {
            try OutputPath.check(path, option: "--out", kind: .folder, createsFolders: isDefault)
        } catch {
            throw Problem(description: error.message)
        }
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !files.fileExists(atPath: WorkingFolder.resolve(current)) {
            missing.insert(current, at: 0)
            current = (current as NSString).deletingLastPathComponent
        }
        if !missing.isEmpty {
            do {
                try files.createDirectory(atPath: WorkingFolder.resolve(path), withIntermediateDirectories: true)
            } catch {
                throw Problem(description: "--out \(path): cannot create the folder (\(error.localizedDescription))")
            }
        }
        created = missing
        let fd = open(WorkingFolder.resolve(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        var locked = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0
        if fd >= 0, !locked, errno == EWOULDBLOCK, isDefault {
            Terminal.error(
                "--out \(path): another rulesrun compare is writing its replay files in this folder; waiting for it to finish (give another --out not to wait)"
            )
            repeat { locked = flock(fd, LOCK_EX) == 0 } while !locked && errno == EINTR
        }
        guard locked else {
            let code = errno
            if fd >= 0 { close(fd) }
            if code == EWOULDBLOCK {
                throw Problem(
                    description:
                        "--out \(path): another rulesrun compare is writing its replay files in this folder (by this name or another); wait for it to finish, or give another --out"
                )
            }
            throw Problem(description: "--out \(path): cannot lock the folder: \(String(cString: strerror(code)))")
        }
        lock = fd  // closed by deinit (a refusal below ends the process anyway)
        for name in ((try? files.contentsOfDirectory(atPath: WorkingFolder.resolve(path))) ?? []).sorted() where Self.isReplayFileName(name) {
            let file = (path as NSString).appendingPathComponent(name)
            var info = stat()
            if stat(WorkingFolder.resolve(file), &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw Problem(
                    description:
                        "--out \(path): \(file) has a name compare gives its replay files but is not a regular file (\(SourceFile.describe(mode: info.st_mode))); refusing to write over it (move it, or give another --out)"
                )
            }
            guard Self.wasWrittenByCompare(WorkingFolder.resolve(file)) else {
                throw Problem(
                    description:
                        "--out \(path): \(file) has a name compare gives its replay files but does not start with \"\(Self.header.trimmingCharacters(in: .whitespaces))\"; refusing to overwrite it (move it, or give another --out)"
                )
            }
        }
    }

    deinit { if lock >= 0 { close(lock) } }

    /// Whether `name` is a name compare gives its replay files.
    static func isReplayFileName(_ name: String) -> Bool {
        if HistoryField.allCases.contains(where: { "\($0.rawValue).jsonl" == name }) { return true }
        if EconomyField.allCases.contains(where: { "\(EconomyField.half)-\($0.rawValue).jsonl" == name }) { return true }
        if HabitField.allCases.contains(where: { "\(HabitField.half)-\($0.rawValue).jsonl" == name }) { return true }
        guard name.hasSuffix(".jsonl") else { return false }
        if name.hasPrefix("property-prop_") { return true }
        guard name.hasPrefix("expectation-") else { return false }
        var number = name.dropFirst("expectation-".count).dropLast(".jsonl".count)
        // expectation-N.jsonl (Pressure's), expectation-APP-N.jsonl (the economy's, the habits').
        if let app = HistoryApp.allCases.first(where: { number.hasPrefix("\($0.rawValue)-") }) {
            number = number.dropFirst(app.rawValue.count + 1)
        }
        return !number.isEmpty && number.allSatisfy(\.isNumber)
    }

    /// Whether the file at `file` is a regular file that starts with compare's header.
    static func wasWrittenByCompare(_ file: String) -> Bool {
        // Only a regular file is opened: opening a FIFO would wait for a writer.
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let handle = FileHandle(forReadingAtPath: file)
        else { return false }
        let start = (try? handle.read(upToCount: header.utf8.count)) ?? nil
        try? handle.close()
        return start.map { String(decoding: $0, as: UTF8.self) } == header
    }

    /// Removes the replay files an earlier compare wrote here.
    func removeStaleFiles() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: WorkingFolder.resolve(path)) where Self.isReplayFileName(name) {
            let file = WorkingFolder.resolve((path as NSString).appendingPathComponent(name))
            if Self.wasWrittenByCompare(file) { try FileManager.default.removeItem(atPath: file) }
        }
    }

    /// Writes one replay file; returns its path.
    func write(_ text: String, to name: String) throws -> String {
        let file = (path as NSString).appendingPathComponent(name)
        try text.write(toFile: WorkingFolder.resolve(file), atomically: true, encoding: .utf8)
        written += 1
        return file
    }

    /// Removes the folders this run created when it wrote nothing into them.
    func removeIfUnused() {
        guard written == 0 else { return }
        for folder in created.reversed() {
            guard (try? FileManager.default.contentsOfDirectory(atPath: WorkingFolder.resolve(folder)))?.isEmpty == true else { return }
            try? FileManager.default.removeItem(atPath: WorkingFolder.resolve(folder))
        }
    }
}
