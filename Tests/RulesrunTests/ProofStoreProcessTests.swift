import Foundation
import Testing

@testable import RulesEngine

/// The proofs a `rulesrun` process keeps on disk (`RULESRUN_PROOF_CACHE`, ``ProofStore``), seen
/// from the processes that read them: a second process prints what the first's files hold without
/// writing them again; a damaged file, a changed rule file or another build proves again, with the
/// same findings; `off` keeps none.
@Suite struct ProofStoreProcessTests {
    /// A copy of the default rules that no other test proves (a comment of its own in each file),
    /// and an empty cache folder (made by the first process).
    static func place() throws -> (rules: URL, cache: String) {
        let mark = UUID().uuidString
        let rules = try CLI.folder(
            Dictionary(
                uniqueKeysWithValues: try RuleSet.fileNames.map { name in
                    let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/\(name)"), encoding: .utf8)
                    return (name, "-- \(mark)\n" + text)
                }))
        return (rules, rules.path + "-proofs")
    }

    static func remove(_ place: (rules: URL, cache: String)) {
        try? FileManager.default.removeItem(at: place.rules)
        try? FileManager.default.removeItem(atPath: place.cache)
    }

    static func validate(_ place: (rules: URL, cache: String), _ extra: [String] = [], cache: String? = nil) throws -> CLI.Result {
        try CLI.run(["validate", place.rules.path] + extra, environment: [ProofStore.variable: cache ?? place.cache])
    }

