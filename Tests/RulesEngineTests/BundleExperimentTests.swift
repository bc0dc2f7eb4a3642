import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// Experiments in bundles: the salted assignment is uniform and independent between salts (chi-square
/// over 10^6 ids), stable when arms grow, checked field by field in the signed manifest, and an
/// engine on such a bundle applies each user's events under the rules of the user's arm.
///
/// The critical values are chi-square quantiles at 0.999, computed once with SciPy 1.17:
/// `python3 -c "from scipy.stats import chi2; print([chi2.ppf(0.999, df) for df in (9999, 2, 81)])"`
/// → 10441.708713915372, 13.815510557964274, 126.08255833316952. The ids and salts are fixed, so
/// each test gives the same verdict on every run.
@Suite struct BundleExperimentTests {
    static let ids = (0..<1_000_000).map { "u\($0)" }
    /// The ids' buckets under two salts, computed once for the suite.
    static let first = ids.map { BundleExperiment.bucket(of: $0, salt: "pricing-q1") }
    static let second = ids.map { BundleExperiment.bucket(of: $0, salt: "streaks-q1") }

    func chiSquare(_ counts: [Int], expected: [Double]) -> Double {
        zip(counts, expected).reduce(0) { $0 + (Double($1.0) - $1.1) * (Double($1.0) - $1.1) / $1.1 }
    }

    /// The bucket is the documented hash: the first 8 bytes of SHA-256(salt ":" user), big-endian,
    /// modulo 10,000 (the values computed with Python's hashlib).
    @Test func theBucketIsTheDocumentedHash() {
        #expect(BundleExperiment.bucket(of: "u1", salt: "esc") == 8948)
        #expect(BundleExperiment.bucket(of: "u123456", salt: "pricing-q1") == 1877)
        #expect(BundleExperiment.bucket(of: "user-é-ünïcödé", salt: "a-salt-of-forty-characters-0123456789abc") == 7697)
    }

    @Test func bucketsAreUniformOverAMillionIDs() {
        var counts = [Int](repeating: 0, count: BundleExperiment.buckets)
        for bucket in Self.first { counts[bucket] += 1 }
        let statistic = chiSquare(counts, expected: [Double](repeating: 100, count: counts.count))
        #expect(statistic < 10441.708713915372, "chi-square \(statistic) over 9,999 degrees of freedom")
    }

    @Test func armsGetTheirSharesOverAMillionIDs() throws {
        let experiment = try BundleExperiment.allocate(
            name: "checkout", salt: "pricing-q1", shares: [("control", 5_000), ("a", 3_000), ("b", 2_000)], previous: nil)
        #expect(experiment.armIndex(of: "u12345") == experiment.armIndex(ofBucket: Self.first[12_345]))
        var counts = [0, 0, 0]
        for bucket in Self.first { counts[experiment.armIndex(ofBucket: bucket)] += 1 }
        let statistic = chiSquare(counts, expected: [500_000, 300_000, 200_000])
        #expect(statistic < 13.815510557964274, "counts \(counts): chi-square \(statistic) over 2 degrees of freedom")
    }

    /// The deciles of the buckets under two salts: a 10 × 10 table whose cells are independent.
    @Test func twoSaltsAssignIndependently() {
        var table = [[Int]](repeating: [Int](repeating: 0, count: 10), count: 10)
        for (a, b) in zip(Self.first, Self.second) { table[a / 1_000][b / 1_000] += 1 }
        let rows = table.map { $0.reduce(0, +) }, columns = (0..<10).map { c in table.reduce(0) { $0 + $1[c] } }
        var statistic = 0.0
        for r in 0..<10 {
            for c in 0..<10 {
                let expected = Double(rows[r]) * Double(columns[c]) / Double(Self.ids.count)
                statistic += (Double(table[r][c]) - expected) * (Double(table[r][c]) - expected) / expected
            }
        }
        #expect(statistic < 126.08255833316952, "chi-square \(statistic) over 81 degrees of freedom")
    }

