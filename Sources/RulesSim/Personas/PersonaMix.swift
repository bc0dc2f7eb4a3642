import Foundation
import LuaHost
import RulesModel

/// Which personas a cohort is made of, with their weights: `steady`, `steady:70,struggling:30`,
/// `my-persona.lua:2`. Each user draws its persona by weight from its own seeded generator, so a
/// user's persona depends only on the seed and its index.
package struct PersonaMix: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// A persona name (looked up in the persona folders) or a file path.
        package var reference: String
        package var weight: Double
    }

    package var entries: [Entry]

    /// The cohort when no `--persona` is given.
    package static let standard = try! PersonaMix(["steady:40,struggling:20,lapsing-then-recovering:20,weekend-skipper:20"])

    /// Parses `--persona` values; each is one entry or a comma-separated list (`NAME[:WEIGHT]`).
    package init(_ values: [String]) throws(InputFileError) {
        var entries: [Entry] = []
        for value in values {
            // A comma separates entries: a file whose name has one cannot be given.
            if value.contains(","), let file = Self.file(named: value) {
                throw InputFileError(
                    "--persona",
                    "\"\(file)\" is a file, but a comma separates personas: a file whose name has a comma cannot be given; rename it")
            }
            for part in value.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard !part.isEmpty else { throw InputFileError("--persona", "empty entry in \(Self.quoted(value))") }
                var reference = part, weight = 1.0
                if let colon = part.lastIndex(of: ":") {
                    let suffix = part[part.index(after: colon)...]
                    if let w = Double(suffix) {
                        guard w.isFinite, w > 0 else {
                            throw InputFileError("--persona", "the weight of \(Self.quoted(part)) must be a positive number")
                        }
                        weight = w
                        reference = String(part[..<colon])
                    } else if !part.hasSuffix(".lua") {
                        throw InputFileError("--persona", "\(Self.quoted(part)): expected NAME or NAME:WEIGHT, e.g. steady:70")
                    }
                }
                guard !reference.isEmpty else {
                    throw InputFileError("--persona", "\(Self.quoted(part)): the persona's name or file is missing before ':'")
                }
                if let i = entries.firstIndex(where: { $0.reference == reference }) {
                    entries[i].weight += weight
                } else {
                    entries.append(Entry(reference: reference, weight: weight))
                }
            }
        }
        guard !entries.isEmpty else { throw InputFileError("--persona", "no persona given") }
        guard entries.reduce(0, { $0 + $1.weight }).isFinite else {
            throw InputFileError("--persona", "the weights add up to more than a number can hold; use smaller ones (they are relative)")
        }
        self.entries = entries
    }

    /// A part of `--persona` as a message echoes it: in quotes, cut past 100 characters.
    private static func quoted(_ text: String) -> String { "\"\(VisibleText.escaping(SourceFile.excerpt(text, limit: 100)))\"" }

    /// `value` without its `:WEIGHT`, when that is a file.
    private static func file(named value: String) -> String? {
        let path = value.lastIndex(of: ":").map { Double(value[value.index(after: $0)...]) != nil ? String(value[..<$0]) : value } ?? value
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: WorkingFolder.resolve(path), isDirectory: &isFolder) && !isFolder.boolValue ? path : nil
    }

    /// The index of the entry a draw `u` in [0, 1) falls on.
    func pick(_ u: Double) -> Int {
        let total = entries.reduce(0) { $0 + $1.weight }
        var cumulative = 0.0
        for (i, entry) in entries.enumerated() {
            cumulative += entry.weight / total
            if u < cumulative { return i }
        }
        return entries.count - 1
    }

    /// `steady:40,struggling:20`, as given (weights as numbers).
    package var description: String {
        entries.map { "\($0.reference):\(Self.format($0.weight))" }.joined(separator: ",")
    }

    static func format(_ w: Double) -> String {
        abs(w) < 1e15 ? WholeNumber.text(w) : String(w)
    }
}
