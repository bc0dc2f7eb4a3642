import Foundation
import Testing

/// Two outputs of one command are never one file (the last write would win), and no output is one
/// of its inputs, however the paths are spelled: `simulate`, `merge` and `compare` refuse them
/// before anything is written.
@Suite struct OutputCollisionTests {
    @Test func simulateRefusesOutputsThatAreOneFileOrAnInput() throws {
        let steady = try String(contentsOf: CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua"), encoding: .utf8)
        let dir = try CLI.folder(["mine.lua": steady])
        defer { try? FileManager.default.removeItem(at: dir) }
        // A copy of the rules: without the check, the run would write over one of them.
        let rules = dir.appendingPathComponent("rules")
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("rules"), to: rules)
        let a = dir.appendingPathComponent("a.txt").path, db = dir.appendingPathComponent("x.sqlite").path
        let persona = dir.appendingPathComponent("mine.lua").path
        let rule = rules.appendingPathComponent("escalation.lua").path
        let ruleText = try String(contentsOfFile: rule, encoding: .utf8)
        for (arguments, expected) in [
            (
                ["--no-db", "--out", a, "--chart", dir.appendingPathComponent("new/../a.txt").path],
                "--chart \(dir.path)/new/../a.txt: is the same file as --out \(a)"
            ),
            (["--db", db, "--out", db], "--db \(db): is the same file as --out \(db)"),
            (["--db", db, "--chart", db + "-journal"], "--db \(db): is the same file as --chart \(db)-journal"),
            (["--no-db", "--chart", "-"], "--chart -: is the same file as the report (standard output)"),
            (["--no-db", "--chart", a, "--html", a], "--html \(a): is the same file as --chart \(a)"),
            (["--no-db", "--html", rule], "--html \(rule): is the rule file \(rule), an input"),
            (["--no-db", "--persona", persona, "--out", persona], "--out \(persona): is the persona file \(persona), an input"),
            (
                ["--no-db", "--out", "\(dir.path)/rules/../rules/escalation.lua"],
                "--out \(dir.path)/rules/../rules/escalation.lua: is the rule file \(rule), an input"
            ),
        ] {
            let result = try CLI.run(
                [
                    "simulate", "2d", "--users", "2", "--rules", rules.path,
                    "--persona-dir", CLI.packageRoot.appendingPathComponent("examples/personas").path,
                ] + arguments, in: dir)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["mine.lua", "rules"])
        #expect(try String(contentsOfFile: persona, encoding: .utf8) == steady)
        #expect(try String(contentsOfFile: rule, encoding: .utf8) == ruleText)
    }

    @Test func mergeNeverWritesOverAShard() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        var parts: [String] = []
        for i in 1...2 {
            let path = dir.appendingPathComponent("p\(i).json").path
            #expect(
                try CLI.run(["simulate", "3d", "--users", "4", "--no-db", "--shard", "\(i)/2", "--format", "json", "--out", path]).status
                    == 0)
            parts.append(path)
        }
        let first = try Data(contentsOf: URL(fileURLWithPath: parts[0])), second = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
        let link = dir.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "p1.json")
        for (arguments, expected) in [
            (["--chart", parts[0]], "--chart \(parts[0]): is the report \(parts[0]), an input; refusing to write over it"),
            (["--out", dir.appendingPathComponent("new/../p2.json").path], "is the report \(parts[1]), an input"),
            (["--out", link], "--out \(link): is the report \(parts[0]), an input"),
            (["--out", "-", "--chart", "-"], "--chart -: is the same file as --out -"),
        ] {
            let result = try CLI.run(["merge"] + parts + arguments, in: dir)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: parts[0])) == first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: parts[1])) == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.json", "p1.json", "p2.json"])
        let dash = try CLI.run(["merge"] + parts + ["--out", "-"], in: dir)
        #expect(dash.status == 0 && dash.stdout.contains("summary"), "\(dash.stderr)")
    }
}