    /// Over random sequences of allocations, each built from the previous one, an arm whose share
    /// does not shrink keeps every bucket it had, and one that shrinks keeps only buckets it had.
    @Test func anArmThatDoesNotShrinkKeepsItsUsers() throws {
        var random = SeededGenerator(seed: 42)
        let names = ["control", "a", "b", "c"]
        for _ in 0..<40 {
            var previous: BundleExperiment?
            for _ in 0..<6 {
                var cuts = (0..<(names.count - 1)).map { _ in Int.random(in: 0...BundleExperiment.buckets, using: &random) }.sorted()
                cuts = [0] + cuts + [BundleExperiment.buckets]
                let shares = names.indices.map { (names[$0], cuts[$0 + 1] - cuts[$0]) }
                let next = try BundleExperiment.allocate(name: "e", salt: "s", shares: shares, previous: previous)
                #expect(next.arms.map(\.basisPoints) == shares.map(\.1))
                if let previous {
                    for (old, new) in zip(previous.arms, next.arms) {
                        let (had, has) = (Set(old.buckets.flatMap { $0 }), Set(new.buckets.flatMap { $0 }))
                        #expect(new.basisPoints >= old.basisPoints ? had.isSubset(of: has) : has.isSubset(of: had), "arm \(old.name)")
                    }
                }
                previous = next
            }
        }
        // Another salt (or name) starts afresh: consecutive buckets in order.
        let fresh = try BundleExperiment.allocate(
            name: "e", salt: "t", shares: [("control", 9_000), ("a", 1_000)],
            previous: try BundleExperiment.allocate(name: "e", salt: "s", shares: [("control", 1_000), ("a", 9_000)], previous: nil))
        #expect(fresh.arms.map(\.buckets) == [[0..<9_000], [9_000..<10_000]])
    }

    @Test func badAllocationsAreRefused() {
        func refusal(_ shares: [(String, Int)], name: String = "e") -> String {
            do {
                _ = try BundleExperiment.allocate(name: name, salt: "s", shares: shares, previous: nil)
                return "accepted"
            } catch { return error.message }
        }
        #expect(refusal([("control", 5_000), ("a", 4_000)]) == "the arms' shares add up to 9000 basis points; expected 10000 (100 %)")
        #expect(refusal([("control", 5_000), ("control", 5_000)]) == "an arm is named twice")
        #expect(refusal([("control", 10_000)], name: "Bad Name") == "experiment name \"Bad Name\": expected 1 to 40 of a-z, 0-9, '-', '_' and '.'")
        #expect(refusal([("control", 11_000), ("a", -1_000)]) == "arm control: expected 0 to 10000 basis points, found 11000")
    }

    // MARK: - In a bundle

    static let key = BundleSigningKey.generate()
    static let lenient: [(old: String, new: String)] = [("M.tier_for_misses = { 1, 2, 3 }", "M.tier_for_misses = { 2, 3, 4 }")]

    /// The default rules as the control and arm `lenient`, which escalates from the second miss in a row.
    static func bundle(_ revision: Int, shares: [(String, Int)], previous: BundleExperiment? = nil) throws -> [UInt8] {
        let control = RuleFixture.rulesFolder.path
        let lenientDir = try RuleFixture.folder(with: try RuleFixture.edit(RuleFixture.defaultSource(), lenient))
        defer { try? FileManager.default.removeItem(at: lenientDir) }
        let experiment = try BundleExperiment.allocate(name: "escalation-2026", salt: "esc", shares: shares, previous: previous)
        return try RuleBundle.build(
            folder: control, experiment: experiment, arms: ["lenient": lenientDir.path], key: key, revision: revision, rollback: false,
            created: Date(timeIntervalSince1970: 1_800_000_000), builtWith: "test", provedFunctions: 32, provedInputs: 1, testsPassed: 0,
            testsFailed: 0)
    }

    @Test func aBundleHoldsEachArmsRulesAndUnpacksThemApart() throws {
        let bytes = try Self.bundle(1, shares: [("control", 5_000), ("lenient", 5_000)])
        let bundle = try RuleBundle.read(bytes, source: "x.bundle", trusting: [Self.key.publicKey])
        #expect(bundle.manifest.experiment?.arms.map(\.name) == ["control", "lenient"])
        #expect(bundle.files.map(\.path).filter { $0.hasPrefix("arms/lenient/") }.count == 5)
        for (arm, text) in [(0, "M.tier_for_misses = { 1, 2, 3 }"), (1, "M.tier_for_misses = { 2, 3, 4 }")] {
            let source = try bundle.withUnpacked(arm: arm) { try String(contentsOf: $0.appendingPathComponent("escalation.lua"), encoding: .utf8) }
            #expect(source.contains(text))
        }
        #expect(try bundle.armIndex("lenient") == 1 && bundle.armIndex(nil) == 0)
        #expect(throws: BundleError.self) { try bundle.armIndex("slow") }
    }

