import Foundation
import Testing

/// Two outputs of one command are never one file (the last write would win), and no output is one
/// of its inputs, however the paths are spelled: `simulate`, `merge` and `compare` refuse them
/// before anything is written.
@Suite struct OutputCollisionTests {
    @Test func simulateRefusesOutputsThatAreOneFileOrAnInput() throws {
        let dir = try CLI.folder(["mine.lua": "-- a persona file\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.txt").path, db = dir.appendingPathComponent("x.sqlite").path
        let persona = dir.appendingPathComponent("mine.lua").path
        let rule = CLI.packageRoot.appendingPathComponent("rules/escalation.lua").path
        for (arguments, expected) in [(["--no-db", "--out", a, "--chart", dir.appendingPathComponent("new/../a.txt").path], "--chart \(dir.path)/new/../a.txt: is the same file as --out \(a)"),
                                      (["--db", db, "--out", db], "--db \(db): is the same file as --out \(db)"),
                                      (["--db", db, "--chart", db + "-journal"], "--db \(db): is the same file as --chart \(db)-journal"),
                                      (["--no-db", "--chart", "-"], "--chart -: is the same file as the report (standard output)"),
                                      (["--no-db", "--persona", persona, "--out", persona], "--out \(persona): is the persona file \(persona), an input"),
                                      (["--no-db", "--out", "./rules/../rules/escalation.lua"], "--out ./rules/../rules/escalation.lua: is the rule file \(rule), an input")] {
            let result = try CLI.run(["simulate", "2d", "--users", "2"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["mine.lua"])
        #expect(try String(contentsOfFile: persona, encoding: .utf8) == "-- a persona file\n")
    }

    @Test func mergeNeverWritesOverAShard() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var parts: [String] = []
        for i in 1...2 {
            let path = dir.appendingPathComponent("p\(i).json").path
            #expect(try CLI.run(["simulate", "3d", "--users", "4", "--no-db", "--shard", "\(i)/2", "--format", "json", "--out", path]).status == 0)
            parts.append(path)
        }
        let first = try Data(contentsOf: URL(fileURLWithPath: parts[0])), second = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
        let link = dir.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "p1.json")
        for (arguments, expected) in [(["--chart", parts[0]], "--chart \(parts[0]): is the report \(parts[0]), an input; refusing to write over it"),
                                      (["--out", dir.appendingPathComponent("new/../p2.json").path], "is the report \(parts[1]), an input"),
                                      (["--out", link], "--out \(link): is the report \(parts[0]), an input"),
                                      (["--out", "-", "--chart", "-"], "--chart -: is the same file as --out -")] {
            let result = try CLI.run(["merge"] + parts + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: parts[0])) == first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: parts[1])) == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.json", "p1.json", "p2.json"])
        let dash = try CLI.run(["merge"] + parts + ["--out", "-"])
        #expect(dash.status == 0 && dash.stdout.contains("summary"), "\(dash.stderr)")
    }
}