    /// The store's files, each with its inode (a file written again is another inode).
    static func files(_ cache: String) throws -> [String: UInt64] {
        var files: [String: UInt64] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: cache) {
            let attributes = try FileManager.default.attributesOfItem(atPath: cache + "/" + name)
            files[name] = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        }
        return files
    }

    /// A file's key and findings, when it reads back whole.
    static func read(_ path: String) throws -> (key: [UInt8], entry: ProofCache.Entry)? {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var input = ProofRecord.Reader(bytes)
        guard (try? input.text()) == ProofStore.magic, let key = try? Array(input.data(max: bytes.count)) else { return nil }
        return ProofStore.entry(in: bytes, key: key).map { (key, $0) }
    }

    static func edit(_ rules: URL, _ file: String, _ old: String, _ new: String) throws {
        let url = rules.appendingPathComponent(file)
        try CLI.edit(try String(contentsOf: url, encoding: .utf8), [(old, new)]).write(to: url, atomically: true, encoding: .utf8)
    }

    /// The first process keeps one file per rule file; the second prints the same without writing
    /// any, and what it prints is what the files hold (a finding changed in a file, its checksum
    /// made to hold, is what a third prints).
    @Test func aSecondProcessReusesTheFirstsProofs() throws {
        let place = try Self.place()
        defer { Self.remove(place) }
        let first = try Self.validate(place)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        let kept = try Self.files(place.cache)
        #expect(kept.count == RuleSet.fileNames.count, "\(kept)")
        let second = try Self.validate(place)
        #expect(second.status == 0 && second.stdout == first.stdout && second.stderr == first.stderr, "\(second.stdout)")
        #expect(try Self.files(place.cache) == kept)

        let streaks = try #require(
            try kept.keys.first { name in
                try Self.read(place.cache + "/" + name)?.entry.outcomes.contains { $0.name == "pressure.next" } == true
            })
        let (key, entry) = try #require(try Self.read(place.cache + "/" + streaks))
        let changed = ProofCache.Entry(
            outcomes: entry.outcomes.map { outcome in
                ProofCache.Outcome(
                    name: outcome.name, inputs: outcome.inputs,
                    unproved: outcome.name == "pressure.next" ? "streaks the file says" : outcome.unproved, problems: outcome.problems,
                    budgetProblem: outcome.budgetProblem)
            }, start: entry.start, instructions: entry.instructions, randomState: entry.randomState)
        try Data(try #require(ProofStore.file(changed, key: key))).write(to: URL(fileURLWithPath: place.cache + "/" + streaks))
        let third = try Self.validate(place)
        #expect(third.stdout.contains("\n  pressure.next: not proved for streaks the file says\n"), "\(third.stdout)")
        #expect(!first.stdout.contains("streaks the file says"))
    }

    /// A failing proof's findings, read from the store, are the proof's: the same messages and
    /// exit status, in text and in JSON, as a process that keeps no proofs prints.
    @Test func aFailingProofIsReproducedFromTheStore() throws {
        let place = try Self.place()
        defer { Self.remove(place) }
        let header = "function M.earned.bonus(streak_count)\n"
        try Self.edit(place.rules, "streaks.lua", header, header + "  if streak_count == 37 then return math.maxinteger end\n")
        for format in [[], ["--format", "json"]] {
            let proved = try Self.validate(place, format, cache: "off")
            #expect(proved.status == 1)
            #expect(proved.stdout.contains("earned.bonus(37) returned integer 9223372036854775807"), "\(proved.stdout)")
            let first = try Self.validate(place, format)
            let kept = try Self.files(place.cache)
            let second = try Self.validate(place, format)
            #expect(try Self.files(place.cache) == kept)
            for run in [first, second] {
                #expect(run.status == proved.status && run.stdout == proved.stdout && run.stderr == proved.stderr, "\(format): \(run.stdout)")
            }
        }
    }

    /// Damaged files (cut short, a byte changed, other bytes, empty, another key's) are proved
    /// again: the same findings, and each file whole again.
    @Test func aDamagedFileIsProvedAgain() throws {
        let place = try Self.place()
        defer { Self.remove(place) }
        try Self.edit(
            place.rules, "pricing.lua", "    if cost.minutes == ctx.minutes then return cost.credits end\n",
            "    if cost.minutes == ctx.minutes then return cost.credits + 0.5 end\n")
        let first = try Self.validate(place)
        #expect(first.status == 1 && first.stdout.contains("returned number 10.5, expected an integer"), "\(first.stdout)")
        let names = try Self.files(place.cache).keys.sorted()
        #expect(names.count == RuleSet.fileNames.count)
        let paths = names.map { place.cache + "/" + $0 }
        let whole = try paths.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        let damaged: [[UInt8]] = [
            Array(whole[0].prefix(whole[0].count / 2)),
            whole[1].enumerated().map { $0.offset == whole[1].count / 2 ? $0.element ^ 0x20 : $0.element },
            Array(repeating: 0x5A, count: whole[2].count),
            [],
            whole[0],
        ]
        for (path, bytes) in zip(paths, damaged) { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        let second = try Self.validate(place)
        #expect(second.status == first.status && second.stdout == first.stdout && second.stderr == first.stderr, "\(second.stdout)")
        #expect(try Self.files(place.cache).keys.sorted() == names)
        for path in paths { #expect(try Self.read(path) != nil, "\(path)") }
    }

    /// A changed rule file is proved again, and so are the files loaded after it (their key holds
    /// the files before them); those before it are read.
    @Test func aChangedRuleFileMissesTheStore() throws {
        let place = try Self.place()
        defer { Self.remove(place) }
        let first = try Self.validate(place)
        #expect(first.status == 0)
        let kept = try Self.files(place.cache)
        try Self.edit(
            place.rules, "pricing.lua", "    if cost.minutes == ctx.minutes then return cost.credits end\n",
            "    if cost.minutes == ctx.minutes then return cost.credits + 0.5 end\n")
        let changed = try Self.validate(place)
        #expect(changed.status == 1 && changed.stdout.contains("returned number 10.5, expected an integer"), "\(changed.stdout)")
        let now = try Self.files(place.cache)
        // pricing.lua, quests.lua and modes.lua: three more; the other two as they were.
        #expect(now.count == kept.count + 3)
        #expect(now.filter { kept[$0.key] == $0.value }.count == kept.count)
    }

    /// Another build of rulesrun (a copy whose build id differs) reads none of the files of this
    /// one: it proves again, with the same findings, into files of its own.
    @Test func anotherBuildProvesAgain() throws {
        let place = try Self.place()
        defer { Self.remove(place) }
        let first = try Self.validate(place)
        let kept = try Self.files(place.cache)
        let (key, _) = try #require(try Self.read(place.cache + "/" + kept.keys.sorted()[0]))
        var input = ProofRecord.Reader(key)
        let identity = try input.text()
        let executable = String(identity.prefix { $0 != " " })
        let id = stride(from: 0, to: executable.count, by: 2).map {
            UInt8(executable.dropFirst($0).prefix(2), radix: 16)!
        }
        // The copy with its build id's last byte changed.
        var binary = try Data(contentsOf: CLI.executable.resolvingSymlinksInPath())
        var found = 0
        var from = binary.startIndex
        while let range = binary.range(of: Data(id), in: from..<binary.endIndex) {
            binary[range.upperBound - 1] ^= 0xFF
            found += 1
            from = range.upperBound
        }
        #expect(found == 1, "the build id \(executable) in the binary")
        let copy = URL(fileURLWithPath: place.cache + "-bin/rulesrun")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        try binary.write(to: copy)
        #expect(chmod(copy.path, 0o755) == 0)
        let rebuilt = try CLI.run(["validate", place.rules.path], executableURL: copy, environment: [ProofStore.variable: place.cache])
        #expect(rebuilt.status == first.status && rebuilt.stdout == first.stdout, "\(rebuilt.stdout)\(rebuilt.stderr)")
        let now = try Self.files(place.cache)
        #expect(now.count == 2 * kept.count)
        #expect(now.filter { kept[$0.key] == $0.value }.count == kept.count)
    }

    /// `off` keeps nothing; unset (or empty), the proofs go to `proofs/` of the cache folder.
    @Test func offKeepsNothingAndTheDefaultIsTheCacheFolder() throws {
        let place = try Self.place()
        defer { Self.remove(place) }
        let home = place.cache + "-xdg"
        defer { try? FileManager.default.removeItem(atPath: home) }
        for value in ["off", ""] {
            let result = try CLI.run(
                ["validate", place.rules.path], environment: [ProofStore.variable: value, "XDG_CACHE_HOME": home])
            #expect(result.status == 0, "\(result.stderr)")
            let proofs = (try? FileManager.default.contentsOfDirectory(atPath: home + "/rulesrun/proofs")) ?? []
            #expect(proofs.count == (value == "off" ? 0 : RuleSet.fileNames.count), "\(value): \(proofs)")
        }
    }
}
