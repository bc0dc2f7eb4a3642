import Foundation
import RulesSim
import Testing

/// File names made from names users and rules chose (`FileNames`): one component inside the
/// folder, at most 255 bytes, a different file for each name (case aside), the same for the same one.
@Suite struct FileNamesTests {
    static let hostile = [
        "prop_x/../../escaped", "../escaped", "/etc/passwd", "..", ".", "", ".hidden", "a\u{0}b", "a\nb", "C:\\x", "prop_A", "prop_a",
        "prop_a/b", "prop_a_b", "prop_a:b", "café", "cafe\u{301}", String(repeating: "x", count: 300), String(repeating: "é", count: 200),
        String(repeating: "x", count: 300) + "y",
    ]

    @Test func everyNameIsOneDistinctComponentOfAtMost255Bytes() throws {
        var names = FileNames()
        let made = Self.hostile.map { names.name(for: $0, prefix: "property-", suffix: ".jsonl") }
        for (text, name) in zip(Self.hostile, made) {
            #expect(!name.contains("/") && !name.contains("\u{0}") && !name.hasPrefix("."), "\(text.debugDescription): \(name)")
            #expect(name.utf8.count <= FileNames.maxBytes && name.hasPrefix("property-") && name.hasSuffix(".jsonl"), "\(name)")
            #expect(name.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }, "\(name)")
        }
        #expect(Set(made.map { $0.lowercased() }).count == made.count, "\(made)")
        // The same name again: the same file (a property keeps its file from one watch cycle to the next).
        #expect(Self.hostile.map { names.name(for: $0, prefix: "property-", suffix: ".jsonl") } == made)
        #expect(made[0] == "property-prop_x_.._.._escaped.jsonl")
        #expect(names.name(for: "prop_a", key: "other file", prefix: "property-", suffix: ".jsonl") == "property-prop_a-3.jsonl")
    }

    /// Written in a real folder: every file is there, inside it, and nothing is anywhere else.
    @Test func theFilesStayInTheirFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("filenames-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("out/prop_x")  // a folder a name could climb out of
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        var names = FileNames()
        for text in Self.hostile {
            let name = names.name(for: text, suffix: ".jsonl")
            try "x".write(toFile: (folder.path as NSString).appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == Self.hostile.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("out").path) == ["prop_x"])
    }
}
