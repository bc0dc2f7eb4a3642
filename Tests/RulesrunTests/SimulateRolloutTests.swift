import Foundation
import Testing

/// `rulesrun simulate --rules FILE.bundle` on a bundle with an experiment and no arm named: the
/// rollout as a whole (docs/bundles.md#simulating-the-rollout). Each user runs under the arm the
/// manifest assigns it, its exposure after its first event; the report is by arm too.
@Suite struct SimulateRolloutTests {
    /// Each user's replay lines in a `--events` file, by user, exposures left out.
    static func linesByUser(_ text: String) throws -> (lines: [String: [String]], arms: [String: String]) {
        var lines: [String: [String]] = [:], arms: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let user = try #require(object["user"] as? String)
            if object["type"] as? String == "exposure" {
                #expect(arms[user] == nil, "one exposure per user: \(line)")
                arms[user] = object["arm"] as? String
                #expect(object["experiment"] as? String == "escalation-2026")
                #expect(object["revision"] as? Int == 1)
                // After the user's first event, at its time.
                #expect(lines[user]?.count == 1, "\(line)")
            } else {
                lines[user, default: []].append(String(line))
            }
        }
        return (lines, arms)
    }

    @Test func eachUserRunsUnderItsArmAndTheReportIsByArm() throws {
        let dir = try BundleExperimentCommandTests.folder()
        let built = try CLI.run(BundleExperimentCommandTests.build + ["--allocation", "control=60%,lenient=40%"], in: dir)
        #expect(built.status == 0, "\(built.stderr)")
        let simulate = ["simulate", "4d", "--users", "40", "--no-db", "--format", "json"]
        let rollout = try CLI.run(simulate + ["--rules", "x.bundle", "--events", "rollout.jsonl", "--jobs", "1"], in: dir)
        #expect(rollout.status == 0, "\(rollout.stderr)")
        // Each user's events are those of the same user in a run of its arm's rules alone.
        let (lines, arms) = try Self.linesByUser(String(contentsOf: dir.appendingPathComponent("rollout.jsonl"), encoding: .utf8))
        #expect(arms.count == 40)
        #expect(Set(arms.values) == ["control", "lenient"])
        for arm in ["control", "lenient"] {
            #expect(try CLI.run(simulate + ["--rules", arm, "--events", "\(arm).jsonl"], in: dir).status == 0)
            let alone = try Self.linesByUser(String(contentsOf: dir.appendingPathComponent("\(arm).jsonl"), encoding: .utf8))
            for (user, a) in arms where a == arm { #expect(lines[user] == alone.lines[user], "\(user) on \(arm)") }
        }
        // The arms' rules differ: some user's events differ from the control's.
        let control = try Self.linesByUser(String(contentsOf: dir.appendingPathComponent("control.jsonl"), encoding: .utf8))
        #expect(arms.contains { user, arm in arm == "lenient" && lines[user] != control.lines[user] })

        let report = try #require(try JSONSerialization.jsonObject(with: Data(rollout.stdout.utf8)) as? [String: Any])
        #expect((report["run"] as? [String: Any])?["rules"] as? String == "x.bundle")
        let byArm = try #require(report["arms"] as? [String: Any])
        #expect(byArm["experiment"] as? String == "escalation-2026")
        let listed = try #require(byArm["arms"] as? [[String: Any]])
        #expect(listed.map { $0["arm"] as? String } == ["control", "lenient"])
        #expect(listed.map { $0["users"] as? Int } == ["control", "lenient"].map { a in arms.values.filter { $0 == a }.count })
        #expect((listed[0]["metrics"] as? [String: Any])?["yes_rate"] != nil)

        // The report passes the report schema (`rulesrun schema report simulate`).
        let schema = try CLI.run(["schema", "report", "simulate"])
        let checker = try JSONSchemaChecker(schema.stdout)
        #expect(checker.errors(try JSONSchemaChecker.Value.parse(rollout.stdout)) == [])

        // The same bytes whatever the number of jobs; the table has the section.
        let threeJobs = try CLI.run(simulate + ["--rules", "x.bundle", "--jobs", "3"], in: dir)
        #expect(threeJobs.stdout == rollout.stdout)
        let table = try CLI.run(["simulate", "4d", "--users", "40", "--no-db", "--rules", "x.bundle"], in: dir)
        #expect(table.stdout.contains("by arm of experiment escalation-2026 (revision 1)"), "\(table.stdout)")
    }

    @Test func whatRunsOneRuleSetRefusesARollout() throws {
        let dir = try BundleExperimentCommandTests.folder()
        #expect(try CLI.run(BundleExperimentCommandTests.build, in: dir).status == 0)
        for extra in [["--coverage"], ["--replicas", "2"]] {
            let refused = try CLI.run(["simulate", "2d", "--users", "5", "--no-db", "--rules", "x.bundle"] + extra, in: dir)
            #expect(refused.status == 2, "\(extra): \(refused.stderr)")
            #expect(refused.stderr.contains("runs experiment escalation-2026 as a whole (each user under its arm); leave out \(extra[0])"))
        }
        let sweep = try CLI.run(["sweep", "--rules", "x.bundle", "--set", "escalation.max_tier=2,3", "--days", "2", "--users", "5"], in: dir)
        #expect(sweep.status != 0)
        #expect(sweep.stderr.contains("x.bundle: runs experiment escalation-2026 with arms control, lenient: name the arm's rules"), "\(sweep.stderr)")
    }
}