    /// `bundle diff` of a plain bundle and a rollout, and of two allocations: the experiment's fields
    /// by name (null where a manifest has none), the arm's files added.
    @Test func aDiffShowsTheExperimentAndTheArmsFiles() throws {
        let plain = try RuleBundle.read(
            try RuleBundle.build(
                folder: RuleFixture.rulesFolder.path, key: Self.key, revision: 1, rollback: false,
                created: Date(timeIntervalSince1970: 1_800_000_000), builtWith: "test", provedFunctions: 32, provedInputs: 1, testsPassed: 0,
                testsFailed: 0), source: "a", trusting: [Self.key.publicKey])
        let small = try RuleBundle.read(
            try Self.bundle(1, shares: [("control", 9_000), ("lenient", 1_000)]), source: "b", trusting: [Self.key.publicKey])
        let diff = try BundleDiff(plain, source: "a", small, source: "b")
        #expect(diff.manifest.map(\.name) == ["rules_digest", "experiment.name", "experiment.salt", "experiment.arms"])
        #expect(diff.manifest.dropFirst().map(\.a) == [.null, .null, .null])
        #expect(diff.files.map(\.change) == Array(repeating: .added, count: 5) && diff.knobs.isEmpty)
        let grown = try RuleBundle.read(
            try Self.bundle(2, shares: [("control", 7_500), ("lenient", 2_500)], previous: small.manifest.experiment), source: "c",
            trusting: [Self.key.publicKey])
        let growth = try BundleDiff(small, source: "b", grown, source: "c")
        #expect(growth.manifest.map(\.name) == ["revision", "experiment.arms"] && growth.files.isEmpty)
    }

