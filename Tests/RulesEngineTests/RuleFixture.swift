import Foundation
import RulesEngine
import Testing

/// The default rule set, copied to a temporary folder with edits, for broken-rule tests.
struct RuleFixture {
    static let rulesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("rules")

    static func defaultSource(_ file: String = "escalation.lua") throws -> String {
        try String(contentsOf: rulesFolder.appendingPathComponent(file), encoding: .utf8)
    }

    /// A folder holding the default files, with escalation.lua replaced by `text`.
    static func folder(with escalation: String) throws -> URL { try folder(replacing: "escalation.lua", with: escalation) }

    /// A folder holding the default files, with `file` replaced by `text`.
    static func folder(replacing file: String = "escalation.lua", with text: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in RuleSet.fileNames {
            let content = name == file ? text : try defaultSource(name)
            try content.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// `source` with each `old` replaced by `new`: an `old` that the text no longer contains is an
    /// issue, not an edit that silently leaves the rules as they are (and the test testing nothing).
    static func edit(
        _ source: String, _ edits: [(old: String, new: String)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        var source = source
        for edit in edits {
            #expect(source.contains(edit.old), "the fixture no longer contains \(edit.old)", sourceLocation: sourceLocation)
            source = source.replacingOccurrences(of: edit.old, with: edit.new)
        }
        return source
    }

    /// The default `file` with the edits (``edit(_:_:sourceLocation:)``).
    static func edited(
        _ edits: [(old: String, new: String)], in file: String = "escalation.lua",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        edit(try defaultSource(file), edits, sourceLocation: sourceLocation)
    }

    /// Loads the default rules with `old` replaced by `new` in `file`; returns the problems.
    static func problems(
        _ old: String, _ new: String, in file: String = "escalation.lua",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [RuleProblem] {
        try problems(edits: [(old, new)], in: file, sourceLocation: sourceLocation)
    }

    /// Loads `path` as `validate` does, its proofs last. A file's proofs run only when it decodes
    /// and its fields are in range, so a problem of reading, inheriting, decoding or range is found
    /// by a load without the proofs (`proving: false` skips only the proofs of the files that have
    /// no problem, such as unchanged defaults), which throws it; a set that has none is loaded
    /// again with its proofs.
    static func load(_ path: String) throws -> RuleSet {
        _ = try RuleSet.load(path, proving: false)
        return try RuleSet.load(path)
    }

    /// The same with several edits of one file (loaded by ``load(_:)``).
    static func problems(
        edits: [(old: String, new: String)], in file: String = "escalation.lua",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [RuleProblem] {
        let source = try edited(edits, in: file, sourceLocation: sourceLocation)
        let dir = try folder(replacing: file, with: source)
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try load(dir.path)
        } catch let error as RuleSetError {
            return error.problems
        }
        Issue.record("the edited rule set was accepted", sourceLocation: sourceLocation)
        return []
    }

    /// The line of the first occurrence of `text` in the default file.
    static func line(of text: String, in file: String = "escalation.lua") throws -> Int {
        let source = try defaultSource(file)
        guard let range = source.range(of: text) else { return -1 }
        return source[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }
}