    /// The manifest's experiment is signed and checked: every way of bending it is refused.
    @Test func aBentExperimentIsRefused() throws {
        let good = try RuleBundleTamperTests.Parts(try Self.bundle(1, shares: [("control", 5_000), ("lenient", 5_000)]))
        func refusal(_ old: String, _ new: String) throws -> String {
            var parts = good
            #expect(parts.manifest.contains(old), "\(old)")
            parts.manifest = parts.manifest.replacingOccurrences(of: old, with: new)
            do {
                _ = try RuleBundle.read(try parts.signed(by: Self.key), source: "x.bundle", trusting: [Self.key.publicKey])
                return "accepted"
            } catch { return (error as? BundleError)?.message ?? "\(error)" }
        }
        #expect(
            try refusal("\"buckets\":[[0,5000]]", "\"buckets\":[[0,5001]]")
                == "manifest.experiment.arms[0].basis_points: 5000, but its buckets hold 5001")
        #expect(
            try refusal("\"basis_points\":5000,\"buckets\":[[0,5000]]", "\"basis_points\":4999,\"buckets\":[[0,4999]]")
                == "manifest.experiment.arms: bucket 4999 is in no arm (the arms must hold all 10000)")
        #expect(
            try refusal("\"basis_points\":5000,\"buckets\":[[5000,10000]]", "\"basis_points\":5001,\"buckets\":[[4999,10000]]")
                .hasPrefix("manifest.experiment.arms[1].buckets[0]: bucket 4999 is arm control's too"))
        #expect(try refusal("\"name\":\"lenient\"", "\"name\":\"control\"") == "manifest.experiment.arms[1].name: control names another arm too")
        #expect(try refusal("\"salt\":\"esc\"", "\"salt\":\"\"").hasPrefix("manifest.experiment.salt"))
        // A file of an arm the experiment does not have.
        var parts = good
        parts.manifest = parts.manifest.replacingOccurrences(of: "arms/lenient/", with: "arms/slow/")
        parts.files = parts.files.map { ($0.0.replacingOccurrences(of: "arms/lenient/", with: "arms/slow/"), $0.1) }
        #expect(throws: BundleError.self) { try RuleBundle.read(try parts.signed(by: Self.key), source: "x.bundle", trusting: [Self.key.publicKey]) }
    }

    /// An engine on the bundle: a user of arm `lenient` (which escalates from the second miss) stays at
    /// tier 0 after a miss, where one of the control goes to tier 1; a kill
    /// switch (every user on the control) takes effect at the next event. Each user is exposed to
    /// its arm once, at its first event under it.
    @Test func theEngineAppliesEachUsersArm() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bundles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try Self.bundle(1, shares: [("control", 5_000), ("lenient", 5_000)])
        let experiment = try #require(try RuleBundle.read(first, source: "b", trusting: [Self.key.publicKey]).manifest.experiment)
        let engine = try BundledEngine(store: Store.inMemory(), folder: dir, trustedKeys: [Self.key.publicKey], initial: first)
        let users = (1...40).map { "u\($0)" }
        let arms = users.map { experiment.armIndex(of: $0) }
        #expect(Set(arms) == [0, 1])
        var state: JSONValue = .null
        func tier(_ user: String, _ line: String) throws -> JSONValue? {
            state = try engine.apply(try EngineEvent.parse(line.replacingOccurrences(of: "\"u1\"", with: "\"\(user)\""))).state
            return state["current_tier"]
        }
        /// The user's exposures in the last state: arm and revision.
        func exposures() -> [String] {
            guard case .array(let list)? = state["exposures"] else { return [] }
            return list.map { "\($0["arm"].map { "\($0)" } ?? "?") \($0["revision"].map { "\($0)" } ?? "?")" }
        }
        for (user, arm) in zip(users, arms) {
            _ = try tier(user, Ev.commit(2))
            #expect(try tier(user, Ev.checkIn(2, "NO")) == .int(arm == 1 ? 0 : 1), "\(user) in arm \(arm)")
            // Exposed once, at its first event, to its arm under revision 1.
            #expect(exposures() == [arm == 1 ? "\"lenient\" 1" : "\"control\" 1"], "\(user)")
        }
        try engine.activate(try Self.bundle(2, shares: [("control", 10_000), ("lenient", 0)], previous: experiment), source: "kill.bundle")
        for (user, arm) in zip(users, arms) {
            _ = try tier(user, Ev.commit(3))
            #expect(try tier(user, Ev.checkIn(3, "NO")) == .int(2), "\(user): 2 misses, tier 2 under the control")
            // Moved by the kill switch: exposed to the control too, under revision 2.
            #expect(exposures() == (arm == 1 ? ["\"lenient\" 1", "\"control\" 2"] : ["\"control\" 1"]), "\(user)")
        }
    }

    /// The arms' engines share one store and each keeps its users' contexts between their events;
    /// an event of one arm's user does not make the other arms read all of theirs again (an event
    /// writes only its own user's rows), but a context another engine holds of that very user is
    /// read again.
    @Test func theArmsKeepTheirUsersBetweenEachOthersEvents() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bundles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Self.bundle(1, shares: [("control", 5_000), ("lenient", 5_000)])
        let experiment = try #require(try RuleBundle.read(bytes, source: "b", trusting: [Self.key.publicKey]).manifest.experiment)
        let engine = try BundledEngine(store: Store.inMemory(), folder: dir, trustedKeys: [Self.key.publicKey], initial: bytes)
        let users = (1...20).map { "u\($0)" }
        #expect(Set(users.map { experiment.armIndex(of: $0) }) == [0, 1])
        func apply(_ user: String, _ line: String) throws -> Engine.Outcome {
            try engine.apply(try EngineEvent.parse(line.replacingOccurrences(of: "\"u1\"", with: "\"\(user)\"")))
        }
        func read() -> Int { engine.engines.reduce(0) { $0 + $1.usersRead } }
        for user in users { _ = try apply(user, Ev.commit(2)) }
        #expect(read() == users.count, "each user read once, when its first event created it")
        for user in users { _ = try apply(user, Ev.tick(2, "09:00")) }
        #expect(read() == users.count, "no user read again")
        // The control's engine asked for the state of a user of the other arm keeps its context;
        // an event of that user (through its arm's engine) makes it read the user again.
        let other = try #require(users.first { experiment.armIndex(of: $0) == 1 })
        _ = engine.engines[0].state(ofUser: other)
        let checked = try apply(other, Ev.checkIn(2, "NO"))
        #expect(engine.engines[0].state(ofUser: other) == checked.state)
        #expect(checked.state["current_tier"] == .int(0), "the lenient arm: no tier after one miss")
    }
}
